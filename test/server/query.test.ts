import { describe, expect, it } from 'vitest'
import { TEST_SUBSCRIBER_ID, buildFixture, messages, subscriber, topic } from '../support/fixtures'
import { encodePayload, rawService } from './helpers'

const FEED = `/v1/subscribers/${TEST_SUBSCRIBER_ID}/notifications/feed`
const PREFS = `/v2/subscribers/${TEST_SUBSCRIBER_ID}/preferences`
const SUBS = `/v2/subscribers/${TEST_SUBSCRIBER_ID}/subscriptions`
const TOPIC = '/v2/topics/news/subscriptions'
const ID_A = '0123456789abcdef01234567'
const ID_B = '0123456789abcdef01234568'

function fixture() {
  return buildFixture({
    subscribers: [subscriber('user-2')],
    topics: [topic('news', [TEST_SUBSCRIBER_ID, 'user-2']), topic('ops', [TEST_SUBSCRIBER_ID])],
    messages: messages(TEST_SUBSCRIBER_ID, 4, (i) => ({ read: i % 2 === 0, payload: { team: 'a' } })),
  })
}

const CURSOR: [string, string, string][] = [
  ['after', ID_A, ID_B],
  ['before', ID_A, ID_B],
  ['limit', '1', '2'],
  ['orderDirection', 'ASC', 'DESC'],
  ['orderBy', '_id', '_id'],
  ['includeCursor', 'true', 'false'],
]

/** Every query parameter the service reads, by route, with two values it accepts one at a time. */
const PARAMETERS: [method: string, path: string, name: string, first: string, second: string][] = [
  ['GET', FEED, 'page', '0', '1'],
  ['GET', FEED, 'limit', '1', '2'],
  ['GET', FEED, 'read', 'false', 'true'],
  ['GET', FEED, 'seen', 'false', 'true'],
  ['GET', FEED, 'payload', encodePayload({ team: 'a' }), encodePayload({ team: 'b' })],
  ...CURSOR.map(([name, a, b]) => ['GET', TOPIC, name, a, b] as [string, string, string, string, string]),
  ['GET', TOPIC, 'subscriberId', TEST_SUBSCRIBER_ID, 'user-2'],
  ...CURSOR.map(([name, a, b]) => ['GET', SUBS, name, a, b] as [string, string, string, string, string]),
  ['GET', SUBS, 'key', 'news', 'ops'],
  ['GET', PREFS, 'criticality', 'all', 'critical'],
  ['PATCH', PREFS, 'criticality', 'all', 'critical'],
]

describe('repeated query parameters', () => {
  it('refuses a parameter given twice with a 422 naming it and every value, on every route, for every parameter it reads', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    const before = JSON.stringify(service.state.subscriber(TEST_SUBSCRIBER_ID))
    for (const [method, path, name, first, second] of PARAMETERS) {
      const label = `${method} ${path} ${name}`
      const body = method === 'PATCH' ? { channels: { email: false } } : undefined
      const q = (value: string) => `${name}=${encodeURIComponent(value)}`
      // Each value alone is accepted; the patch is sent once only below, so nothing changes here.
      if (method === 'GET') {
        for (const value of [first, second]) expect((await call(`${path}?${q(value)}`)).status, label).toBe(200)
      }
      for (const [a, b] of [
        [first, second],
        [second, first],
        [first, first],
      ]) {
        const res = await call(`${path}?${q(a!)}&${q(b!)}`, { method, body })
        expect(res.status, label).toBe(422)
        expect(res.json).toMatchObject({ statusCode: 422, message: 'Validation Error', path })
        expect(Object.keys(res.json.errors), label).toEqual([name])
        expect(res.json.errors[name], label).toEqual({
          messages: [`${name} must be given once, not 2 times`],
          value: [a, b],
        })
      }
    }
    // The refused patches changed nothing.
    expect(JSON.stringify(service.state.subscriber(TEST_SUBSCRIBER_ID))).toBe(before)
  })

  it('answers the attacker’s feed cases with 422 instead of reading the first value', async () => {
    const { call } = rawService({ fixture: fixture() })
    for (const query of ['limit=1&limit=2', 'limit=2&limit=abc', 'limit=abc&limit=2', 'read=false&read=true']) {
      const res = await call(`${FEED}?${query}`)
      expect(res.status, query).toBe(422)
      expect(Object.keys(res.json.errors), query).toEqual([query.split('=')[0]])
    }
    // Every bad field at once: a repeated one beside an invalid one, and a name given three times.
    const res = await call(`${FEED}?limit=1&limit=2&read=maybe&seen=true&seen=false&seen=true&page=0`)
    expect(res.status).toBe(422)
    expect(res.json.errors).toEqual({
      limit: { messages: ['limit must be given once, not 2 times'], value: ['1', '2'] },
      read: { messages: ['read must be true or false'], value: 'maybe' },
      seen: { messages: ['seen must be given once, not 3 times'], value: ['true', 'false', 'true'] },
    })
    // A repeated cursor is a bad field (422), not half of the contradictory pair `after` and `before` (400).
    const cursor = await call(`${SUBS}?after=${ID_A}&after=${ID_B}&before=${ID_A}`)
    expect([cursor.status, Object.keys(cursor.json.errors ?? {})]).toEqual([422, ['after']])
    expect((await call(`${SUBS}?after=${ID_A}&before=${ID_B}`)).status).toBe(400)
  })

  it('still reads each parameter given once, and names it has no use for are ignored however often', async () => {
    const { call } = rawService({ fixture: fixture() })
    const one = await call(`${FEED}?limit=1&read=false&payload=${encodeURIComponent(encodePayload({ team: 'a' }))}`)
    expect([one.status, one.json.pageSize, one.json.totalCount]).toEqual([200, 1, 2])
    const unknown = await call(`${FEED}?x=1&x=2&limit[]=1&limit[]=2`)
    expect([unknown.status, unknown.json.pageSize]).toEqual([200, 4])
  })
})
