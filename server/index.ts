export type { ServiceOptions, Service, FaultRule, ServiceState } from './types'
export type { IdempotencyLimits } from './guards'
export type {
  SubscriberRecord,
  WorkflowRecord,
  MessageRecord,
  TopicRecord,
  SubscriptionRecord,
  IntegrationRecord,
  TenantRecord,
} from './types'
export type {
  Fixture,
  FixtureApiKey,
  FixtureStep,
  FixtureWorkflow,
  FixtureSubscriber,
  FixtureTopic,
  FixtureIntegration,
  FixtureTenant,
  FixtureMessage,
} from './fixture'
export { FixtureError } from './fixture'
export { validateFixture } from './validateFixture'
export { createService } from './service'
export { demoFixture, DEMO_API_KEY, DEMO_SUBSCRIBER_ID } from './fixtures/demo'
export { DEMO_PRODUCTION_API_KEY } from './fixtures/demo'
export { generateMessages, generateSubscriptions } from './generate'
export type { GenerateMessagesOptions, GenerateSubscriptionsOptions } from './generate'
export { createWebhookSecret } from './webhooks'
export type { WebhookOptions, WebhookStats } from './webhooks'
