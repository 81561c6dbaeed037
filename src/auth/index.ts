/** Browser side of subscriber tokens: Bearer headers for the proxy, refreshed before they expire. */
export { createTokenAuth } from './tokenAuth'
export type { FetchedToken, TokenAuth, TokenAuthOptions } from './tokenAuth'
export { readSubscriberToken } from './tokenPayload'
export type { SubscriberTokenPayload } from './tokenPayload'
