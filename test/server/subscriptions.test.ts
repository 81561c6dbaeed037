import { describe, expect, it } from 'vitest'
import { generateSubscriptions } from '../../server'
import { TEST_SUBSCRIBER_ID, buildFixture, subscriber, topic } from '../support/fixtures'
import { rawService } from './helpers'

const members = Array.from({ length: 23 }, (_, i) => `m-${String(i).padStart(2, '0')}`)

function fixture() {
  return buildFixture({
    subscribers: members.map((id) => subscriber(id, { firstName: id })),
    topics: [
      topic('news', members),
      topic('ops', [TEST_SUBSCRIBER_ID, 'm-01']),
      topic('empty', []),
      topic('design', [TEST_SUBSCRIBER_ID]),
      topic('sales', [TEST_SUBSCRIBER_ID]),
    ],
  })
}

type Call = ReturnType<typeof rawService>['call']

async function walk(call: Call, base: string, direction: 'ASC' | 'DESC', limit: number) {
  const forward: string[] = []
  const pages: { first: string; previous: string | null }[] = []
  let after: string | null = null
  for (;;) {
    const res: any = await call(`${base}?limit=${limit}&orderDirection=${direction}${after ? `&after=${after}` : ''}`)
    expect(res.status).toBe(200)
    const ids = res.json.data.map((s: any) => s._id)
    forward.push(...ids)
    pages.push({ first: ids[0], previous: res.json.previous })
    if (after === null) expect(res.json.previous).toBeNull()
    else expect(res.json.previous).toBe(ids[0])
    if (res.json.next === null) break
    expect(res.json.next).toBe(ids[ids.length - 1])
    after = res.json.next
  }
  return { forward, pages }
}

describe('GET /v2/topics/{key}/subscriptions', () => {
  it('walks forward and back in both directions, every item once, ordered by _id', async () => {
    const { call } = rawService({ fixture: fixture() })
    for (const direction of ['ASC', 'DESC'] as const) {
      for (const limit of [1, 5, 23, 100]) {
        const { forward } = await walk(call, '/v2/topics/news/subscriptions', direction, limit)
        expect(forward).toHaveLength(23)
        const sorted = [...forward].sort()
        expect(forward).toEqual(direction === 'ASC' ? sorted : sorted.reverse())
        // Back from the end with `before` gives the same items, each page in the requested direction.
        const back: string[] = []
        let before: string | null = forward[forward.length - 1]!
        let first = true
        while (before) {
          const res: any = await call(
            `/v2/topics/news/subscriptions?limit=${limit}&orderDirection=${direction}&before=${before}&includeCursor=${first}`,
          )
          const ids = res.json.data.map((s: any) => s._id)
          back.unshift(...ids)
          if (first) expect(ids[ids.length - 1]).toBe(forward[forward.length - 1])
          first = false
          before = res.json.previous
        }
        expect(back).toEqual(forward)
      }
    }
  })

  it('includes the cursor item on request and answers an empty page for an unknown id', async () => {
    const { call } = rawService({ fixture: fixture() })
    const all = (await call('/v2/topics/news/subscriptions?limit=100&orderDirection=ASC')).json.data.map(
      (s: any) => s._id,
    )
    let res = await call(`/v2/topics/news/subscriptions?limit=3&orderDirection=ASC&after=${all[5]}&includeCursor=true`)
    expect(res.json.data.map((s: any) => s._id)).toEqual(all.slice(5, 8))
    expect(res.json.previous).toBe(all[5])
    expect(res.json.next).toBe(all[7])
    res = await call(`/v2/topics/news/subscriptions?limit=3&orderDirection=ASC&before=${all[5]}`)
    expect(res.json.data.map((s: any) => s._id)).toEqual(all.slice(2, 5))
    res = await call(`/v2/topics/news/subscriptions?after=${'0'.repeat(24)}`)
    expect(res.json).toMatchObject({ data: [], next: null, previous: null, totalCount: 23 })
  })

  it('returns the subscription shape, counts, and filters by subscriberId', async () => {
    const { call } = rawService({ fixture: fixture() })
    let res = await call('/v2/topics/ops/subscriptions')
    expect(res.json).toMatchObject({ totalCount: 2, totalCountCapped: false, next: null, previous: null })
    const item = res.json.data[0]
    expect(item).toMatchObject({
      topic: { key: 'ops' },
      subscriber: { subscriberId: 'm-01', firstName: 'm-01', email: null },
    })
    expect(item._id).toMatch(/^[0-9a-f]{24}$/)
    res = await call(`/v2/topics/news/subscriptions?subscriberId=m-07`)
    expect(res.json.data.map((s: any) => s.subscriber.subscriberId)).toEqual(['m-07'])
    expect(res.json.totalCount).toBe(1)
    res = await call(`/v2/topics/news/subscriptions?subscriberId=${TEST_SUBSCRIBER_ID}`)
    expect(res.json).toMatchObject({ data: [], totalCount: 0 })
    expect((await call('/v2/topics/empty/subscriptions')).json).toMatchObject({ data: [], totalCount: 0, next: null })
  })

  it('caps totalCount at 50,000 with 60,000 subscriptions', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    generateSubscriptions(service, { topicKey: 'huge', count: 60_000 })
    generateSubscriptions(service, { topicKey: 'exact', count: 50_000 })
    let res = await call('/v2/topics/huge/subscriptions?limit=100')
    expect(res.json).toMatchObject({ totalCount: 50_000, totalCountCapped: true })
    expect(res.json.data).toHaveLength(100)
    expect(res.json.data[0].subscriber.subscriberId).toBe('huge-member-59999')
    res = await call(`/v2/topics/huge/subscriptions?limit=2&orderDirection=ASC&after=${res.json.data[99]._id}`)
    expect(res.json.data.map((s: any) => s.subscriber.subscriberId)).toEqual(['huge-member-59901', 'huge-member-59902'])
    res = await call('/v2/topics/exact/subscriptions?limit=1')
    expect(res.json).toMatchObject({ totalCount: 50_000, totalCountCapped: false })
  })

  it('answers 400 for after+before, 422 naming bad parameters, 404 for an unknown topic', async () => {
    const { call } = rawService({ fixture: fixture() })
    const id = 'a'.repeat(24)
    let res = await call(`/v2/topics/news/subscriptions?after=${id}&before=${id}`)
    expect(res.status).toBe(400)
    res = await call(
      '/v2/topics/news/subscriptions?after=nope&limit=500&orderDirection=up&orderBy=name&includeCursor=1',
    )
    expect(res.status).toBe(422)
    expect(Object.keys(res.json.errors).sort()).toEqual([
      'after',
      'includeCursor',
      'limit',
      'orderBy',
      'orderDirection',
    ])
    expect((await call('/v2/topics/missing/subscriptions')).status).toBe(404)
  })
})

describe('GET /v2/subscribers/{id}/subscriptions', () => {
  it('lists a subscriber’s topics with cursors, filters by key, has no totalCount', async () => {
    const { call } = rawService({ fixture: fixture() })
    const base = `/v2/subscribers/${TEST_SUBSCRIBER_ID}/subscriptions`
    const { forward } = await walk(call, base, 'ASC', 2)
    expect(forward).toHaveLength(3)
    let res = await call(`${base}?orderDirection=ASC`)
    expect(res.json.data.map((s: any) => s.topic.key)).toEqual(['ops', 'design', 'sales'])
    expect('totalCount' in res.json).toBe(false)
    res = await call(`${base}?key=design`)
    expect(res.json.data.map((s: any) => s.topic.key)).toEqual(['design'])
    expect((await call(`${base}?key=news`)).json.data).toEqual([])
    expect((await call('/v2/subscribers/nobody/subscriptions')).status).toBe(404)
    expect((await call(`${base}?before=zz`)).status).toBe(422)
  })
})
