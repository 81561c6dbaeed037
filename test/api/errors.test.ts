import { describe, expect, it, vi } from 'vitest'
import {
  ApiError,
  InboxError,
  NetworkError,
  ResponseShapeError,
  TimeoutError,
  isInboxError,
} from '../../src/api/errors'
import { TEST_SUBSCRIBER_ID } from '../support/fixtures'
import { setup } from './setup'
import { createInboxClient } from '../../src/api/client'

const FEED = `/v1/subscribers/${TEST_SUBSCRIBER_ID}/notifications/feed`

/** The rejection of `promise`, which must reject. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection')
    },
    (error: unknown) => error,
  )
}

describe('errors are values a UI can show', () => {
  it('401: a wrong key and a missing one', async () => {
    const { client } = setup()
    const wrong = await rejection(client({ apiKey: 'not-a-key' }).getFeed(TEST_SUBSCRIBER_ID))
    expect(wrong).toBeInstanceOf(ApiError)
    expect(wrong).toMatchObject({ status: 401, message: 'API Key not found', path: FEED })
    const missing = await rejection(client({ apiKey: undefined }).listActiveIntegrations())
    expect(missing).toMatchObject({ status: 401, message: 'Missing authorization header' })
    expect(isInboxError(missing)).toBe(true)
  })

  it('422: fieldErrors names every bad field', async () => {
    const { client } = setup({ envelope: true })
    const error = await rejection(client().getFeed(TEST_SUBSCRIBER_ID, { limit: 500 }))
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ path: FEED, message: 'Validation Error' })
    const apiError = error as ApiError
    expect(apiError.status).toBe(422)
    expect(Object.keys(apiError.fieldErrors)).toEqual(['limit'])
    expect(apiError.fieldErrors.limit!.length).toBeGreaterThan(0)

    const markAs = (await rejection(
      client().markAs(TEST_SUBSCRIBER_ID, { messageId: [], markAs: 'archived' as 'read' }),
    )) as ApiError
    expect(Object.keys(markAs.fieldErrors).sort()).toEqual(['markAs', 'messageId'])
  })

  it('404: an unknown subscriber', async () => {
    const { client, seen } = setup()
    const error = await rejection(client().getPreferences('nobody'))
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 404, path: '/v2/subscribers/nobody/preferences' })
    expect((error as ApiError).message).not.toBe('')
    expect(seen).toHaveLength(1)
  })

  it('5xx: status, the service message and its errorId', async () => {
    const { client, service } = setup()
    service.faults.add({ path: FEED, status: 500 })
    const error = await rejection(client({ retry: false }).getFeed(TEST_SUBSCRIBER_ID))
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 500, message: 'Injected failure', path: FEED })
    expect((error as ApiError).errorId).toBe((error as ApiError & { body: { errorId: string } }).body.errorId)
    expect((error as ApiError).errorId).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('a 2xx body that is not JSON is a ResponseShapeError', async () => {
    const { client, service } = setup()
    service.faults.add({ path: FEED, malformed: true })
    const error = await rejection(client().getFeed(TEST_SUBSCRIBER_ID))
    expect(error).toBeInstanceOf(ResponseShapeError)
    expect(error).toMatchObject({ field: '', expected: 'JSON' })
  })

  it('a wrong-shaped body names the first bad field', async () => {
    const { client, service } = setup()
    const page = await client().getFeed(TEST_SUBSCRIBER_ID)
    const bad = structuredClone(page) as unknown as { data: Record<string, unknown>[] }
    bad.data[3]!.read = 'yes'
    bad.data[5]!.seen = 1
    service.faults.add({ path: FEED, body: bad })
    const error = await rejection(client().getFeed(TEST_SUBSCRIBER_ID))
    expect(error).toBeInstanceOf(ResponseShapeError)
    expect((error as ResponseShapeError).field).toBe('data[3].read')
    expect((error as Error).message).toContain('data[3].read: expected boolean, got "yes"')
  })

  it('shape checks run on every operation: a missing required field, a wrong list', async () => {
    const { client, service } = setup({ envelope: true })
    service.faults.add({ path: '/v1/integrations/active', body: { data: [{ name: 'x' }] } })
    const integrations = await rejection(client().listActiveIntegrations())
    expect(integrations).toMatchObject({ field: '[0].identifier', expected: 'string', received: 'undefined' })
    service.faults.add({ path: '/v1/events/trigger', body: { data: { acknowledged: true } } })
    const trigger = await rejection(client().trigger({ name: 'test-workflow', to: 'user-2' }))
    expect(trigger).toMatchObject({ field: 'status' })
    service.faults.add({ path: '/v2/topics/news/subscriptions', body: { data: [], next: 5, previous: null } })
    const topics = await rejection(client().listTopicSubscriptions('news'))
    expect(topics).toMatchObject({ field: 'next', expected: 'string' })
  })

  it('extra fields and missing optional ones are accepted', async () => {
    const { client, service } = setup()
    const page = await client().getFeed(TEST_SUBSCRIBER_ID, { limit: 1 })
    const { totalCount: _t, ...rest } = page
    const item = { ...page.data[0]!, actor: undefined, subject: null, extra: { nested: true } }
    service.faults.add({ path: FEED, body: { ...rest, data: [item], somethingNew: 1 } })
    const tolerant = await client().getFeed(TEST_SUBSCRIBER_ID)
    expect(tolerant.data[0]!._id).toBe(page.data[0]!._id)
    expect(tolerant.totalCount).toBeUndefined()
  })

  it('a dropped connection is a NetworkError after the retries, naming where it went', async () => {
    const { client, service, seen, baseUrl } = setup()
    service.faults.add({ path: FEED, drop: true })
    const error = await rejection(client({ retry: { retries: 2, baseDelay: 1 } }).getFeed(TEST_SUBSCRIBER_ID))
    expect(error).toBeInstanceOf(NetworkError)
    // The origin only, for a log line to show a wrong baseUrl; not the path, which names the subscriber.
    expect((error as NetworkError).message).toBe(
      `Could not reach the notification service at ${new URL(baseUrl).origin}.`,
    )
    expect((error as NetworkError).cause).toBeInstanceOf(TypeError)
    expect(seen).toHaveLength(3)
  })

  it('an answer slower than the timeout is a TimeoutError', async () => {
    const { client, service } = setup()
    service.faults.add({ path: FEED, latency: 2000 })
    const error = await rejection(client({ timeout: 20, retry: false }).getFeed(TEST_SUBSCRIBER_ID))
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error).toMatchObject({ timeout: 20 })
    expect((error as Error).message).toMatch(/did not answer/)
  })

  it('abort rejects with the AbortError at once, in flight or between retries', async () => {
    const { client, service, seen } = setup()
    service.faults.add({ path: FEED, latency: 60_000, times: 1 })
    const inFlight = new AbortController()
    const pending = client().getFeed(TEST_SUBSCRIBER_ID, {}, { signal: inFlight.signal })
    inFlight.abort()
    const error = await rejection(pending)
    expect((error as Error).name).toBe('AbortError')
    expect(isInboxError(error)).toBe(false)

    service.faults.add({ path: FEED, status: 503 })
    const waiting = new AbortController()
    const api = client({ retry: { retries: 3, baseDelay: 60_000, maxDelay: 60_000 } })
    const retrying = api.getFeed(TEST_SUBSCRIBER_ID, {}, { signal: waiting.signal })
    // Once the 503 is in, the client waits 30 s or more before its next attempt; the abort ends that wait.
    await vi.waitFor(() => expect(seen).toHaveLength(2))
    await new Promise((resolve) => setTimeout(resolve, 5))
    waiting.abort()
    expect(((await rejection(retrying)) as Error).name).toBe('AbortError')

    const slowToken = new AbortController()
    const tokenPending = client({ getHeaders: () => new Promise(() => undefined) }).getFeed(
      TEST_SUBSCRIBER_ID,
      {},
      { signal: slowToken.signal },
    )
    slowToken.abort()
    expect(((await rejection(tokenPending)) as Error).name).toBe('AbortError')

    const already = AbortSignal.abort()
    expect(((await rejection(api.listActiveIntegrations({ signal: already }))) as Error).name).toBe('AbortError')
  })

  it('every class extends InboxError', () => {
    for (const error of [
      new ApiError(400, '/x', { message: 'Bad' }),
      new NetworkError(new TypeError('fetch failed')),
      new TimeoutError(5),
      new ResponseShapeError('a', 'string', 1),
    ]) {
      expect(error).toBeInstanceOf(InboxError)
      expect(isInboxError(error)).toBe(true)
    }
    expect(isInboxError(new Error('other'))).toBe(false)
  })

  it('ApiError reads errorId, message lists and bodies that are not JSON', () => {
    const withId = new ApiError(500, '/x', { message: 'Internal server error', errorId: 'e-1', path: '/api/x' })
    expect([withId.errorId, withId.path, withId.message]).toEqual(['e-1', '/x', 'Internal server error'])
    expect(new ApiError(400, '/x', { message: ['a is bad', 'b is bad'] }).message).toBe('a is bad; b is bad')
    expect(new ApiError(502, '/x', 'Bad Gateway').message).toBe('Bad Gateway')
    expect(new ApiError(503, '/x', '').message).toBe('Request failed with status 503')
    // A web server's own error page is not a message to show anyone.
    const page = '<!DOCTYPE html><html><body><pre>Cannot GET /api/inbx</pre></body></html>'
    expect(new ApiError(404, '/x', page).message).toBe('Request failed with status 404')
    expect(new ApiError(404, '/x', '<h1>Not Found</h1>').message).toBe('Request failed with status 404')
    expect(new ApiError(400, '/x', 'a < b is not allowed').message).toBe('a < b is not allowed')
  })

  it('isInboxError tells the kit’s errors from others, leaving the others as they were in its else branch', () => {
    const errors: Error[] = [new Error('plain'), new ApiError(404, '/x', { message: 'gone' })]
    const seen = errors.map((e) => (isInboxError(e) ? `kit: ${e.name}` : `other: ${e.message}`))
    expect(seen).toEqual(['other: plain', 'kit: ApiError'])
  })

  it('a 422 field named __proto__ is a field like any other, and the error prototype stays', () => {
    const body = JSON.parse('{"message":"bad","errors":{"__proto__":{"messages":["no"]},"limit":{"messages":["x"]}}}')
    const error = new ApiError(422, '/x', body)
    expect(Object.getPrototypeOf(error.fieldErrors)).toBe(Object.prototype)
    expect(Object.keys(error.fieldErrors)).toEqual(['__proto__', 'limit'])
    expect(Object.getOwnPropertyDescriptor(error.fieldErrors, '__proto__')?.value).toEqual(['no'])
  })

  it('ResponseShapeError says what came, whatever it was', () => {
    expect(new ResponseShapeError('a', 'string', () => 1).received).toBe('() => 1')
    expect(new ResponseShapeError('a', 'string', Symbol('s')).received).toBe('Symbol(s)')
    expect(new ResponseShapeError('a', 'string', undefined).received).toBe('undefined')
    expect(new ResponseShapeError('a', 'string', 10n).received).toBe('10')
  })
})

describe('a baseUrl no request can go to', () => {
  it('unset (an environment variable that is not there): a TypeError naming baseUrl, at once', () => {
    expect(() => createInboxClient({ baseUrl: process.env.INBOX_NOT_SET as unknown as string })).toThrow(
      /^baseUrl must be a URL; got undefined\.$/,
    )
  })

  it('a path, outside a browser: a TypeError naming baseUrl, without retrying', async () => {
    const sent: string[] = []
    const client = createInboxClient({
      baseUrl: '/api/inbox',
      fetch: (input) => (sent.push(String(input)), fetch(input)),
      retry: { retries: 2, baseDelay: 1 },
    })
    const failure = await client.getFeed(TEST_SUBSCRIBER_ID).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(TypeError)
    expect(String(failure)).toMatch(/baseUrl "\/api\/inbox" makes no URL here/)
    expect(sent).toHaveLength(1)
  })
})
