import { describe, expect, it } from 'vitest'
import { bearerTokenAuth, createInboxProxy } from '../../src/proxy'
import { APP, BASE_PATH, SECRET, digest, startProxy } from './harness'

const FEED = '/v1/subscribers/user-1/notifications/feed'
const MARK = (id: string) => `/v1/subscribers/${id}/messages/mark-as`
const ERROR_FIELDS = ['statusCode', 'timestamp', 'path', 'message', 'error', 'errors', 'errorId']

const markAs = (messageId: string, key?: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(key !== undefined && { 'idempotency-key': key }) },
  body: JSON.stringify({ messageId, markAs: 'read' }),
})

describe('createInboxProxy: idempotency keys per subscriber', () => {
  it('gives each subscriber their own key space: a key one used neither blocks nor shows through to another', async () => {
    const { call, service, forwarded } = startProxy()
    const own = (id: string) => service.state.messages(id)[0]!._id
    const first = await call('user-1', MARK('user-1'), markAs(own('user-1'), 'order-1'))
    expect(first.status).toBe(201)
    // The same key with another body, from another subscriber behind the same API key.
    const second = await call('user-2', MARK('user-2'), markAs(own('user-2'), 'order-1'))
    expect(second.status).toBe(201)
    expect(second.headers.get('idempotency-replay')).toBeNull()
    expect(second.headers.get('idempotency-key')).toBe('order-1')
    expect(service.state.messages('user-2')[0]!.read).toBe(true)

    // Replays still work within one subscriber.
    const before = digest(service)
    const replay = await call('user-2', MARK('user-2'), markAs(own('user-2'), 'order-1'))
    expect(replay.status).toBe(201)
    expect(replay.headers.get('idempotency-replay')).toBe('true')
    expect(replay.headers.get('idempotency-key')).toBe('order-1')
    expect(digest(service)).toBe(before)
    const reused = await call('user-2', MARK('user-2'), markAs(service.state.messages('user-2')[1]!._id, 'order-1'))
    expect(reused.status).toBe(422)

    const seen = forwarded.map((f) => f.headers.get('idempotency-key')!)
    expect(seen[0]).not.toBe(seen[1])
    expect(seen[1]).toBe(seen[2])
    for (const key of seen) expect(key.length).toBeLessThanOrEqual(255)
  })

  it('takes keys of up to 255 characters, as the service does, and refuses longer ones before the service hears of them', async () => {
    const { call, service, forwarded } = startProxy()
    const id = service.state.messages('user-1')[0]!._id
    const longest = 'k'.repeat(255)
    const ok = await call('user-1', MARK('user-1'), markAs(id, longest))
    expect(ok.status).toBe(201)
    expect(ok.headers.get('idempotency-key')).toBe(longest)
    expect(forwarded[0]!.headers.get('idempotency-key')!.length).toBeLessThanOrEqual(255)

    const before = digest(service)
    const tooLong = await call(
      'user-1',
      MARK('user-1'),
      markAs(service.state.messages('user-1')[1]!._id, longest + 'k'),
    )
    expect(tooLong.status).toBe(400)
    expect(await tooLong.json()).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      message: expect.stringMatching(/255/),
    })
    expect(forwarded).toHaveLength(1)
    expect(digest(service)).toBe(before)
  })

  it('refuses a blank key, as the service does, rather than make it one key all blank-keyed writes share', async () => {
    const { call, service, forwarded } = startProxy()
    const [a, b] = service.state.messages('user-1')
    const before = digest(service)
    for (const [id, key] of [
      [a!._id, ''],
      [b!._id, '   '],
    ] as const) {
      const answer = await call('user-1', MARK('user-1'), markAs(id, key))
      expect(answer.status).toBe(400)
      expect(await answer.json()).toMatchObject({ statusCode: 400, message: 'Idempotency-Key must not be empty.' })
    }
    expect(forwarded).toHaveLength(0)
    expect(digest(service)).toBe(before)
  })
  it('does not relay a write the browser gave up on before the relay began: its key is not left held at the service', async () => {
    const { call, service, forwarded } = startProxy()
    const id = service.state.messages('user-1')[0]!._id
    const browser = new AbortController()
    // Aborted while the proxy verifies the token: before it has anything of its own to abort.
    const answering = call('user-1', MARK('user-1'), { ...markAs(id, 'late-1'), signal: browser.signal })
    browser.abort()
    expect((await answering).status).toBe(502)
    expect(forwarded).toEqual([])
    expect(service.state.messages('user-1')[0]!.read).toBe(false)
    // The browser's retry with the same key is applied, not told that the first is still in progress.
    const retry = await call('user-1', MARK('user-1'), markAs(id, 'late-1'))
    expect([retry.status, retry.headers.get('idempotency-replay')]).toEqual([201, null])
    expect(service.state.messages('user-1')[0]!.read).toBe(true)
  })
})

/**
 * The reference service with one fault injected on purpose: every error answer carries the request's
 * Authorization, in the message, in extra fields, in `errors` (keys, messages and values) and in headers, as a
 * careless upstream that echoes its request would.
 */
function echoingUpstream(serviceFetch: typeof fetch): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    const auth = request.headers.get('authorization')!
    const response = await serviceFetch(request)
    if (response.status < 400) return response
    const body = (await response.json()) as Record<string, unknown>
    const echoed = {
      ...body,
      message: `${String(body.message)} (request had ${auth})`,
      error: `${String(body.error)} for ${auth.toUpperCase()}`,
      stack: `Error: at handler (authorization: ${auth})`,
      request: { headers: { authorization: auth } },
      errorId: `id-${auth}`,
      errors: {
        ...(body.errors as object),
        [`headers.${auth}`]: { messages: [`unexpected ${auth}`], value: { sent: [auth.toLowerCase(), 1, true, null] } },
        junk: 'not an entry',
      },
    }
    return new Response(JSON.stringify(echoed), {
      status: response.status,
      headers: { 'content-type': 'application/json', 'retry-after': auth, 'ratelimit-limit': auth, 'x-debug': auth },
    })
  }) as typeof fetch
}

describe('createInboxProxy: what it relays of the service’s answers', () => {
  it('relays only the fields of the error shape, with the API key redacted from every value and header', async () => {
    const { serviceFetch, service, bearer } = startProxy()
    const proxy = createInboxProxy({
      upstreamUrl: 'http://inbox.test',
      apiKey: service.apiKey,
      basePath: BASE_PATH,
      authenticate: bearerTokenAuth(SECRET),
      fetch: echoingUpstream(serviceFetch),
      rateLimit: false,
    })
    const cases: [string, string, RequestInit, number][] = [
      ['user-1', `${FEED}?limit=1000`, {}, 422],
      ['ghost', '/v1/subscribers/ghost/notifications/feed', {}, 404],
      [
        'user-1',
        MARK('user-1'),
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' },
        400,
      ],
      ['user-1', FEED, {}, 503],
    ]
    for (const [user, path, init, status] of cases) {
      if (status === 503) service.faults.add({ path: FEED, status: 503, times: 1 })
      const headers = new Headers(init.headers)
      headers.set('authorization', await bearer(user))
      const response = await proxy(new Request(APP + BASE_PATH + path, { ...init, headers }))
      expect(response.status, path).toBe(status)
      const text = await response.text()
      const everything = text + JSON.stringify([...response.headers])
      expect(everything.toLowerCase(), path).not.toContain(service.apiKey.toLowerCase())
      const body = JSON.parse(text) as Record<string, unknown>
      expect(ERROR_FIELDS).toEqual(expect.arrayContaining(Object.keys(body)))
      expect(body).toMatchObject({ statusCode: status, message: expect.stringContaining('[redacted]') })
      expect(body.errorId).toBe('id-ApiKey [redacted]')
      const errors = body.errors as Record<string, { messages: string[]; value?: unknown }>
      expect(errors['headers.ApiKey [redacted]']).toEqual({
        messages: ['unexpected ApiKey [redacted]'],
        value: { sent: ['apikey [redacted]', 1, true, null] },
      })
      expect(errors).not.toHaveProperty('junk')
      expect(response.headers.get('x-debug')).toBeNull()
      expect(response.headers.get('retry-after')).toBe('ApiKey [redacted]')
    }
  })

  it('keeps the service’s own error bodies as they are when they hold nothing to redact', async () => {
    const { call, service, serviceFetch } = startProxy()
    const direct = await serviceFetch(`${FEED}?limit=1000`, { headers: { authorization: `ApiKey ${service.apiKey}` } })
    const viaProxy = await call('user-1', `${FEED}?limit=1000`)
    const [a, b] = [await direct.json(), await viaProxy.json()] as Record<string, unknown>[]
    expect({ ...b, timestamp: 0, path: 0 }).toEqual({ ...a, timestamp: 0, path: 0 })
    expect(Object.keys(b!.errors as object)).toEqual(['limit'])
    // The path is the one the browser asked for, not where the proxy forwards to.
    expect([a!.path, b!.path]).toEqual([FEED, BASE_PATH + FEED])
  })

  it('answers an error body that is not JSON with the error shape and the same status', async () => {
    const { service, bearer } = startProxy()
    const proxy = createInboxProxy({
      upstreamUrl: 'http://inbox.test',
      apiKey: service.apiKey,
      authenticate: bearerTokenAuth(SECRET),
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) =>
        new Response(`<h1>500</h1><pre>${new Request(input, init).headers.get('authorization')}</pre>`, {
          status: 500,
          headers: { 'content-type': 'text/html' },
        })) as typeof fetch,
    })
    const response = await proxy(new Request(APP + FEED, { headers: { authorization: await bearer('user-1') } }))
    expect(response.status).toBe(500)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const text = await response.text()
    expect(text).not.toContain(service.apiKey)
    expect(JSON.parse(text)).toMatchObject({
      statusCode: 500,
      error: 'Internal Server Error',
      path: FEED,
      message: expect.any(String),
    })
  })

  it('redacts the API key from a successful answer too, however the JSON spells it', async () => {
    const { call, service, bearer } = startProxy()
    const key = service.apiKey
    service.faults.add({
      path: FEED,
      body: { data: [{ note: `key ${key}`, [key]: [key.toUpperCase()] }], hasMore: false },
      times: 1,
    })
    const plain = await call('user-1', FEED)
    expect(plain.status).toBe(200)
    const text = await plain.text()
    expect(text.toLowerCase()).not.toContain(key.toLowerCase())
    expect(JSON.parse(text)).toEqual({
      data: [{ note: 'key [redacted]', '[redacted]': ['[redacted]'] }],
      hasMore: false,
    })

    // The same key written with JSON escapes, which a plain search of the text would miss.
    const escaped = [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')
    const proxied = createInboxProxy({
      upstreamUrl: 'http://inbox.test',
      apiKey: key,
      authenticate: bearerTokenAuth(SECRET),
      fetch: (async () =>
        new Response(`{"data":[{"note":"${escaped}"}]}`, {
          headers: { 'content-type': 'application/json' },
        })) as typeof fetch,
    })
    const response = await proxied(new Request(APP + FEED, { headers: { authorization: await bearer('user-1') } }))
    expect(await response.json()).toEqual({ data: [{ note: '[redacted]' }] })
  })
})
