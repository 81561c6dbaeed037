import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bearerTokenAuth, createInboxProxy, createSubscriberToken } from '../../src/proxy'
import { createInboxClient } from '../../src/client'
import { ApiError } from '../../src/api/errors'
import { APP, BASE_PATH, SECRET, digest, startProxy } from './harness'

const FEED = '/v1/subscribers/user-1/notifications/feed'
const MARK = '/v1/subscribers/user-1/messages/mark-as'
const PREFS = '/v2/subscribers/user-1/preferences'
const SUBS = '/v2/subscribers/user-1/subscriptions'

const json = (body: unknown, init: RequestInit = {}): RequestInit => ({
  method: 'POST',
  ...init,
  headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  body: JSON.stringify(body),
})

async function expectError(response: Response, status: number) {
  expect(response.status).toBe(status)
  const body = (await response.json()) as Record<string, unknown>
  expect(body).toMatchObject({ statusCode: status, message: expect.any(String), error: expect.any(String) })
  expect(typeof body.timestamp).toBe('string')
  expect(typeof body.path).toBe('string')
  return body
}

describe('createInboxProxy: what it forwards', () => {
  it('serves the signed-in subscriber their own feed, preferences and subscriptions', async () => {
    const { call, serviceFetch, service } = startProxy()
    const direct = await serviceFetch(`${FEED}?limit=3`, { headers: { authorization: `ApiKey ${service.apiKey}` } })
    const viaProxy = await call('user-1', `${FEED}?limit=3`)
    expect(viaProxy.status).toBe(200)
    expect(await viaProxy.json()).toEqual(await direct.json())
    // Personal data: kept by no cache, and never taken for anything but the JSON it is.
    expect(viaProxy.headers.get('cache-control')).toBe('no-store')
    expect(viaProxy.headers.get('x-content-type-options')).toBe('nosniff')

    const prefs = await call('user-1', `${PREFS}?criticality=all`)
    expect(prefs.status).toBe(200)
    expect(await prefs.json()).toHaveProperty('global')
    const subs = (await (await call('user-1', `${SUBS}?limit=5`)).json()) as { data: { topic: { key: string } }[] }
    expect(subs.data.map((s) => s.topic.key)).toEqual(['news'])
  })

  it('applies mark-as and preference updates for the caller only', async () => {
    const { call, service } = startProxy()
    const own = service.state.messages('user-1').map((m) => m._id)
    const theirs = service.state.messages('user-2').map((m) => m._id)
    const response = await call('user-1', MARK, json({ messageId: [own[0], theirs[0]], markAs: 'read' }))
    expect(response.status).toBe(201)
    expect(((await response.json()) as { _id: string }[]).map((m) => m._id)).toEqual([own[0]])
    expect(service.state.messages('user-1').find((m) => m._id === own[0])?.read).toBe(true)
    expect(service.state.messages('user-2').every((m) => !m.read)).toBe(true)

    const patch = await call('user-1', PREFS, json({ channels: { in_app: false } }, { method: 'PATCH' }))
    expect(patch.status).toBe(200)
    expect(service.state.subscriber('user-1')?.preferences.channels.in_app).toBe(false)
    expect(service.state.subscriber('user-2')?.preferences.channels.in_app).not.toBe(false)
  })

  it('adds the API key itself and passes on nothing else the browser sent but accept, content-type and idempotency-key', async () => {
    const { call, forwarded, service } = startProxy()
    const response = await call(
      'user-1',
      MARK,
      json(
        { messageId: service.state.messages('user-1')[0]!._id, markAs: 'seen' },
        {
          headers: {
            cookie: 'session=abc; other=1',
            'x-forwarded-for': '10.0.0.1',
            'idempotency-key': 'key-1',
            accept: 'application/json',
            'x-api-key': 'nope',
          },
        },
      ),
    )
    expect(response.status).toBe(201)
    expect(forwarded).toHaveLength(1)
    const headers = Object.fromEntries(forwarded[0]!.headers)
    expect(headers).toEqual({
      authorization: `ApiKey ${service.apiKey}`,
      'content-type': 'application/json',
      // Scoped to the subscriber; the browser still sees its own key.
      'idempotency-key': expect.stringMatching(/^inbox-[\w-]{43}$/),
      accept: 'application/json',
    })
    expect(response.headers.get('idempotency-key')).toBe('key-1')
  })

  it('replaces an Authorization the browser sent when the app authenticates by cookie', async () => {
    const { service, serviceFetch } = startProxy()
    const seen: string[] = []
    const proxy = createInboxProxy({
      upstreamUrl: 'http://inbox.test',
      apiKey: service.apiKey,
      basePath: BASE_PATH,
      authenticate: (request) => (request.headers.get('cookie') === 'sid=s1' ? 'user-1' : null),
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init)
        seen.push(request.headers.get('authorization') ?? '')
        return serviceFetch(request)
      }) as typeof fetch,
    })
    const response = await proxy(
      new Request(APP + BASE_PATH + FEED, { headers: { cookie: 'sid=s1', authorization: 'ApiKey guessed-key' } }),
    )
    expect(response.status).toBe(200)
    expect(seen).toEqual([`ApiKey ${service.apiKey}`])
  })

  it('passes only the query parameters of the operation, so no extra parameter reaches the service', async () => {
    const { call, forwarded } = startProxy()
    const response = await call(
      'user-1',
      `${FEED}?limit=2&subscriberId=user-2&page=0&__proto__=x&path=/v1/events/trigger`,
    )
    expect(response.status).toBe(200)
    expect(forwarded[0]!.url.pathname).toBe(FEED)
    expect([...forwarded[0]!.url.searchParams.keys()]).toEqual(['page', 'limit'])
  })

  it('replays a keyed write instead of applying it twice', async () => {
    const { call, service } = startProxy()
    const id = service.state.messages('user-1')[0]!._id
    const send = () =>
      call('user-1', MARK, json({ messageId: id, markAs: 'read' }, { headers: { 'idempotency-key': 'k-42' } }))
    const first = await send()
    const before = digest(service)
    const second = await send()
    expect(second.status).toBe(first.status)
    expect(second.headers.get('idempotency-replay')).toBe('true')
    expect(digest(service)).toBe(before)
  })

  it('works for the kit’s own client pointed at the proxy, with Bearer headers', async () => {
    const { proxy, bearer } = startProxy()
    const client = createInboxClient({
      baseUrl: APP + BASE_PATH,
      getHeaders: async () => ({ authorization: await bearer('user-1') }),
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => proxy(new Request(input, init))) as typeof fetch,
      retry: false,
    })
    const page = await client.getFeed('user-1', { limit: 2 })
    expect(page.data).toHaveLength(2)
    const marked = await client.markAs('user-1', { messageId: page.data[0]!._id, markAs: 'read' })
    expect(marked[0]!.read).toBe(true)
    const error = await client.getFeed('user-2').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).status).toBe(403)
  })
})

describe('createInboxProxy: HEAD', () => {
  it('answers HEAD as GET where GET is taken, without the body, refusals included', async () => {
    const { call, forwarded, service } = startProxy()
    for (const path of [`${FEED}?limit=2`, `${PREFS}?criticality=all`, `${SUBS}?limit=1`]) {
      forwarded.length = 0
      const get = await call('user-1', path)
      const head = await call('user-1', path, { method: 'HEAD' })
      expect([head.status, await head.text()], path).toEqual([200, ''])
      expect([...head.headers].sort(), path).toEqual([...get.headers].sort())
      // The service is asked with GET, the one method the spec gives these routes.
      expect(forwarded.map((f) => `${f.method} ${f.url.pathname}${f.url.search}`)).toEqual([
        `GET ${path}`,
        `GET ${path}`,
      ])
    }
    const before = digest(service)
    for (const [user, path, status] of [
      ['user-1', `${FEED}?limit=abc`, 422],
      ['ghost', '/v1/subscribers/ghost/notifications/feed', 404],
      ['user-1', '/v1/subscribers/user-2/notifications/feed', 403],
      ['user-1', '/v1/integrations/active', 403],
      [null, FEED, 401],
    ] as const) {
      const head = await call(user, path, { method: 'HEAD' })
      expect([head.status, await head.text(), head.headers.get('allow')], path).toEqual([status, '', null])
    }
    const post = await call('user-1', MARK, { method: 'HEAD' })
    expect([post.status, post.headers.get('allow'), await post.text()]).toEqual([405, 'POST', ''])
    expect(digest(service)).toBe(before)
  })

  it('answers HEAD on the event route with the headers of a stream, without opening one', async () => {
    const { proxy, bearer } = startProxy({ events: { maxStreamsPerSubscriber: 1, heartbeatMs: 60_000 } })
    const auth = { authorization: await bearer('user-1') }
    const controller = new AbortController()
    const stream = await proxy(new Request(APP + BASE_PATH + '/events', { headers: auth, signal: controller.signal }))
    const reader = stream.body!.getReader()
    const decoder = new TextDecoder()
    const readUntil = async (text: string) => {
      let got = ''
      while (!got.includes(text)) {
        const { done, value } = await reader.read()
        if (done) throw new Error(`stream ended before ${text}`)
        got += decoder.decode(value)
      }
    }
    await readUntil('event: ready')
    const head = await proxy(new Request(APP + BASE_PATH + '/events', { method: 'HEAD', headers: auth }))
    expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([
      200,
      stream.headers.get('content-type'),
      '',
    ])
    // One stream per subscriber at most: had the HEAD opened one, the first would be closed now.
    await proxy.notify(['user-1'], { type: 'message.created', messageIds: ['m-1'] })
    await readUntil('"messageIds":["m-1"]')
    controller.abort()
    const signedOut = await proxy(new Request(APP + BASE_PATH + '/events', { method: 'HEAD' }))
    expect([signedOut.status, await signedOut.text()]).toEqual([401, ''])
  })
})

describe('createInboxProxy: rate limit', () => {
  it('answers 429 with Retry-After once a subscriber has spent their requests, and only them', async () => {
    const { call, forwarded } = startProxy({ rateLimit: { limit: 3, windowMs: 60_000 } })
    for (let i = 0; i < 3; i++) expect((await call('user-1', FEED)).status).toBe(200)
    const limited = await call('user-1', FEED)
    await expectError(limited, 429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(19)
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(20)
    expect(forwarded).toHaveLength(3)
    expect((await call('user-2', '/v1/subscribers/user-2/notifications/feed')).status).toBe(200)
    // Refused requests never reach the service, so they cost nothing.
    expect((await call('user-2', FEED)).status).toBe(403)
    expect((await call(null, FEED)).status).toBe(401)
  })

  it('is on by default, at 600 requests a minute', async () => {
    const { call } = startProxy({ rateLimit: undefined })
    const statuses: number[] = []
    // Refilled at 10 a second, so a few more than 600 pass while these run.
    while (statuses.length < 2_000 && !statuses.includes(429))
      statuses.push((await call('user-1', `${FEED}?limit=1`)).status)
    expect(statuses.slice(0, 600).every((s) => s === 200)).toBe(true)
    expect(statuses).toContain(429)
  })
})

describe('createInboxProxy: basePath', () => {
  it('takes the base path with or without its slashes, and none at all', async () => {
    const { service, serviceFetch, bearer } = startProxy()
    const auth = { authorization: await bearer('user-1') }
    for (const [basePath, prefix] of [
      ['api/inbox', '/api/inbox'],
      ['/api/inbox/', '/api/inbox'],
      ['', ''],
      ['/', ''],
    ]) {
      const proxy = createInboxProxy({
        upstreamUrl: 'http://inbox.test/',
        apiKey: service.apiKey,
        basePath,
        authenticate: bearerTokenAuth(SECRET),
        fetch: serviceFetch,
      })
      expect((await proxy(new Request(APP + prefix + FEED, { headers: auth }))).status, basePath).toBe(200)
    }
  })

  it('names upstreamUrl when it is missing or not an absolute http(s) address', () => {
    for (const upstreamUrl of [undefined, '', '/v1', 'api.example.com', 'ftp://api.example.com']) {
      expect(
        () => createInboxProxy({ upstreamUrl: upstreamUrl!, apiKey: 'key', authenticate: () => null }),
        String(upstreamUrl),
      ).toThrow(/^createInboxProxy needs upstreamUrl, the service's absolute http\(s\) address/)
    }
  })

  it('names the basePath to set when a route of its comes under another prefix', async () => {
    const { service, serviceFetch, bearer } = startProxy()
    const auth = { authorization: await bearer('user-1') }
    const hint = (basePath: string, mount: string) =>
      `The proxy's basePath is '${basePath}': if it is mounted at ${mount}, set basePath: '${mount}'.`
    for (const basePath of ['', '/api/notifications']) {
      const proxy = createInboxProxy({
        upstreamUrl: 'http://inbox.test/',
        apiKey: service.apiKey,
        basePath,
        authenticate: bearerTokenAuth(SECRET),
        fetch: serviceFetch,
        events: {},
      })
      for (const [path, init] of [
        ['/api/inbox' + FEED, { headers: auth }],
        ['/api/inbox' + MARK, json({ messageId: ['m'], markAs: 'read' }, { headers: auth })],
        ['/api/inbox/events', { headers: auth }],
      ] as const) {
        const body = await expectError(await proxy(new Request(APP + path, init)), 403)
        expect(body.message, `${basePath} ${path}`).toContain(hint(basePath, '/api/inbox'))
      }
      // Signed out, too: the first answer a misplaced proxy gives.
      const signedOut = await expectError(await proxy(new Request(APP + '/api/inbox' + FEED)), 401)
      expect(signedOut.message).toContain(hint(basePath, '/api/inbox'))
    }
    // Under the basePath that is set, a path that is no route is only that.
    const { call } = startProxy()
    const body = await expectError(await call('user-1', '/x' + FEED), 403)
    expect(body.message).not.toContain('basePath')
  })

  it('looks for the hint in the last segments only, so a path of thousands of segments costs no more than a short one', async () => {
    const { service, serviceFetch, bearer } = startProxy()
    const auth = { authorization: await bearer('user-1') }
    const proxy = createInboxProxy({
      upstreamUrl: 'http://inbox.test/',
      apiKey: service.apiKey,
      authenticate: bearerTokenAuth(SECRET),
      fetch: serviceFetch,
    })
    // About what a request line of Node's 16 KiB of headers can hold, and a path far longer, as a fetch handler
    // behind another server may be given. Trying every prefix took about a second for each request of the first
    // and would take minutes for the second (past this test's timeout); a few milliseconds now.
    const long = '/a'.repeat(8_000)
    for (const path of [long, '/a'.repeat(100_000)]) {
      await expectError(await proxy(new Request(APP + path)), 401)
      await expectError(await proxy(new Request(APP + path, { headers: auth })), 403)
    }
    const deep = await expectError(await proxy(new Request(APP + long + FEED, { headers: auth })), 403)
    expect(deep.message).toContain(`set basePath: '${long}'`)
  })
})

describe('createInboxProxy: what it refuses', () => {
  it('answers 401 to a caller that is not signed in, with an expired token or a token of another secret', async () => {
    const { proxy, call, forwarded } = startProxy()
    await expectError(await call(null, FEED), 401)
    await expectError(await call(null, '/v1/events/trigger', json({ name: 'x', to: 'user-1' })), 401)
    const expired = await createSubscriberToken('user-1', SECRET, { expiresIn: 1, now: () => Date.now() - 5_000 })
    const foreign = await createSubscriberToken('user-1', 'some-other-secret-of-at-least-32-bytes', { expiresIn: 60 })
    for (const token of [expired, foreign, 'garbage', '']) {
      await expectError(
        await proxy(new Request(APP + BASE_PATH + FEED, { headers: { authorization: `Bearer ${token}` } })),
        401,
      )
    }
    expect(forwarded).toEqual([])
  })

  it('answers 403 to another subscriber’s id however the path spells it, and the service never hears of it', async () => {
    const { call, forwarded, service } = startProxy()
    const before = digest(service)
    const tricks = [
      '/v1/subscribers/user-2/notifications/feed',
      '/v1/subscribers/user-1%2F..%2Fuser-2/notifications/feed',
      '/v1/subscribers/user-1%2f..%2fuser-2/notifications/feed',
      '/v1/subscribers/user-1/../user-2/notifications/feed',
      '/v1/subscribers/user-1/%2e%2e/user-2/notifications/feed',
      '/v1/subscribers/user-1/%2E%2E/user-2/notifications/feed',
      '/v1/subscribers/user-1\\..\\user-2/notifications/feed',
      '/v1/subscribers/%75ser-2/notifications/feed',
      '/v1/subscribers/%2575ser-1/notifications/feed',
      '/v1/subscribers/user-1%252F..%252Fuser-2/notifications/feed',
      '/v1/subscribers/USER-1/notifications/feed',
      '/v1/subscribers/User-1/notifications/feed',
      '/v1/subscribers/user-1%00/notifications/feed',
      '/v1/subscribers/%20user-1/notifications/feed',
      '/v1/subscribers/user-1%20/notifications/feed',
      '/v1/subscribers/\uFF55ser-1/notifications/feed',
      '/v1/subscribers/user-1;user-2/notifications/feed',
      '/v1/subscribers/user-1,user-2/notifications/feed',
      '/v1/subscribers/user-1%2Fnotifications%2Ffeed',
      '/v1/subscribers/user-1/notifications/feed/',
      '/v1/subscribers/user-1/notifications/feed/..',
      '/v1/subscribers/user-1/notifications//feed',
      '//v1/subscribers/user-1/notifications/feed',
      '/V1/subscribers/user-1/notifications/feed',
      '/v1/Subscribers/user-1/notifications/feed',
      '/v1/subscribers/user-1/notifications/FEED',
      '/v1/subscribers/user-1/notifications/feed%3Fx=1',
      '/v1/subscribers/user-1/notifications/feed%23',
      '/v1/subscribers//notifications/feed',
      '/v1/subscribers/user-2/messages/mark-as',
      '/v2/subscribers/user-2/preferences',
      '/v2/subscribers/user-2/subscriptions',
      '/v2/subscribers/user-1/subscriptions/../../../topics/news/subscriptions',
      '/v2/subscribers/user-1/preferences/../../user-2/preferences',
    ]
    for (const path of tricks) {
      const method = path.includes('mark-as') ? 'POST' : 'GET'
      const init = method === 'POST' ? json({ messageId: 'x', markAs: 'read' }) : {}
      const response = await call('user-1', path, init)
      expect(response.status, path).toBe(403)
    }
    const outside = await (async () => {
      const { bearer, proxy } = startProxy()
      const auth = { authorization: await bearer('user-1') }
      return Promise.all(
        [`/other${FEED}`, `/api/inboxx${FEED}`, `/API/INBOX${FEED}`, FEED].map((p) =>
          proxy(new Request(APP + p, { headers: auth })),
        ),
      )
    })()
    for (const response of outside) await expectError(response, 403)
    expect(forwarded).toEqual([])
    expect(digest(service)).toBe(before)
  })

  it('answers 403 to every other operation, naming the method and path: triggers, integrations, topic lists, other paths', async () => {
    const { call, forwarded, service } = startProxy()
    const before = digest(service)
    const integrationId = service.state.integrations()[0]?._id ?? '0123456789abcdef01234567'
    const refused: [string, string, RequestInit?][] = [
      ['POST', '/v1/events/trigger', json({ name: 'test-workflow', to: 'user-2' })],
      ['POST', '/v1/events/trigger/bulk', json({ events: [{ name: 'test-workflow', to: 'user-2' }] })],
      ['GET', '/v1/integrations/active'],
      ['POST', `/v1/integrations/${integrationId}/set-primary`],
      ['GET', '/v2/topics/news/subscriptions'],
      ['GET', '/v2/topics/news/subscriptions?subscriberId=user-1'],
      ['GET', '/v1/subscribers/user-1'],
      ['GET', '/v1/subscribers/user-1/notifications'],
      ['GET', '/v1/subscribers/user-1/notifications/feed/extra'],
      ['GET', '/V1/subscribers/user-1/notifications/feed'],
      ['HEAD', '/v1/Subscribers/user-1/notifications/feed'],
      ['PATCH', '/v2/subscribers/user-1/PREFERENCES', json({ channels: { email: false } })],
      ['GET', '/'],
      ['GET', ''],
    ]
    for (const [method, path, init] of refused) {
      const response = await call('user-1', path, { ...init, method })
      const where = `${method} ${BASE_PATH}${path.split('?')[0]}`
      expect(response.status, where).toBe(403)
      if (method === 'HEAD') continue
      const body = await expectError(response, 403)
      expect(body.message, where).toBe(
        `The proxy does not forward ${where}: it serves only the signed-in subscriber's feed, mark-as, ` +
          'preferences and subscriptions.',
      )
    }
    expect(forwarded).toEqual([])
    expect(digest(service)).toBe(before)
  })

  it('names subscriberId when the id is another subscriber’s, in words that are the same whoever it names', async () => {
    const { call, forwarded, service } = startProxy()
    const before = digest(service)
    const message =
      "The subscriberId in the path is not the signed-in subscriber's: the proxy serves only their own " +
      'notifications, preferences and subscriptions.'
    const answers: Record<string, unknown>[] = []
    for (const id of ['user-2', 'ghost', 'USER-1', '%2575ser-1', '%zz', '']) {
      for (const [method, path, init] of [
        ['GET', `/v1/subscribers/${id}/notifications/feed?limit=1`],
        ['POST', `/v1/subscribers/${id}/messages/mark-as`, json({ messageId: 'x', markAs: 'read' })],
        ['GET', `/v2/subscribers/${id}/preferences`],
        ['PATCH', `/v2/subscribers/${id}/preferences`, json({ channels: { email: false } })],
        ['GET', `/v2/subscribers/${id}/subscriptions`],
      ] as [string, string, RequestInit?][]) {
        const body = await expectError(await call('user-1', path, { ...init, method }), 403)
        expect(body.message, `${method} ${path}`).toBe(message)
        expect(body.path).toBe(BASE_PATH + path.split('?')[0])
        answers.push({ ...body, timestamp: 0, path: 0 })
      }
    }
    // An existing subscriber (user-2) and one that does not exist (ghost) get the very same answer.
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1)
    expect(JSON.stringify(answers[0])).not.toMatch(/user-2|ghost/)
    expect(forwarded).toEqual([])
    expect(digest(service)).toBe(before)
  })

  it('answers 405 with the Allow of the path to a method the path does not take, signed in or not', async () => {
    const { call, forwarded, service } = startProxy()
    const before = digest(service)
    const other = '/v1/subscribers/user-2/notifications/feed'
    const paths: [string, string][] = [
      [FEED, 'GET, HEAD'],
      [other, 'GET, HEAD'],
      [MARK, 'POST'],
      [PREFS, 'GET, HEAD, PATCH'],
      [SUBS, 'GET, HEAD'],
      ['/events', 'GET, HEAD'],
      // Nothing is forwarded there: no method is allowed.
      ['/v1/events/trigger', ''],
    ]
    for (const [path, allow] of paths) {
      for (const method of [
        'GET',
        'HEAD',
        'POST',
        'PATCH',
        'PUT',
        'DELETE',
        'OPTIONS',
        'PROPFIND',
        'patch',
        'X-CUSTOM',
      ]) {
        if (allow.split(', ').includes(method)) continue
        // GET, HEAD, POST and PATCH where nothing is forwarded are refused once the caller is known (403).
        if (allow === '' && ['GET', 'HEAD', 'POST', 'PATCH'].includes(method)) continue
        for (const user of ['user-1', null]) {
          const where = `${method} ${path} as ${user}`
          const init = ['PUT', 'POST', 'PATCH'].includes(method) ? json({}, { method }) : { method }
          const response = await call(user, path, init)
          expect(response.status, where).toBe(405)
          expect(response.headers.get('allow'), where).toBe(allow)
          if (method === 'HEAD') {
            expect(await response.text(), where).toBe('')
            continue
          }
          const body = await expectError(response, 405)
          expect(body.error).toBe('Method Not Allowed')
          expect(body.message, where).toBe(
            allow
              ? `The method ${method} is not allowed on ${BASE_PATH}${path}: it takes ${allow}.`
              : `The method ${method} is not allowed here: the proxy forwards nothing at ${BASE_PATH}${path}.`,
          )
        }
      }
    }
    expect(forwarded).toEqual([])
    expect(digest(service)).toBe(before)
  })

  it('answers OPTIONS, a CORS preflight included, with 405 and the Allow of the path, and no CORS header', async () => {
    const { call, forwarded } = startProxy()
    for (const [path, allow] of [
      [FEED, 'GET, HEAD'],
      [MARK, 'POST'],
      [PREFS, 'GET, HEAD, PATCH'],
    ]) {
      const response = await call(null, path!, {
        method: 'OPTIONS',
        headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' },
      })
      expect(response.status).toBe(405)
      expect(response.headers.get('allow')).toBe(allow)
      expect([...response.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([])
    }
    expect(forwarded).toEqual([])
  })

  it('answers 413 to a body over the limit, by its Content-Length or by what it streams', async () => {
    const { call, forwarded, service } = startProxy({ maxBodyBytes: 1024 })
    const before = digest(service)
    const big = { messageId: Array.from({ length: 200 }, (_, i) => `id-${i}`), markAs: 'read' }
    await expectError(await call('user-1', MARK, json(big)), 413)

    let pulled = 0
    const chunk = new TextEncoder().encode(' '.repeat(256))
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++
        if (pulled > 1000) controller.close()
        else controller.enqueue(chunk)
      },
    })
    const streamed = await call('user-1', MARK, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit)
    await expectError(streamed, 413)
    expect(pulled).toBeLessThan(20)

    const lying = await call('user-1', MARK, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '5000000' },
      body: JSON.stringify({ messageId: 'x', markAs: 'read' }),
    })
    await expectError(lying, 413)
    expect(forwarded).toEqual([])
    expect(digest(service)).toBe(before)

    const small = await call(
      'user-1',
      MARK,
      json({ messageId: service.state.messages('user-1')[0]!._id, markAs: 'read' }),
    )
    expect(small.status).toBe(201)
  })
})

describe('createInboxProxy: requests riding on a session cookie', () => {
  it('refuses writes from another site and writes that are not JSON, and still serves same-site ones', async () => {
    const { service, serviceFetch } = startProxy()
    const proxy = createInboxProxy({
      upstreamUrl: 'http://inbox.test',
      apiKey: service.apiKey,
      basePath: BASE_PATH,
      authenticate: (request) => (request.headers.get('cookie') === 'sid=s1' ? 'user-1' : null),
      fetch: serviceFetch,
    })
    const id = service.state.messages('user-1')[0]!._id
    const body = JSON.stringify({ messageId: id, markAs: 'read' })
    const send = (headers: Record<string, string>, payload: BodyInit = body) =>
      proxy(
        new Request(APP + BASE_PATH + MARK, {
          method: 'POST',
          headers: { cookie: 'sid=s1', ...headers },
          body: payload,
        }),
      )
    const before = digest(service)
    await expectError(await send({ 'content-type': 'text/plain' }), 415)
    await expectError(
      await send({ 'content-type': 'application/x-www-form-urlencoded' }, `messageId=${id}&markAs=read`),
      415,
    )
    await expectError(await send({ 'content-type': 'multipart/form-data; boundary=x' }), 415)
    await expectError(await send({}, new Blob([body])), 415)
    await expectError(await send({ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }), 403)
    expect(digest(service)).toBe(before)

    expect(
      (await send({ 'content-type': 'application/json; charset=utf-8', 'sec-fetch-site': 'same-origin' })).status,
    ).toBe(201)
    expect(service.state.messages('user-1')[0]!.read).toBe(true)
  })

  it('refuses reads and streams from another site too, before they spend the rate limit or push out a stream', async () => {
    const { service, serviceFetch } = startProxy()
    let forwarded = 0
    const proxy = createInboxProxy({
      upstreamUrl: 'http://inbox.test',
      apiKey: service.apiKey,
      basePath: BASE_PATH,
      authenticate: (request) => (request.headers.get('cookie') === 'sid=s1' ? 'user-1' : null),
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => {
        forwarded++
        return serviceFetch(new Request(input, init))
      }) as typeof fetch,
      rateLimit: { limit: 3, windowMs: 60_000 },
      events: { maxStreamsPerSubscriber: 1 },
    })
    const get = (path: string, site: string) =>
      proxy(new Request(APP + BASE_PATH + path, { headers: { cookie: 'sid=s1', 'sec-fetch-site': site } }))
    const own = await get('/events', 'same-origin')
    expect(own.status).toBe(200)
    const reader = own.body!.getReader()
    await reader.read()

    // Another site's images and no-cors fetches, riding on the cookie: what a page there can send without end.
    for (let i = 0; i < 5; i++) {
      for (const path of [FEED, PREFS, SUBS, '/events']) await expectError(await get(path, 'cross-site'), 403)
    }
    expect(forwarded).toBe(0)
    // The subscriber's stream is still theirs, and their allowance untouched (one of three went on the stream).
    await proxy.notify(['user-1'], { type: 'message.created', messageIds: ['m1'] })
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('"messageIds":["m1"]')
    expect((await get(FEED, 'same-origin')).status).toBe(200)
    expect((await get(FEED, 'same-site')).status).toBe(200)
    await reader.cancel()
  })
})

describe('createInboxProxy: when the service fails', () => {
  it('passes the service’s own errors through with their status and body', async () => {
    const { call, service, serviceFetch } = startProxy()
    const direct = await serviceFetch(`${FEED}?limit=1000`, { headers: { authorization: `ApiKey ${service.apiKey}` } })
    const viaProxy = await call('user-1', `${FEED}?limit=1000`)
    expect(viaProxy.status).toBe(422)
    const [a, b] = [await direct.json(), await viaProxy.json()] as Record<string, unknown>[]
    // The path is the one the browser asked for.
    expect({ ...b, timestamp: 0, path: FEED }).toEqual({ ...a, timestamp: 0 })
    expect(b!.path).toMatch(new RegExp(`.+${FEED}$`))

    expect((await call('ghost', '/v1/subscribers/ghost/notifications/feed')).status).toBe(404)
    const bad = await call('user-1', MARK, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{nope',
    })
    expect(bad.status).toBe(400)

    service.faults.add({ path: FEED, status: 503, times: 1 })
    const unavailable = await call('user-1', FEED)
    expect(unavailable.headers.get('x-content-type-options')).toBe('nosniff')
    await expectError(unavailable, 503)
    // The proxy's own refusals too.
    expect(
      (await call('user-1', '/v1/subscribers/user-2/notifications/feed')).headers.get('x-content-type-options'),
    ).toBe('nosniff')
  })

  it('relays the service’s 422 for a repeated query parameter, with the browser’s path and the field named', async () => {
    const { call, forwarded } = startProxy()
    for (const [query, field, value] of [
      ['limit=1&limit=2', 'limit', ['1', '2']],
      ['limit=2&limit=abc', 'limit', ['2', 'abc']],
      ['limit=abc&limit=2', 'limit', ['abc', '2']],
      ['read=false&read=true', 'read', ['false', 'true']],
    ] as const) {
      forwarded.length = 0
      const body = await expectError(await call('user-1', `${FEED}?${query}`), 422)
      expect(body, query).toMatchObject({ message: 'Validation Error', path: BASE_PATH + FEED })
      expect(body.errors, query).toEqual({
        [field]: { messages: [`${field} must be given once, not 2 times`], value },
      })
      // Both values went on as sent: it is the service that refuses them.
      expect(forwarded[0]!.url.searchParams.getAll(field)).toEqual(value)
    }
    const criticality = await expectError(await call('user-1', `${PREFS}?criticality=all&criticality=critical`), 422)
    expect(Object.keys(criticality.errors as object)).toEqual(['criticality'])
    const cursor = await expectError(
      await call('user-1', `${SUBS}?limit=1&orderDirection=ASC&orderDirection=DESC`),
      422,
    )
    expect(Object.keys(cursor.errors as object)).toEqual(['orderDirection'])
  })

  it('relays at most two hundred bad fields, and a plain error for an error answer over 256 KiB, whatever the service sends', async () => {
    // The reference service lists a hundred itself, and counts the rest: the proxy relays what it is sent.
    const { call } = startProxy()
    const ids = await expectError(
      await call('user-1', MARK, json({ messageId: Array(30_000).fill(0), markAs: 'read' })),
      422,
    )
    expect(Object.keys(ids.errors as object)).toHaveLength(101)

    // A service that names every one, in answers of any size.
    let fields = 0
    const { call: callHuge } = startProxy({
      fetch: (async () =>
        Response.json(
          {
            statusCode: 422,
            timestamp: new Date(0).toISOString(),
            path: MARK,
            message: 'Validation Error',
            error: 'Unprocessable Entity',
            errors: Object.fromEntries(
              Array.from({ length: fields }, (_, i) => [`messageId[${i}]`, { messages: ['bad'], value: 0 }]),
            ),
          },
          { status: 422 },
        )) as typeof fetch,
    })
    fields = 2_000
    const listed = await expectError(await callHuge('user-1', MARK, json({ messageId: 'x', markAs: 'read' })), 422)
    expect(listed.message).toBe('Validation Error')
    expect(Object.keys(listed.errors as object)).toEqual(Array.from({ length: 200 }, (_, i) => `messageId[${i}]`))
    fields = 20_000
    const plain = await expectError(await callHuge('user-1', MARK, json({ messageId: 'x', markAs: 'read' })), 422)
    expect(plain).toEqual({
      statusCode: 422,
      timestamp: expect.any(String),
      path: BASE_PATH + MARK,
      message: 'The notification service answered 422.',
      error: 'Unprocessable Entity',
    })
  })

  it('answers 502 with an error body when the connection drops, and 504 when the service is too slow', async () => {
    const { call, service } = startProxy({ timeout: 200 })
    service.faults.add({ path: FEED, drop: true, times: 1 })
    const dropped = await expectError(await call('user-1', FEED), 502)
    expect(dropped.error).toBe('Bad Gateway')

    service.faults.add({ path: FEED, latency: 1_000, times: 1 })
    await expectError(await call('user-1', FEED), 504)

    expect((await call('user-1', FEED)).status).toBe(200)
  })

  it('answers 502 when the upstream address refuses connections', async () => {
    const proxy = createInboxProxy({
      upstreamUrl: 'http://127.0.0.1:1',
      apiKey: 'k',
      authenticate: () => 'user-1',
    })
    await expectError(await proxy(new Request(APP + FEED)), 502)
  })

  it('answers 500 without detail when authenticate throws', async () => {
    const proxy = createInboxProxy({
      upstreamUrl: 'http://inbox.test',
      apiKey: 'k',
      authenticate: () => {
        throw new Error('session store down: secret detail')
      },
    })
    const body = await expectError(await proxy(new Request(APP + FEED)), 500)
    expect(JSON.stringify(body)).not.toContain('secret detail')
  })
})

describe('createInboxProxy: property', () => {
  it('forwards nothing but the five operations, for the caller’s own id, with the key and no browser credentials', async () => {
    const { proxy, forwarded, bearer } = startProxy()
    const auth = await bearer('user-1')
    const segment = fc.oneof(
      fc.constantFrom('v1', 'v2', 'V1', 'subscribers', 'notifications', 'feed', 'messages', 'mark-as', 'preferences'),
      fc.constantFrom('subscriptions', 'topics', 'events', 'trigger', 'integrations', 'active', 'set-primary'),
      fc.constantFrom(
        'user-1',
        'user-2',
        'USER-1',
        '%75ser-1',
        '%2575ser-1',
        'user-1%2F..',
        '..',
        '.',
        '',
        '%2e%2e',
        'user-1%00',
      ),
      fc.string({ maxLength: 8 }).map(encodeURIComponent),
    )
    const path = fc.oneof(
      fc.array(segment, { minLength: 0, maxLength: 7 }).map((s) => '/' + s.join('/')),
      fc.constantFrom(FEED, MARK, PREFS, SUBS),
    )
    const method = fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS')
    const query = fc.option(fc.webQueryParameters(), { nil: '' })
    const allowed = new Set([`GET ${FEED}`, `POST ${MARK}`, `GET ${PREFS}`, `PATCH ${PREFS}`, `GET ${SUBS}`])
    let tried = 0
    let reached = 0
    await fc.assert(
      fc.asyncProperty(method, path, query, async (m, p, q) => {
        tried++
        forwarded.length = 0
        let url: URL
        try {
          url = new URL(APP + BASE_PATH + p + (q ? `?${q}` : ''))
        } catch {
          return
        }
        const init: RequestInit = {
          method: m,
          headers: { authorization: auth, cookie: 'sid=1', 'content-type': 'application/json' },
        }
        if (m === 'POST' || m === 'PATCH' || m === 'PUT') init.body = '{}'
        const response = await proxy(new Request(url, init))
        expect(response.status).not.toBe(500)
        for (const f of forwarded) {
          expect(allowed.has(`${f.method} ${f.url.pathname}`)).toBe(true)
          expect(f.headers.get('authorization')).toMatch(/^ApiKey /)
          expect(f.headers.get('cookie')).toBeNull()
        }
        reached += forwarded.length
        // Not forwarded: refused, or the event route of a proxy without events ("no stream here").
        if (forwarded.length === 0) {
          // HEAD is answered as GET.
          if (response.status === 204)
            expect(['GET', 'HEAD'].map((h) => `${h} ${BASE_PATH}/events`)).toContain(`${m} ${url.pathname}`)
          else expect([401, 403, 405]).toContain(response.status)
        }
      }),
      { numRuns: 400 },
    )
    expect(tried).toBe(400)
    expect(reached).toBeGreaterThan(20)
  })
})
