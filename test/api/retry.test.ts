import { describe, expect, it } from 'vitest'
import { ApiError } from '../../src/api/errors'
import { parseRetryAfter, retryDelay } from '../../src/api/retry'
import { TEST_SUBSCRIBER_ID } from '../support/fixtures'
import { setup } from './setup'

const FEED = `/v1/subscribers/${TEST_SUBSCRIBER_ID}/notifications/feed`
const MARK_AS = `/v1/subscribers/${TEST_SUBSCRIBER_ID}/messages/mark-as`

describe('retries', () => {
  it('a read survives two 500s', async () => {
    const { client, service, seen } = setup()
    service.faults.add({ path: FEED, status: 500, times: 2 })
    const page = await client().getFeed(TEST_SUBSCRIBER_ID)
    expect(page.data.length).toBeGreaterThan(0)
    expect(seen.map((r) => r.path)).toEqual([FEED, FEED, FEED])
  })

  it('gives up after `retries` attempts more, and never retries with retry: false', async () => {
    const { client, service, seen } = setup()
    service.faults.add({ path: FEED, status: 502 })
    await expect(client({ retry: { retries: 1, baseDelay: 1 } }).getFeed(TEST_SUBSCRIBER_ID)).rejects.toMatchObject({
      status: 502,
    })
    expect(seen).toHaveLength(2)
    await expect(client({ retry: false }).getFeed(TEST_SUBSCRIBER_ID)).rejects.toBeInstanceOf(ApiError)
    expect(seen).toHaveLength(3)
  })

  it('an option given as undefined keeps its default: three attempts, not endless ones', async () => {
    const { client, service, seen } = setup()
    service.faults.add({ path: FEED, status: 503 })
    const api = client({ retry: { retries: undefined, baseDelay: 1, maxDelay: undefined } })
    await expect(api.getFeed(TEST_SUBSCRIBER_ID)).rejects.toMatchObject({ status: 503 })
    expect(seen).toHaveLength(3)
  })

  it('a 4xx is not retried', async () => {
    const { client, service, seen } = setup()
    await expect(client().getFeed('nobody')).rejects.toMatchObject({ status: 404 })
    await expect(client().getFeed(TEST_SUBSCRIBER_ID, { limit: 0 })).rejects.toMatchObject({ status: 422 })
    service.faults.add({ path: FEED, status: 400 })
    await expect(client().getFeed(TEST_SUBSCRIBER_ID)).rejects.toMatchObject({ status: 400 })
    expect(seen).toHaveLength(3)
  })

  it('aborted while it waits to retry, a request rejects at once and leaves no timer behind', async () => {
    const { client, service, seen } = setup()
    service.faults.add({ path: FEED, status: 503 })
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length
    const before = timers()
    const controller = new AbortController()
    // A minute between attempts: the wait is what the abort cuts short.
    const api = client({ retry: { retries: 3, baseDelay: 60_000, maxDelay: 60_000 } })
    const read = api.getFeed(TEST_SUBSCRIBER_ID, {}, { signal: controller.signal })
    await expect.poll(() => seen.length).toBe(1)
    await expect.poll(timers).toBeGreaterThan(before)
    controller.abort(new Error('gone'))
    await expect(read).rejects.toThrow('gone')
    expect(seen).toHaveLength(1)
    expect(timers()).toBe(before)
  })

  it('408 and 429 are retried', async () => {
    const { client, service, seen } = setup()
    service.faults.add({ path: FEED, status: 408, times: 1 })
    service.faults.add({ path: FEED, status: 429, times: 1 })
    await client().getFeed(TEST_SUBSCRIBER_ID)
    expect(seen).toHaveLength(3)
  })

  it('a 429 waits for Retry-After', async () => {
    // One request per second: retrying before Retry-After would be refused again, three times over.
    const { client, seen } = setup({ rateLimit: { limit: 1, windowMs: 1000 } })
    const api = client({ retry: { retries: 2, baseDelay: 1, maxDelay: 5000 } })
    await api.listActiveIntegrations()
    const second = await api.listActiveIntegrations()
    expect(second.length).toBeGreaterThan(0)
    expect(seen).toHaveLength(3)
  })

  it('a Retry-After longer than maxDelay is not retried early: the error says how long to wait', async () => {
    // One request per 20 s: the second is refused with a Retry-After of some 20 s.
    const { client, seen } = setup({ rateLimit: { limit: 1, windowMs: 20_000 } })
    const api = client({ retry: { retries: 2, baseDelay: 1, maxDelay: 5000 } })
    await api.listActiveIntegrations()
    const started = Date.now()
    const error = await api.listActiveIntegrations().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).status).toBe(429)
    expect((error as ApiError).retryAfter).toBeGreaterThan(5000)
    expect(seen).toHaveLength(2)
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('a write keeps its idempotency key on every retry and is applied once', async () => {
    const { client, service, seen } = setup()
    // The first attempt times out at the client but, over a transport that does not carry the abort, the
    // service goes on and delivers. The retry with the same key meets it in flight (409, Retry-After: 1),
    // and the next one gets the stored answer: one delivery. A fresh key per attempt would deliver twice.
    service.faults.add({ path: '/v1/events/trigger', latency: 100, times: 1 })
    const base = client()
    const noAbort = ((input: RequestInfo | URL, init?: RequestInit) =>
      base.options.fetch!(input, { ...init, signal: null })) as typeof fetch
    const before = service.state.messages('user-2').length
    const result = await client({
      fetch: noAbort,
      timeout: 50,
      retry: { retries: 5, baseDelay: 1, maxDelay: 2000 },
    }).trigger({ name: 'test-workflow', to: 'user-2' })
    expect(result.status).toBe('processed')
    await service.settle()
    // One in_app and one email message: a single delivery.
    expect(service.state.messages('user-2').length - before).toBe(2)
    const keys = seen.map((r) => r.headers.get('idempotency-key'))
    expect(keys.length).toBeGreaterThanOrEqual(3)
    expect(new Set(keys).size).toBe(1)
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('mark-as retried after a 503 uses one key; a given key is sent as is; each call gets its own', async () => {
    const { client, service, seen } = setup()
    const id = service.state.messages(TEST_SUBSCRIBER_ID).find((m) => !m.read)!._id
    service.faults.add({ path: MARK_AS, status: 503, times: 2 })
    await client().markAs(TEST_SUBSCRIBER_ID, { messageId: id, markAs: 'read' }, { idempotencyKey: 'mark-1' })
    expect(seen.map((r) => r.headers.get('idempotency-key'))).toEqual(['mark-1', 'mark-1', 'mark-1'])
    await client().markAs(TEST_SUBSCRIBER_ID, { messageId: id, markAs: 'unread' })
    await client().markAs(TEST_SUBSCRIBER_ID, { messageId: id, markAs: 'read' })
    const [a, b] = seen.slice(3).map((r) => r.headers.get('idempotency-key'))
    expect(a).toBeTruthy()
    expect(a).not.toBe(b)
    await client().getFeed(TEST_SUBSCRIBER_ID)
    expect(seen.at(-1)!.headers.has('idempotency-key')).toBe(false)
  })
})

describe('retry timing', () => {
  it('Retry-After in seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(parseRetryAfter('3', now)).toBe(3000)
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:02 GMT', now)).toBe(2000)
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0)
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter(null, now)).toBeUndefined()
  })

  it('backoff doubles with jitter, honours Retry-After and stays under maxDelay', () => {
    const options = { retries: 5, baseDelay: 100, maxDelay: 1000 }
    for (let i = 0; i < 50; i++) {
      const first = retryDelay(0, undefined, options)
      expect(first).toBeGreaterThanOrEqual(50)
      expect(first).toBeLessThanOrEqual(100)
      const third = retryDelay(2, undefined, options)
      expect(third).toBeGreaterThanOrEqual(200)
      expect(third).toBeLessThanOrEqual(400)
      expect(retryDelay(10, undefined, options)).toBeLessThanOrEqual(1000)
      expect(retryDelay(0, 700, options)).toBe(700)
      // A later Retry-After than the client will wait: no retry, rather than one the service asked not to get.
      expect(retryDelay(0, 1000, options)).toBe(1000)
      expect(retryDelay(0, 60_000, options)).toBeUndefined()
      expect(retryDelay(10, 300, options)).toBeGreaterThanOrEqual(500)
    }
  })
})
