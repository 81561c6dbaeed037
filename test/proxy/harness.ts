import { bearerTokenAuth, createInboxProxy, createSubscriberToken } from '../../src/proxy'
import type { InboxProxyOptions } from '../../src/proxy'
import { BASE_URL, startService } from '../support/service'
import { buildFixture, messages, subscriber, topic } from '../support/fixtures'

export { digest } from '../faults/digest'

export const SECRET = 'proxy-test-secret-of-at-least-32-bytes!'
export const BASE_PATH = '/api/inbox'
export const APP = 'http://app.test'

/** `user-1` and `user-2`, five feed messages each, both subscribed to the topic `news`. */
export function proxyFixture() {
  return buildFixture({
    subscribers: [subscriber('user-1', { firstName: 'Ada' }), subscriber('user-2', { firstName: 'Bo' })],
    topics: [topic('news', ['user-1', 'user-2'])],
    messages: [...messages('user-1', 5), ...messages('user-2', 5)],
  })
}

/** What reached the service through the proxy. */
interface Forwarded {
  method: string
  url: URL
  headers: Headers
}

/**
 * A reference service behind the proxy. The proxy's `fetch` goes to the service in process and notes
 * every request that reached it, so a test can assert on what the service was asked.
 */
export function startProxy(options: Partial<InboxProxyOptions> = {}) {
  const { service, fetch: serviceFetch } = startService({ fixture: proxyFixture() })
  const forwarded: Forwarded[] = []
  const upstreamFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    forwarded.push({ method: request.method, url: new URL(request.url), headers: new Headers(request.headers) })
    return serviceFetch(request)
  }) as typeof fetch
  const proxy = createInboxProxy({
    upstreamUrl: BASE_URL,
    apiKey: service.apiKey,
    basePath: BASE_PATH,
    authenticate: bearerTokenAuth(SECRET),
    fetch: upstreamFetch,
    // Tests send hundreds of requests a second as one subscriber; the limit has its own test.
    rateLimit: false,
    ...options,
  })
  const bearer = async (subscriberId: string, expiresIn = 600) =>
    `Bearer ${await createSubscriberToken(subscriberId, SECRET, { expiresIn })}`
  /** Calls the proxy as `subscriberId` (or signed out with null); `path` is below the base path. */
  const call = async (subscriberId: string | null, path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    if (subscriberId !== null) headers.set('authorization', await bearer(subscriberId))
    return proxy(new Request(APP + BASE_PATH + path, { ...init, headers }))
  }
  return { service, serviceFetch, proxy, forwarded, bearer, call }
}
