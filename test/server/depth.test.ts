import { describe, expect, it } from 'vitest'
import { FixtureError, createService } from '../../server'
import { digest } from '../faults/digest'
import { TEST_SUBSCRIBER_ID, buildFixture, messages } from '../support/fixtures'
import { encodePayload, rawService } from './helpers'

const FEED = `/v1/subscribers/${TEST_SUBSCRIBER_ID}/notifications/feed`
const MARK = `/v1/subscribers/${TEST_SUBSCRIBER_ID}/messages/mark-as`

/** JSON text of an object nested `depth` levels deep (`{"a":{"a":…1…}}`), built without recursion. */
const nested = (depth: number, leaf = '1') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth)
/** The same as arrays. */
const nestedArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)

/** Depths around the limit, and far beyond it. */
const DEPTHS = [...Array.from({ length: 70 }, (_, i) => i + 1), 100, 1_000, 5_000, 20_000, 100_000]

describe('deeply nested JSON', () => {
  it('a scan of payload depths: each trigger is refused with a 422 naming payload, or its message is served and can be marked', async () => {
    const { call, service } = rawService()
    const accepted: number[] = []
    for (const depth of DEPTHS) {
      const before = digest(service)
      const trigger = await call('/v1/events/trigger', {
        rawBody: `{"name":"test-workflow","to":"${TEST_SUBSCRIBER_ID}","payload":${nested(depth)}}`,
      })
      if (trigger.status !== 201) {
        expect(trigger.status, `depth ${depth}`).toBe(422)
        expect(Object.keys(trigger.json.errors), `depth ${depth}`).toEqual(['payload'])
        expect(trigger.json.errors.payload.messages[0]).toMatch(/levels deep/)
        expect(digest(service), `depth ${depth} changed state`).toBe(before)
        continue
      }
      accepted.push(depth)
      const page = await call(`${FEED}?limit=1`)
      expect(page.status, `feed after depth ${depth}`).toBe(200)
      expect(JSON.stringify(page.json.data[0].payload)).toBe(nested(depth))
      const id = page.json.data[0]._id
      const marked = await call(MARK, { body: { messageId: id, markAs: 'read' } })
      expect(marked.status, `mark-as after depth ${depth}`).toBe(201)
      const filtered = await call(`${FEED}?payload=${encodeURIComponent(encodePayload(JSON.parse(nested(depth))))}`)
      expect(filtered.status, `payload filter of depth ${depth}`).toBe(200)
      expect(filtered.json.data.map((m: { _id: string }) => m._id)).toContain(id)
    }
    // Everything up to the limit is accepted, nothing beyond it; so page 0 and the counts stay whole.
    expect(accepted).toEqual(DEPTHS.filter((d) => d <= 63))
    const all = await call(`${FEED}?limit=100`)
    expect(all.status).toBe(200)
    expect(all.json.totalCount).toBe(accepted.length)
  })

  it('names the event of a bulk trigger whose payload is too deep, and processes none of them', async () => {
    const { call, service } = rawService()
    const before = digest(service)
    const event = (payload: string) => `{"name":"test-workflow","to":"${TEST_SUBSCRIBER_ID}","payload":${payload}}`
    const res = await call('/v1/events/trigger/bulk', {
      rawBody: `{"events":[${event('{}')},${event(nested(5_000))}]}`,
    })
    expect(res.status).toBe(422)
    expect(Object.keys(res.json.errors)).toEqual(['events[1].payload'])
    expect(digest(service)).toBe(before)
  })

  it('answers every POST and PATCH with a body 5,000+ levels deep with a 4xx naming the field, changing nothing', async () => {
    const { call, service } = rawService({ fixture: buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 2) }) })
    const integration = '/v1/integrations/000000000000000000000000/set-primary'
    const routes: [string, string][] = [
      ['POST', MARK],
      ['PATCH', `/v2/subscribers/${TEST_SUBSCRIBER_ID}/preferences`],
      ['POST', '/v1/events/trigger'],
      ['POST', '/v1/events/trigger/bulk'],
      ['POST', integration],
    ]
    const before = digest(service)
    for (const [method, path] of routes) {
      // Both within the smallest body limit (100 KB).
      for (const depth of [5_000, 16_000]) {
        for (const [rawBody, field] of <[string, string][]>[
          [`{"x":${nested(depth)}}`, 'x'],
          [`{"messageId":${nestedArray(depth)}}`, 'messageId[0]'],
          [nestedArray(depth), '[0][0]'],
        ]) {
          const res = await call(path, { method, rawBody })
          expect(res.status, `${method} ${path} ${rawBody.slice(0, 20)}…`).toBe(422)
          expect(Object.keys(res.json.errors)).toEqual([field])
          expect(res.json).toMatchObject({ statusCode: 422, message: 'Validation Error', path })
        }
      }
    }
    const filter = await call(`${FEED}?payload=${encodeURIComponent(btoa(nested(5_000)))}`)
    expect(filter.status).toBe(422)
    expect(Object.keys(filter.json.errors)).toEqual(['payload'])
    expect(digest(service)).toBe(before)
  })

  it('refuses a fixture whose stored JSON is too deep, naming the field, and serves every depth it accepts', async () => {
    for (const depth of [1, 30, 63, 64, 100, 5_000]) {
      const payload = JSON.parse(nested(depth))
      const fixture = buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 1, { payload }) })
      try {
        createService({ fixture })
      } catch (error) {
        expect(depth).toBeGreaterThan(63)
        expect(error).toBeInstanceOf(FixtureError)
        expect((error as FixtureError).path).toBe('messages[0].payload')
        continue
      }
      expect(depth).toBeLessThanOrEqual(63)
      const { call } = rawService({ fixture })
      const page = await call(FEED)
      expect(page.status).toBe(200)
      expect(page.json.data[0].payload).toEqual(payload)
    }
    const deepData = buildFixture({ subscribers: [{ subscriberId: 'deep', data: JSON.parse(nested(64)) }] })
    expect(() => createService({ fixture: deepData })).toThrow(/subscribers\[1\]\.data: must not nest/)
  })
})
