/** inbox-kit/proxy: the server side that keeps the service's API key off the browser. */
export { createInboxProxy } from './proxy'
export type { AuthenticateResult, InboxEventsOptions, InboxProxyHandler, InboxProxyOptions } from './proxy'
export { createMemoryBroker } from './events'
export type {
  BrokerEntry,
  InboxEvent,
  InboxEventBroker,
  InboxEventType,
  MemoryBrokerOptions,
  ResumePoint,
} from './events'
export { createMemoryRateLimitStore } from './rateLimit'
export type {
  MemoryRateLimitStore,
  MemoryRateLimitStoreOptions,
  RateLimitRule,
  RateLimitStore,
  RateLimitVerdict,
} from './rateLimit'
export { bearerTokenAuth, createSubscriberToken, verifySubscriberToken } from './token'
export type { CreateSubscriberTokenOptions, VerifiedSubscriberToken, VerifySubscriberTokenOptions } from './token'
export { toNodeHandler } from './node'
export type { NodeContext, NodeRequest } from './node'
export { readSubscriberToken } from '../auth/tokenPayload'
export type { SubscriberTokenPayload } from '../auth/tokenPayload'
