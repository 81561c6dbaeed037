import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { createService, type Service } from '../../server'
import {
  TEST_API_KEY,
  buildFixture,
  emailStep,
  inApp,
  integration,
  messages,
  subscriber,
  topic,
  workflow,
} from '../support/fixtures'
import { digest } from './digest'

/** No delay steps: every change a request makes is done when its response is. */
const FIXTURE = buildFixture({
  workflows: [
    workflow('test-workflow', [inApp('Hello {{subscriber.firstName}} {{payload.x}}')]),
    workflow('mail', [emailStep('Hi', 'Body {{payload.x}}'), inApp('Mail sent')]),
    workflow('alerts', [inApp('Alert')], { critical: true }),
    workflow('paused', [inApp('never')], { active: false }),
    workflow('empty', []),
  ],
  subscribers: [subscriber('user-2', { firstName: 'Bo' }), subscriber('user/3')],
  topics: [topic('news', ['user-1', 'user-2']), topic('empty-topic')],
  integrations: [
    integration('email', 'mail-a', { primary: true }),
    integration('sms', 'sms-a'),
    integration('chat', 'chat-a'),
  ],
  tenants: [{ identifier: 'acme', name: 'Acme' }],
  messages: [
    ...messages('user-1', 6, (i) => ({ read: i % 2 === 0, payload: { i, tag: i % 3 ? 'a' : 'b' } })),
    ...messages('user-2', 3),
  ],
})

/** Request parts are drawn as functions of the running service, so they can name its real ids. */
type Ctx = {
  service: Service
  messageId(i: number): string
  subscriptionId(i: number): string
  integrationId(i: number): string
}
type Part<T> = fc.Arbitrary<(ctx: Ctx) => T>
const lift = <T>(arb: fc.Arbitrary<T>): Part<T> => arb.map((v) => () => v)

const junk = fc.oneof(
  { depthSize: 'small' },
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 20 }),
  fc.constantFrom(Infinity, -0, Number.MAX_SAFE_INTEGER + 2, '', ' ', '\u0000', '__proto__', 'constructor'),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 2 }),
)

/** Mostly a valid value, sometimes a wrong one, so that requests get past the first check often enough. */
const usually = <T, U>(valid: fc.Arbitrary<T>, wrong: fc.Arbitrary<U>) =>
  fc.oneof({ arbitrary: valid, weight: 4 }, { arbitrary: wrong, weight: 1 })

const subscriberIdText = fc.constantFrom(
  'user-1',
  'user-2',
  'user/3',
  'ghost',
  '',
  ' ',
  'a'.repeat(300),
  '%',
  '..',
  'USER-1',
)
const subscriberIdPath = usually(
  fc.constantFrom('user-1', 'user-2', 'user%2F3'),
  fc.oneof(
    subscriberIdText.map(encodeURIComponent),
    fc.constantFrom('%ZZ', '%', '%2F..%2F', '%E0%A4%A', 'user-1%00', '%252F', '..', '.'),
    fc.string({ maxLength: 12 }).map(encodeURIComponent),
  ),
)
const messageRef: Part<unknown> = fc.oneof(
  fc.nat().map((i) => (ctx: Ctx) => ctx.messageId(i)),
  fc.nat().map((i) => (ctx: Ctx) => ctx.messageId(i)),
  fc.nat().map((i) => (ctx: Ctx) => [ctx.messageId(i), ctx.messageId(i + 1)]),
  fc.nat().map((i) => (ctx: Ctx) => `${ctx.messageId(i)},${ctx.messageId(i + 2)}`),
  lift(fc.constantFrom('0123456789abcdef01234567', 'not-an-id', '', [], [''], ['x', 1], 'a'.repeat(5000))),
  lift(junk),
)
const cursor: Part<string> = fc.oneof(
  fc.nat().map((i) => (ctx: Ctx) => ctx.subscriptionId(i)),
  lift(fc.constantFrom('0123456789abcdef01234567', 'ffffffffffffffffffffffff', 'zz', '', '%', '0'.repeat(24), 'null')),
  lift(fc.string({ maxLength: 30 })),
)
const numberText = fc.oneof(
  fc.integer({ min: -5, max: 150 }).map(String),
  fc.constantFrom('1e309', 'NaN', '-0', '0x10', '10.5', ' 5', '9007199254740993', '', 'true', '[]', '1,2'),
  fc.string({ maxLength: 6 }),
)
const base64Text = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((v) => btoa(unescape(encodeURIComponent(JSON.stringify(v))))),
  fc.constantFrom(
    '%%%',
    '!!!',
    'e30',
    'e30=',
    'e30==',
    'bnVsbA==',
    'W10=',
    'MQ==',
    '',
    '====',
    'eyJh',
    'A'.repeat(200_000),
  ),
  fc
    .constantFrom('{"__proto__":{}}', '{"constructor":{}}', '{"i":{"__proto__":{"x":1}}}', '{"toString":"t"}')
    .map(btoa),
  fc.constantFrom(62, 63, 64, 5_000).map((depth) => btoa('{"i":'.repeat(depth) + '1' + '}'.repeat(depth))),
  fc.string({ maxLength: 30 }),
)

const query = (entries: [string, fc.Arbitrary<string> | Part<string>, boolean?][]): Part<string> =>
  fc
    .tuple(
      ...entries.map(([name, value, part]) =>
        fc.option(
          (part ? (value as Part<string>) : lift(value as fc.Arbitrary<string>)).map((f) => [name, f] as const),
          { freq: 2 },
        ),
      ),
      fc.option(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })), { freq: 3 }),
    )
    .map((pairs) => (ctx: Ctx) => {
      const search = new URLSearchParams()
      for (const pair of pairs) {
        if (!pair) continue
        const [name, value] = pair
        search.append(name, typeof value === 'function' ? value(ctx) : value)
      }
      const s = search.toString()
      return s && `?${s}`
    })

const cursorQuery = (extra: [string, fc.Arbitrary<string>][]) =>
  query([
    ['after', cursor, true],
    ['before', cursor, true],
    ['limit', numberText],
    ['orderDirection', fc.constantFrom('ASC', 'DESC', 'asc', 'up', '')],
    ['orderBy', fc.constantFrom('_id', 'createdAt', '', '__proto__')],
    ['includeCursor', fc.constantFrom('true', 'false', '1', 'yes')],
    ...extra,
  ])

const channels = usually(
  fc.dictionary(fc.constantFrom('email', 'sms', 'in_app', 'chat', 'push'), fc.boolean(), { maxKeys: 3 }),
  fc.oneof(
    fc.dictionary(fc.constantFrom('email', 'fax', '__proto__'), fc.oneof(fc.boolean(), junk), { maxKeys: 2 }),
    junk,
  ),
)
const recipient = fc.oneof(
  subscriberIdText,
  fc.record(
    { subscriberId: fc.oneof(subscriberIdText, junk), firstName: fc.oneof(fc.string(), junk), email: junk },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      type: fc.constantFrom('Topic', 'topic', 'x'),
      topicKey: fc.oneof(fc.constantFrom('news', 'nope', 'empty-topic'), junk),
      exclude: junk,
    },
    { requiredKeys: [] },
  ),
  junk,
)
const triggerBody = fc.record(
  {
    name: usually(
      fc.constantFrom('test-workflow', 'mail', 'alerts'),
      fc.oneof(fc.constantFrom('paused', 'empty', 'missing'), junk),
    ),
    to: usually(
      fc.constantFrom('user-1', 'user-2', ['user-1', { type: 'Topic', topicKey: 'news' }]),
      fc.oneof(recipient, fc.array(recipient, { maxLength: 4 })),
    ),
    payload: fc.oneof(fc.dictionary(fc.string({ maxLength: 5 }), junk, { maxKeys: 3 }), junk),
    actor: fc.oneof(
      subscriberIdText,
      fc.record({ subscriberId: subscriberIdText, avatar: junk }, { requiredKeys: [] }),
      junk,
    ),
    tenant: fc.oneof(
      fc.constantFrom('acme', 'nope'),
      fc.record({ identifier: fc.oneof(fc.string(), junk), name: junk }, { requiredKeys: [] }),
      junk,
    ),
    transactionId: fc.oneof(fc.uuid(), junk),
    overrides: junk,
  },
  { requiredKeys: [] },
)
const schedule = fc.oneof(
  fc.record(
    {
      isEnabled: fc.oneof(fc.boolean(), junk),
      weeklySchedule: fc.oneof(
        fc.dictionary(
          fc.constantFrom('monday', 'sunday', 'funday'),
          fc.record(
            {
              isEnabled: fc.oneof(fc.boolean(), junk),
              hours: fc.oneof(
                fc.array(
                  fc.record({
                    start: fc.constantFrom('09:00 AM', '13:00 PM', '9am', ''),
                    end: fc.constantFrom('05:00 PM', 'x'),
                  }),
                  { maxLength: 2 },
                ),
                junk,
              ),
            },
            { requiredKeys: [] },
          ),
          { maxKeys: 2 },
        ),
        junk,
      ),
    },
    { requiredKeys: [] },
  ),
  junk,
)

interface Spec {
  method: string
  path: string
  body?: unknown
}

/** A request to one of the API's routes with some of its parts wrong, or to none of them. */
const routeRequest: Part<Spec> = fc.oneof(
  fc
    .tuple(
      subscriberIdPath,
      query([
        ['page', numberText],
        ['limit', numberText],
        ['read', fc.constantFrom('true', 'false', 'yes', '1', '')],
        ['seen', fc.constantFrom('true', 'false', 'no', '')],
        ['payload', base64Text],
      ]),
    )
    .map(([id, q]) => (ctx: Ctx) => ({ method: 'GET', path: `/v1/subscribers/${id}/notifications/feed${q(ctx)}` })),
  fc
    .tuple(
      subscriberIdPath,
      fc.record(
        {
          messageId: messageRef,
          markAs: lift(
            usually(
              fc.constantFrom('read', 'seen', 'unread', 'unseen'),
              fc.oneof(fc.constantFrom('READ', 'archived'), junk),
            ),
          ),
        },
        { requiredKeys: [] },
      ),
    )
    .map(([id, body]) => (ctx: Ctx) => ({
      method: 'POST',
      path: `/v1/subscribers/${id}/messages/mark-as`,
      body: Object.fromEntries(Object.entries(body).map(([k, f]) => [k, (f as (c: Ctx) => unknown)(ctx)])),
    })),
  fc
    .tuple(subscriberIdPath, query([['criticality', fc.constantFrom('critical', 'nonCritical', 'all', 'ALL', '')]]))
    .map(([id, q]) => (ctx: Ctx) => ({ method: 'GET', path: `/v2/subscribers/${id}/preferences${q(ctx)}` })),
  fc
    .tuple(
      subscriberIdPath,
      fc.record(
        {
          channels,
          workflowId: usually(
            fc.constantFrom('test-workflow', 'mail'),
            fc.oneof(fc.constantFrom('alerts', 'paused', 'missing'), junk),
          ),
          schedule,
        },
        { requiredKeys: [] },
      ),
    )
    .map(([id, body]) => () => ({ method: 'PATCH', path: `/v2/subscribers/${id}/preferences`, body })),
  fc
    .tuple(subscriberIdPath, cursorQuery([['key', fc.constantFrom('news', 'nope', '')]]))
    .map(([id, q]) => (ctx: Ctx) => ({ method: 'GET', path: `/v2/subscribers/${id}/subscriptions${q(ctx)}` })),
  fc
    .tuple(
      fc.oneof(
        fc.constantFrom('news', 'empty-topic', 'nope', '%', '%ZZ'),
        fc.string({ maxLength: 8 }).map(encodeURIComponent),
      ),
      cursorQuery([['subscriberId', subscriberIdText]]),
    )
    .map(([key, q]) => (ctx: Ctx) => ({ method: 'GET', path: `/v2/topics/${key}/subscriptions${q(ctx)}` })),
  fc
    .oneof(
      fc.nat().map((i) => (ctx: Ctx) => ctx.integrationId(i)),
      lift(fc.constantFrom('0123456789abcdef01234567', 'x', '%', '')),
    )
    .chain((f) =>
      fc.option(junk).map((body) => (ctx: Ctx) => ({
        method: 'POST',
        path: `/v1/integrations/${encodeURIComponent(f(ctx))}/set-primary`,
        body: body ?? undefined,
      })),
    ),
  lift(fc.constant({ method: 'GET', path: '/v1/integrations/active' })),
  lift(fc.oneof(triggerBody, junk).map((body) => ({ method: 'POST', path: '/v1/events/trigger', body }))),
  lift(
    fc
      .oneof(
        fc.record(
          {
            events: fc.oneof(
              fc.array(triggerBody, { maxLength: 3 }),
              fc.constant(Array.from({ length: 101 }, () => ({ name: 'test-workflow', to: 'user-1' }))),
              junk,
            ),
          },
          { requiredKeys: [] },
        ),
        junk,
      )
      .map((body) => ({ method: 'POST', path: '/v1/events/trigger/bulk', body })),
  ),
  lift(
    fc
      .tuple(
        fc.constantFrom(
          'GET',
          'POST',
          'PATCH',
          'PUT',
          'DELETE',
          'HEAD',
          'OPTIONS',
          'patch',
          'FOO',
          'PROPFIND',
          'QUERY',
          'M-SEARCH',
        ),
        fc.webPath(),
      )
      .map(([method, path]) => ({ method, path: path || '/' })),
  ),
  lift(
    fc
      .constantFrom('PUT', 'DELETE', 'HEAD', 'patch', 'post')
      .map((method) => ({ method, path: '/v1/subscribers/user-1/messages/mark-as' })),
  ),
)

/** JSON text nested `depth` levels, as objects or arrays, without recursion. */
const deepText = (depth: number, arrays: boolean) =>
  arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)

type Encoding =
  | { kind: 'deep'; depth: number; arrays: boolean; field: string }
  | { kind: 'json' }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'huge'; size: number }
const encoding: fc.Arbitrary<Encoding> = fc.oneof(
  { arbitrary: fc.constant({ kind: 'json' as const }), weight: 12 },
  {
    arbitrary: fc
      .oneof(
        fc.string(),
        fc.constantFrom(
          '{',
          '{"messageId":',
          '[1,2',
          'nul',
          '{"a":1}{"b":2}',
          '\uFEFF{}',
          '"\\ud800"',
          '{"__proto__":{"x":1}}',
        ),
      )
      .map((text) => ({ kind: 'text' as const, text })),
    weight: 3,
  },
  {
    arbitrary: fc
      .uint8Array({ maxLength: 40 })
      .map((bytes) => ({ kind: 'bytes' as const, bytes: Uint8Array.from([0xff, 0xfe, ...bytes]) })),
    weight: 1,
  },
  {
    arbitrary: fc.constantFrom(101 * 1024, 1024 * 1024 + 10).map((size) => ({ kind: 'huge' as const, size })),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('deep' as const),
      depth: fc.constantFrom(60, 62, 63, 64, 65, 1_000, 5_000, 15_000),
      arrays: fc.boolean(),
      field: fc.constantFrom(
        'payload',
        'overrides',
        'messageId',
        'channels',
        'schedule',
        'events',
        'to',
        'actor',
        'tenant',
        'x',
        '',
      ),
    }),
    weight: 2,
  },
)
const authHeader = fc.oneof(
  { arbitrary: fc.constant(`ApiKey ${TEST_API_KEY}`), weight: 10 },
  {
    arbitrary: fc.constantFrom(
      undefined,
      '',
      'ApiKey',
      'ApiKey wrong',
      `Bearer ${TEST_API_KEY}`,
      `apikey ${TEST_API_KEY}`,
      `ApiKey  ${TEST_API_KEY} `,
      `ApiKey ${TEST_API_KEY}x`,
    ),
    weight: 2,
  },
)
const headers = fc.record(
  {
    authorization: authHeader,
    contentType: fc.oneof(
      { arbitrary: fc.constant('application/json'), weight: 8 },
      {
        arbitrary: fc.constantFrom(
          undefined,
          'text/plain',
          'application/json; charset=utf-16',
          'multipart/form-data; boundary=x',
          'application/vnd.api+json',
          '*/*',
        ),
        weight: 2,
      },
    ),
    idempotencyKey: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 5 },
      { arbitrary: fc.constantFrom('k1', 'k2', 'k3'), weight: 3 },
      { arbitrary: fc.constantFrom('x'.repeat(256), '', ' ', '\t \t', ' k1 ', '__proto__'), weight: 1 },
    ),
    extra: fc.dictionary(
      fc.oneof(
        fc.constantFrom(
          'x-forwarded-for',
          'accept',
          'x-http-method-override',
          'cookie',
          'content-length',
          'content-encoding',
          'transfer-encoding',
          'range',
          'if-none-match',
          'origin',
        ),
        fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
      ),
      fc.oneof(
        fc.string({ maxLength: 10 }).filter((v) => /^[\x21-\x7e]*$/.test(v)),
        fc.constantFrom('gzip', 'bytes=0-1', '*', 'x'.repeat(4000)),
      ),
      { maxKeys: 3 },
    ),
  },
  { requiredKeys: ['authorization', 'contentType', 'idempotencyKey', 'extra'] },
)
const anyRequest = fc.record({
  spec: routeRequest,
  encoding,
  headers,
  // Now and then a query string far longer than any real one.
  longQuery: fc.oneof(
    { arbitrary: fc.constant(null), weight: 30 },
    { arbitrary: fc.constantFrom(10_000, 200_000), weight: 1 },
  ),
})
type Drawn = typeof anyRequest extends fc.Arbitrary<infer T> ? T : never

function toRequest(drawn: Drawn, ctx: Ctx): Request {
  const spec = drawn.spec(ctx)
  const h = new Headers()
  const { authorization, contentType, idempotencyKey, extra } = drawn.headers
  // Headers fetch itself owns (length, framing) are left to it; any other goes as drawn.
  for (const [name, value] of Object.entries(extra))
    if (!['content-length', 'transfer-encoding'].includes(name)) h.set(name, value)
  if (authorization !== undefined) h.set('authorization', authorization)
  if (contentType !== undefined) h.set('content-type', contentType)
  if (idempotencyKey !== undefined) h.set('idempotency-key', idempotencyKey)
  const canHaveBody = !['GET', 'HEAD'].includes(spec.method.toUpperCase())
  let body: BodyInit | undefined
  if (canHaveBody) {
    const e = drawn.encoding
    if (e.kind === 'json') body = spec.body === undefined ? undefined : JSON.stringify(spec.body)
    else if (e.kind === 'text') body = e.text
    else if (e.kind === 'bytes') body = e.bytes as BodyInit
    else if (e.kind === 'huge') body = `{"messageId":"${'a'.repeat(e.size)}","markAs":"read"}`
    else {
      const deep = deepText(e.depth, e.arrays)
      const base =
        spec.body !== null && typeof spec.body === 'object' && !Array.isArray(spec.body) && e.field
          ? spec.body
          : undefined
      body = base ? JSON.stringify({ ...base, [e.field]: '\u0000deep' }).replace('"\\u0000deep"', deep) : deep
    }
  }
  let path = spec.path
  if (drawn.longQuery) path += `${path.includes('?') ? '&' : '?'}${'q=x&'.repeat(drawn.longQuery / 4)}`
  return new Request(`http://inbox.test${path}`, { method: spec.method, headers: h, body })
}

let tried = 0
let rejected = 0
const statuses = new Map<number, number>()
afterAll(() => {
  const spread = [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ')
  const failed = [...statuses].filter(([s]) => s >= 500).reduce((n, [, count]) => n + count, 0)
  console.info(
    `service input: ${tried} requests tried, ${rejected} answered 4xx or 5xx (${spread}); ${failed} answered 5xx`,
  )
})

describe('reference service under random and malformed requests', () => {
  it('answers 422, not 500, to fields named like Object.prototype members (found by the property below)', async () => {
    const service = createService({ fixture: FIXTURE })
    const before = digest(service)
    for (const body of ['{"__proto__":1}', '{"constructor":1}', '{"toString":{"x":1}}', '{"hasOwnProperty":null}']) {
      const response = await service.fetch(
        new Request('http://inbox.test/v2/subscribers/user-1/preferences', {
          method: 'PATCH',
          headers: { authorization: `ApiKey ${TEST_API_KEY}`, 'content-type': 'application/json' },
          body,
        }),
      )
      tried++
      expect(response.status, body).toBe(422)
      rejected++
    }
    expect(digest(service)).toBe(before)
  })

  it('never answers 5xx, always answers errors in the error shape, and never changes its state on a 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyRequest, { minLength: 20, maxLength: 60 }), async (requests) => {
        const service = createService({ fixture: FIXTURE })
        const pick = <T>(list: T[], i: number, fallback: T) => (list.length ? list[i % list.length]! : fallback)
        const ctx: Ctx = {
          service,
          messageId: (i) =>
            pick(
              service.state.messages(pick(['user-1', 'user-2'], i, 'user-1')).map((m) => m._id),
              i,
              'none',
            ),
          subscriptionId: (i) =>
            pick(
              service.state.subscriptions('news').map((s) => s._id),
              i,
              'none',
            ),
          integrationId: (i) =>
            pick(
              service.state.integrations().map((x) => x._id),
              i,
              'none',
            ),
        }
        for (const drawn of requests) {
          const request = toRequest(drawn, ctx)
          // Whatever earlier triggers left for the background is done first, so only this request can change state.
          await service.settle()
          const before = digest(service)
          const response = await service.fetch(request)
          tried++
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
          const text = await response.text()
          // Plain checks in this loop, expect() only to report a failure: ten thousand matchers cost seconds.
          const where = `${request.method} ${request.url.slice(0, 200)}`
          if (response.status >= 500) expect(response.status, `${where} → ${text.slice(0, 300)}`).toBeLessThan(500)
          if (response.status >= 400) {
            rejected++
            const after = digest(service)
            if (after !== before) expect(after, `${where} changed state with ${response.status}`).toBe(before)
            // HEAD is answered as GET is, without the body.
            if (request.method === 'HEAD') {
              if (text !== '') expect(text, where).toBe('')
              continue
            }
            const body = JSON.parse(text) as Record<string, unknown>
            const shaped =
              body.statusCode === response.status &&
              typeof body.message === 'string' &&
              typeof body.error === 'string' &&
              typeof body.path === 'string'
            if (!shaped)
              expect(body, where).toMatchObject({
                statusCode: response.status,
                message: expect.any(String),
                error: expect.any(String),
                path: expect.any(String),
              })
            if (/\n\s+at /.test(text)) expect(text, where).not.toMatch(/\n\s+at /)
          }
        }
      }),
      { numRuns: 300, seed: 20_260_501, includeErrorInReport: true },
    )
    expect(tried).toBeGreaterThan(10_000)
    expect(rejected).toBeGreaterThan(tried / 3)
  })
})
