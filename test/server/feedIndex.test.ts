import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TEST_SUBSCRIBER_ID, buildFixture } from '../support/fixtures'
import { rawService } from './helpers'

const FEED = `/v1/subscribers/${TEST_SUBSCRIBER_ID}/notifications/feed`
const MARK = `/v1/subscribers/${TEST_SUBSCRIBER_ID}/messages/mark-as`
const FILTERS = [
  '',
  '&read=true',
  '&read=false',
  '&seen=true',
  '&seen=false',
  '&read=false&seen=false',
  '&read=true&seen=false',
]

describe('feed index under mark-as', () => {
  it('every filtered page matches a plain filter-and-sort of the messages, whatever was marked', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Minutes of createdAt: collisions test the _id tie-break.
        fc.array(fc.record({ minute: fc.integer({ min: 0, max: 5 }), read: fc.boolean(), seen: fc.boolean() }), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.array(
          fc.record({
            all: fc.boolean(),
            picks: fc.array(fc.nat(), { minLength: 1, maxLength: 20 }),
            markAs: fc.constantFrom('read', 'unread', 'seen', 'unseen'),
          }),
          { maxLength: 8 },
        ),
        fc.integer({ min: 1, max: 7 }),
        async (seed, ops, limit) => {
          const fixture = buildFixture({
            messages: seed.map((m, i) => ({
              subscriberId: TEST_SUBSCRIBER_ID,
              workflow: 'test-workflow',
              createdAt: new Date(Date.UTC(2026, 0, 1, 0, m.minute)).toISOString(),
              content: `m${i}`,
              read: m.read,
              seen: m.seen,
            })),
          })
          const { call, service } = rawService({ fixture })
          const ids = service.state.messages(TEST_SUBSCRIBER_ID).map((m) => m._id)
          for (const op of ops) {
            const res = await call(MARK, {
              body: { messageId: op.all ? ids : op.picks.map((p) => ids[p % ids.length]), markAs: op.markAs },
            })
            expect(res.status).toBe(201)
          }
          const all = service.state.messages(TEST_SUBSCRIBER_ID)
          for (const filter of FILTERS) {
            const params = new URLSearchParams(filter)
            const expected = all
              .filter(
                (m) =>
                  (!params.has('read') || String(m.read) === params.get('read')) &&
                  (!params.has('seen') || String(m.seen) === params.get('seen')),
              )
              .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b._id.localeCompare(a._id))
              .map((m) => m._id)
            const got: string[] = []
            for (let page = 0; page * limit <= expected.length; page++) {
              const { json } = await call(`${FEED}?page=${page}&limit=${limit}${filter}`)
              got.push(...json.data.map((d: { _id: string }) => d._id))
              expect(json.totalCount).toBe(expected.length)
              expect(json.hasMore).toBe(expected.length > (page + 1) * limit)
            }
            expect(got).toEqual(expected)
          }
        },
      ),
      { numRuns: 40 },
    )
  })
})
