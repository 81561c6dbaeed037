import { Agent } from 'node:http'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import { bearerTokenAuth, createInboxProxy, createSubscriberToken } from '../../src/proxy'
import type { NodeContext } from '../../src/proxy'
import { WEBHOOK_SECRET } from '../push/sse'
import { APP, BASE_PATH, SECRET, digest, startProxy } from './harness'
import { send, serveOverHttp } from './http'

/**
 * Malformed requests of every kind, drawn from fixed seeds: methods, paths, encodings, queries, headers,
 * bodies and tokens, webhooks signed or not, and now and then a service that drops the connection or is too slow. Whatever comes,
 * the proxy answers in the service's error shape, never 5xx unless the service failed on purpose, never with
 * the API key, and a 4xx changes nothing at the service.
 */

const MAX_BODY = 4096
/** What `Allow` names at a path below the base path: the methods of its route, none where nothing is forwarded. */
const ALLOW: [RegExp, string][] = [
  [/^\/v1\/subscribers\/[^/]*\/notifications\/feed$/, 'GET, HEAD'],
  [/^\/v1\/subscribers\/[^/]*\/messages\/mark-as$/, 'POST'],
  [/^\/v2\/subscribers\/[^/]*\/preferences$/, 'GET, HEAD, PATCH'],
  [/^\/v2\/subscribers\/[^/]*\/subscriptions$/, 'GET, HEAD'],
  [/^\/events$/, 'GET, HEAD'],
  // The proxy under test has a webhook secret, so it serves the webhook route.
  [/^\/webhooks\/messages$/, 'POST'],
]
/** The `Allow` of a request target, read as the proxy reads it (the pathname of its URL). */
function allowOf(target: string): string {
  const path = new URL(APP + target).pathname
  if (!path.startsWith(BASE_PATH + '/')) return ''
  const api = path.slice(BASE_PATH.length)
  return ALLOW.find(([pattern]) => pattern.test(api))?.[1] ?? ''
}
const T = { now: Date.now() }

const started = startProxy()
const { service, serviceFetch } = started
const apiKey = service.apiKey
const ids = service.state.messages('user-1').map((m) => m._id)
const theirIds = service.state.messages('user-2').map((m) => m._id)

const bearer = bearerTokenAuth(SECRET)

function proxyWith(timeout?: number) {
  return createInboxProxy<NodeContext>({
    upstreamUrl: 'http://inbox.test',
    apiKey,
    basePath: BASE_PATH,
    // An event stream opened by a case ends a few milliseconds later, as if its token expired, so every answer ends.
    authenticate: async (request) => {
      const verified = await bearer(request)
      return (
        verified && { subscriberId: verified.subscriberId, expiresAt: Math.min(verified.expiresAt, Date.now() + 5) }
      )
    },
    fetch: serviceFetch,
    maxBodyBytes: MAX_BODY,
    rateLimit: { limit: 1_000_000, windowMs: 60_000 },
    events: { webhookSecret: WEBHOOK_SECRET },
    ...(timeout !== undefined && { timeout }),
  })
}
const signer = new Webhook(WEBHOOK_SECRET)
/** Signs a case's body as the service would, now, with an id from a small set (so some are replays). */
function sign(c: Case): [string, string][] {
  const body = typeof c.body === 'string' ? c.body : c.body === null ? '' : new TextDecoder().decode(c.body)
  const now = new Date()
  const id = `msg_${c.signId}`
  return [
    ['webhook-id', id],
    ['webhook-timestamp', String(Math.floor(now.getTime() / 1000))],
    ['webhook-signature', signer.sign(id, now, body)],
  ]
}
const proxy = proxyWith()
// The service's latency fault is longer than this, so a slow case always ends in 504.
const impatient = proxyWith(20)

type Fault = 'none' | 'drop' | 'slow'
interface Case {
  method: string
  target: string
  headers: [string, string][]
  body: string | Uint8Array | null
  fault: Fault
  host: string | null
  /** Signed as a webhook at send time (with id `msg_<signId>`), for the webhook route. */
  signId: number | null
}

const printable = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength })
const latin1 = (maxLength: number) =>
  fc.string({
    unit: fc
      .integer({ min: 0x20, max: 0xff })
      .filter((c) => c !== 0x7f)
      .map((c) => String.fromCharCode(c)),
    maxLength,
  })

async function tokens() {
  const sign = (id: string, options: { expiresIn: number; now?: () => number } = { expiresIn: 600 }) =>
    createSubscriberToken(id, SECRET, options)
  const good = await sign('user-1')
  const [payload, signature] = good.split('.') as [string, string]
  return [
    `Bearer ${good}`,
    `Bearer ${await sign('user-2')}`,
    `Bearer ${await sign('ghost')}`,
    `Bearer ${await sign('ユーザー/1')}`,
    `Bearer ${await sign('user-1', { expiresIn: 1, now: () => T.now - 10_000 })}`,
    `Bearer ${await createSubscriberToken('user-1', 'another-secret-that-is-long-enough-for-hmac', { expiresIn: 60 })}`,
    `Bearer ${payload}.${signature.slice(1)}`,
    `Bearer ${payload}`,
    `bearer ${good}`,
    `Bearer  ${good}`,
    `Bearer ${good}, Bearer ${good}`,
    `Bearer ${'A'.repeat(5000)}.${signature}`,
    `ApiKey ${apiKey}`,
    'Basic dXNlcjpwYXNz',
    'Bearer ',
    '',
  ]
}

function caseArbitrary(authorizations: string[]): fc.Arbitrary<Case> {
  const [good] = authorizations as [string]
  const authorization = fc.oneof(
    { weight: 3, arbitrary: fc.constant(good) },
    { weight: 2, arbitrary: fc.constantFrom(...authorizations) },
  )
  const method = fc.oneof(
    { weight: 7, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH') },
    {
      weight: 1,
      arbitrary: fc.constantFrom('PUT', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'patch', 'M-SEARCH'),
    },
  )
  const own = fc.constantFrom(
    'user-1',
    'user-1',
    'user-1',
    'user-2',
    'ghost',
    '%E3%83%A6%E3%83%BC%E3%82%B6%E3%83%BC%2F1',
  )
  const segment = fc.oneof(
    fc.constantFrom(
      'v1',
      'v2',
      'subscribers',
      'notifications',
      'feed',
      'messages',
      'mark-as',
      'preferences',
      'subscriptions',
    ),
    fc.constantFrom(
      'topics',
      'events',
      'trigger',
      'integrations',
      'active',
      '..',
      '.',
      '',
      '%2e%2e',
      '%2F',
      '%',
      '%zz',
    ),
    fc.constantFrom('webhooks', 'Events', 'events%2F', 'webhooks%2Fmessages'),
    fc.constantFrom(
      '%c0%af',
      '%ff',
      '%00',
      '%u0041',
      'USER-1',
      'user-1%2F..%2Fuser-2',
      ';x=1',
      '\\',
      '%5C',
      'é',
      '\u{1F600}',
    ),
    fc.string({ maxLength: 12 }),
    own,
  )
  const routePath = fc.oneof(
    own.map((id) => `/v1/subscribers/${id}/notifications/feed`),
    own.map((id) => `/v1/subscribers/${id}/messages/mark-as`),
    own.map((id) => `/v2/subscribers/${id}/preferences`),
    own.map((id) => `/v2/subscribers/${id}/subscriptions`),
    fc.constantFrom('/events', '/webhooks/messages', '/webhooks', '/events/', '/webhooks/messages/x'),
  )
  const path = fc.oneof(
    { weight: 5, arbitrary: routePath },
    { weight: 3, arbitrary: fc.array(segment, { maxLength: 7 }).map((s) => '/' + s.join('/')) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(routePath, fc.constantFrom('/', '/..', '//', '/extra', '%2F', '?', '#x', '%3F'))
        .map(([p, s]) => p + s),
    },
  )
  const prefix = fc.oneof(
    { weight: 8, arbitrary: fc.constant(BASE_PATH) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '/api',
        '/api/inboxx',
        '/API/INBOX',
        '/api/inbox/..',
        '//api/inbox',
        '/api/inbox%2F',
      ),
    },
  )
  const queryValue = fc.oneof(
    fc.constantFrom(
      '0',
      '1',
      '-1',
      '100',
      '101',
      '1e3',
      'abc',
      '',
      'true',
      'false',
      'null',
      'ASC',
      'DESC',
      '_id',
      '%',
      '%zz',
      '%00',
    ),
    fc.constantFrom('eyJ4IjoxfQ==', 'e30=', 'not base64!', 'W10=', 'bnVsbA==', ids[0]!, theirIds[0]!, 'f'.repeat(24)),
    fc.string({ maxLength: 20 }).map(encodeURIComponent),
    fc.string({ maxLength: 20 }),
  )
  const queryName = fc.oneof(
    fc.constantFrom(
      'page',
      'limit',
      'read',
      'seen',
      'payload',
      'criticality',
      'after',
      'before',
      'orderDirection',
      'orderBy',
    ),
    fc.constantFrom('includeCursor', 'key', 'subscriberId', '__proto__', 'constructor', 'limit[]', ''),
    fc.string({ maxLength: 8 }),
  )
  const query = fc
    .array(fc.tuple(queryName, queryValue), { maxLength: 5 })
    .map((pairs) => (pairs.length ? '?' + pairs.map(([k, v]) => `${k}=${v}`).join('&') : ''))
  const jsonJunk = fc.jsonValue({ maxDepth: 3 })
  const messageId = fc.oneof(
    fc.constantFrom(...ids, ...theirIds, 'x', '', ids.join(','), `${ids[0]},${theirIds[0]}`),
    fc.array(fc.constantFrom(...ids, ...theirIds, 'nope'), { maxLength: 4 }),
    jsonJunk,
  )
  const markBody = fc
    .record(
      { messageId, markAs: fc.oneof(fc.constantFrom('read', 'seen', 'unread', 'unseen', 'READ', ''), jsonJunk) },
      { requiredKeys: [] },
    )
    .map((b) => JSON.stringify(b))
  const hookBody = fc
    .record(
      {
        type: fc.oneof(fc.constantFrom('message.created', 'message.updated', 'subscriber.created', ''), jsonJunk),
        timestamp: fc.oneof(fc.constant(new Date().toISOString()), jsonJunk),
        data: fc.oneof(
          fc.record(
            {
              subscriberId: fc.oneof(fc.constantFrom('user-1', 'user-2', '', 'x'.repeat(5000)), jsonJunk),
              messageIds: fc.oneof(fc.array(fc.constantFrom(...ids, '', 'm'), { maxLength: 3 }), jsonJunk),
            },
            { requiredKeys: [] },
          ),
          jsonJunk,
        ),
      },
      { requiredKeys: [] },
    )
    .map((b) => JSON.stringify(b))
  const prefsBody = fc
    .record(
      {
        channels: fc.oneof(
          fc.dictionary(
            fc.constantFrom('email', 'sms', 'in_app', 'push', 'chat', 'x'),
            fc.oneof(fc.boolean(), jsonJunk),
          ),
          jsonJunk,
        ),
        workflowId: fc.oneof(fc.constantFrom('test-workflow', 'nope', ''), jsonJunk),
        schedule: jsonJunk,
      },
      { requiredKeys: [] },
    )
    .map((b) => JSON.stringify(b))
  const body = fc.oneof(
    { weight: 4, arbitrary: markBody },
    { weight: 3, arbitrary: prefsBody },
    { weight: 2, arbitrary: hookBody },
    { weight: 2, arbitrary: jsonJunk.map((v) => JSON.stringify(v)) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '',
        '{',
        '{nope',
        'null',
        '[]',
        '"x"',
        '{"__proto__":{"markAs":"read"},"messageId":"x"}',
        '['.repeat(5000) + ']'.repeat(5000),
        ' '.repeat(MAX_BODY + 1),
        JSON.stringify({ messageId: ids, markAs: 'read', pad: 'x'.repeat(MAX_BODY) }),
      ),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 64, unit: 'binary' }) },
  )
  const header = fc.oneof(
    fc.tuple(fc.constant('authorization'), authorization),
    fc.tuple(fc.constant('authorization'), printable(80)),
    fc.tuple(
      fc.constant('content-type'),
      fc.oneof(
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'application/vnd.api+json',
          'APPLICATION/JSON',
        ),
        fc.constantFrom(
          'text/plain',
          'application/jsonx',
          'multipart/form-data; boundary=x',
          'application/x-www-form-urlencoded',
          '',
        ),
        printable(30),
      ),
    ),
    fc.tuple(
      fc.constant('idempotency-key'),
      fc.oneof(printable(40), printable(300), fc.constant('k'.repeat(256)), latin1(20)),
    ),
    fc.tuple(fc.constant('sec-fetch-site'), fc.constantFrom('same-origin', 'same-site', 'cross-site', 'none', '')),
    fc.tuple(
      fc.constantFrom('webhook-id', 'webhook-timestamp', 'webhook-signature'),
      fc.oneof(printable(40), latin1(20)),
    ),
    fc.tuple(
      fc.constant('webhook-timestamp'),
      fc.constantFrom(String(Math.floor(T.now / 1000)), '0', '-1', '1e10', '99999999999'),
    ),
    fc.tuple(
      fc.constant('webhook-signature'),
      fc.constantFrom('v1,', 'v1,AAAA', 'v2,x v1,y', ' ', 'v1,' + 'A'.repeat(44)),
    ),
    fc.tuple(
      fc.constant('last-event-id'),
      fc.oneof(fc.constantFrom('0-0', '1-1', `${T.now}-0`, '99999999999999-0', '-', ''), printable(80)),
    ),
    fc.tuple(fc.constantFrom('accept', 'cookie', 'x-forwarded-for', 'origin', 'x-api-key', 'forwarded'), latin1(40)),
  )
  const host = fc.oneof(
    { weight: 6, arbitrary: fc.constant(null) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'a b',
        '[::1',
        'a/b',
        'a@b',
        'a?b',
        'a#b',
        'a\\b',
        '',
        'a:99999',
        '%zz',
        'a:b',
        'é.test',
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom('localhost', '[::1]:80', 'app.test:3000', 'APP.TEST') },
  )
  const fault = fc.oneof(
    { weight: 96, arbitrary: fc.constant<Fault>('none') },
    { weight: 2, arbitrary: fc.constant<Fault>('drop') },
    { weight: 1, arbitrary: fc.constant<Fault>('slow') },
  )
  const toCase = (c: {
    method: string
    target: string
    auth: string | null
    contentType: boolean
    headers: [string, string][]
    body: string | Uint8Array | null
    fault: Fault
    host: string | null
    signId: number | null
  }): Case => {
    const headers: [string, string][] = []
    if (c.auth !== null) headers.push(['authorization', c.auth])
    if (c.contentType) headers.push(['content-type', 'application/json'])
    headers.push(...c.headers)
    // One value per header, the last drawn winning (two Authorization values have their own case above).
    return { ...c, headers: Object.entries(Object.fromEntries(headers)) }
  }
  // Anything at all.
  const wild = fc
    .record({
      method,
      target: fc.tuple(prefix, path, query).map((parts) => parts.join('')),
      auth: fc.option(authorization, { freq: 8 }),
      headers: fc.array(header, { maxLength: 5 }),
      contentType: fc.boolean(),
      body: fc.option(body, { freq: 5 }),
      fault,
      host,
      signId: fc.option(fc.integer({ min: 0, max: 20 }), { freq: 3 }),
    })
    .map(toCase)
  // A request of the right shape for one of the five operations, signed in, with something wrong in it.
  const operation = fc.constantFrom(
    ['GET', '/v1/subscribers/user-1/notifications/feed'],
    ['POST', '/v1/subscribers/user-1/messages/mark-as'],
    ['GET', '/v2/subscribers/user-1/preferences'],
    ['PATCH', '/v2/subscribers/user-1/preferences'],
    ['GET', '/v2/subscribers/user-1/subscriptions'],
    ['GET', '/events'],
    ['POST', '/webhooks/messages'],
  )
  const nearly = fc
    .record({
      operation,
      query,
      auth: fc.constant(good),
      headers: fc.array(
        header.filter(([name]) => name !== 'authorization'),
        { maxLength: 3 },
      ),
      contentType: fc.constant(true),
      body,
      fault,
      host: fc.constant(null),
      signId: fc.option(fc.integer({ min: 0, max: 20 }), { freq: 2 }),
    })
    .map(({ operation: [method, route], query: q, ...c }) =>
      toCase({ ...c, method: method!, target: BASE_PATH + route + q }),
    )
  return fc.oneof(wild, nearly)
}

const hasBody = (method: string) => method !== 'GET' && method !== 'HEAD'

/** The service's state after the last case, so that each case digests it once. */
let state = digest(service)

/** What every answer must be, given the case and the service's state before it. */
function judge(c: Case, status: number, headers: Headers, text: string) {
  const before = state
  state = digest(service)
  const label = `${c.method} ${c.target} (${c.fault})`
  expect(Number.isInteger(status) && status >= 200 && status < 600, label).toBe(true)
  if (status >= 500) {
    expect(c.fault, `${label}: ${status} ${text}`).not.toBe('none')
    expect([502, 504], label).toContain(status)
  }
  expect((text + JSON.stringify([...headers])).toLowerCase(), label).not.toContain(apiKey.toLowerCase())
  if (status >= 400 && c.method !== 'HEAD') {
    const body = JSON.parse(text) as Record<string, unknown>
    expect(body, label).toMatchObject({
      statusCode: status,
      timestamp: expect.any(String),
      path: expect.any(String),
      error: expect.any(String),
    })
    expect(typeof body.message === 'string' || Array.isArray(body.message), label).toBe(true)
  }
  if (status === 405) {
    expect(headers.get('allow'), label).toBe(allowOf(c.target))
    expect(headers.get('allow')!.split(', '), label).not.toContain(c.method)
  }
  if (status >= 400 && status < 500) expect(state, `${label}: a ${status} changed the service`).toBe(before)
}

function injectFault(fault: Fault) {
  service.faults.clear()
  if (fault === 'drop') service.faults.add({ drop: true, times: 1 })
  if (fault === 'slow') service.faults.add({ latency: 1_000, times: 1 })
}

describe('proxy fuzz', () => {
  let arbitrary: fc.Arbitrary<Case>
  let served: Awaited<ReturnType<typeof serveOverHttp>>
  let slowServed: Awaited<ReturnType<typeof serveOverHttp>>
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  beforeAll(async () => {
    arbitrary = caseArbitrary(await tokens())
    served = await serveOverHttp(proxy)
    slowServed = await serveOverHttp(impatient)
  })
  afterAll(async () => {
    agent.destroy()
    await Promise.all([served.close(), slowServed.close()])
  })

  it('answers 2,000 malformed requests in process with no 5xx, no key, and no 4xx that changed the service', async () => {
    const counts = { sent: 0, skipped: 0, streams: 0, status: new Map<number, number>() }
    await fc.assert(
      fc.asyncProperty(arbitrary, async (c) => {
        let request: Request
        try {
          request = new Request(APP + c.target, {
            method: c.method,
            headers: c.signId === null ? c.headers : [...c.headers, ...sign(c)],
            body: hasBody(c.method) ? (c.body as BodyInit | null) : null,
          })
        } catch {
          // A method fetch cannot carry (TRACE) or a header it refuses: only HTTP can send those; see below.
          counts.skipped++
          return
        }
        injectFault(c.fault)
        const response = await (c.fault === 'slow' ? impatient : proxy)(request)
        service.faults.clear()
        counts.sent++
        counts.status.set(response.status, (counts.status.get(response.status) ?? 0) + 1)
        if (response.headers.get('content-type')?.startsWith('text/event-stream')) counts.streams++
        judge(c, response.status, response.headers, await response.text())
      }),
      { numRuns: 2_100, seed: 9_001, endOnFailure: true },
    )
    expect(counts.sent).toBeGreaterThanOrEqual(2_000)
    // The event stream and the webhook route are among them, served and refused.
    expect(counts.streams).toBeGreaterThan(0)
    // The cases reach every kind of answer, the service's own included.
    for (const status of [200, 201, 204, 400, 401, 403, 405, 413, 415, 422, 502, 504])
      expect(counts.status.get(status), String(status)).toBeGreaterThan(0)
  })

  it('answers 600 malformed requests over real HTTP through toNodeHandler alike, odd methods and Host headers too', async () => {
    const counts = { sent: 0, streams: 0, status: new Map<number, number>() }
    await fc.assert(
      fc.asyncProperty(arbitrary, async (c) => {
        // node:http sends a request target only of visible characters; others go percent-encoded, as a browser would.
        const target = c.target.replace(/[^\x21-\x7e]/gu, (ch) => {
          try {
            return encodeURIComponent(ch)
          } catch {
            return '%EF%BF%BD'
          }
        })
        const headers = Object.fromEntries(
          [...c.headers, ...(c.signId === null ? [] : sign(c))].filter(([, v]) => !/[^\t\x20-\x7e\x80-\xff]/.test(v)),
        )
        if (c.host !== null) headers.host = c.host
        const body = hasBody(c.method) && c.body !== null ? c.body : undefined
        injectFault(c.fault)
        const port = c.fault === 'slow' ? slowServed.port : served.port
        const answer = await send(port, { method: c.method, path: target, headers, body, agent })
        service.faults.clear()
        counts.sent++
        counts.status.set(answer.status, (counts.status.get(answer.status) ?? 0) + 1)
        if (String(answer.headers['content-type']).startsWith('text/event-stream')) counts.streams++
        const responseHeaders = new Headers()
        for (const [name, value] of Object.entries(answer.headers))
          if (typeof value === 'string') responseHeaders.set(name, value)
        judge(c, answer.status, responseHeaders, answer.body)
      }),
      { numRuns: 600, seed: 4_242, endOnFailure: true },
    )
    expect(counts.sent).toBe(600)
    expect(counts.streams).toBeGreaterThan(0)
    for (const status of [200, 400, 401, 403, 405, 413, 422])
      expect(counts.status.get(status), String(status)).toBeGreaterThan(0)
  })
})
