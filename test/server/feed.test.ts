import { describe, expect, it } from 'vitest'
import { generateMessages } from '../../server'
import { TEST_SUBSCRIBER_ID, buildFixture, messages, subscriber } from '../support/fixtures'
import { encodePayload, rawService } from './helpers'

const FEED = `/v1/subscribers/${TEST_SUBSCRIBER_ID}/notifications/feed`

function fixtureWith(count: number) {
  return buildFixture({
    subscribers: [subscriber('user-2')],
    messages: [
      ...messages(TEST_SUBSCRIBER_ID, count, (i) => ({
        read: i % 3 === 0,
        seen: i % 3 === 0 || i % 2 === 0,
        payload: { index: i, team: i % 2 === 0 ? 'even' : 'odd', nested: { city: i % 4 === 0 ? 'Zürich' : 'القاهرة' } },
      })),
      ...messages('user-2', 5),
    ],
  })
}

async function allPages(call: ReturnType<typeof rawService>['call'], query: string, limit: number) {
  const ids: string[] = []
  const created: string[] = []
  for (let page = 0; ; page++) {
    const { status, json } = await call(`${FEED}?page=${page}&limit=${limit}${query}`)
    expect(status).toBe(200)
    expect(json.page).toBe(page)
    expect(json.pageSize).toBe(json.data.length)
    expect(json.data.length).toBeLessThanOrEqual(limit)
    for (const item of json.data) {
      ids.push(item._id)
      created.push(item.createdAt)
    }
    const remaining = json.totalCount - (page + 1) * limit
    expect(json.hasMore).toBe(remaining > 0)
    if (!json.hasMore) return { ids, created, total: json.totalCount as number }
  }
}

describe('GET /v1/subscribers/{id}/notifications/feed', () => {
  it('pages 0..n cover every in_app message once, newest first, with exact hasMore', async () => {
    const { call } = rawService({ fixture: fixtureWith(47) })
    for (const limit of [1, 7, 10, 47, 100]) {
      const { ids, created, total } = await allPages(call, '', limit)
      expect(total).toBe(47)
      expect(new Set(ids).size).toBe(47)
      expect([...created].sort().reverse()).toEqual(created)
    }
  })

  it('filters by read and seen, each page of a filter agreeing with the totals', async () => {
    const { call } = rawService({ fixture: fixtureWith(47) })
    const expected = (read?: boolean, seen?: boolean) =>
      Array.from({ length: 47 }, (_, i) => i).filter((i) => {
        const r = i % 3 === 0
        const s = r || i % 2 === 0
        return (read === undefined || r === read) && (seen === undefined || s === seen)
      }).length
    for (const [read, seen] of [
      [false, undefined],
      [true, undefined],
      [undefined, false],
      [undefined, true],
      [false, false],
      [false, true],
      [true, true],
    ] as const) {
      const query = (read === undefined ? '' : `&read=${read}`) + (seen === undefined ? '' : `&seen=${seen}`)
      const { ids, total } = await allPages(call, query, 4)
      expect(total).toBe(expected(read, seen))
      expect(new Set(ids).size).toBe(total)
      const { json } = await call(`${FEED}?limit=100${query}`)
      for (const item of json.data) {
        if (read !== undefined) expect(item.read).toBe(read)
        if (seen !== undefined) expect(item.seen).toBe(seen)
      }
    }
  })

  it('filters by a payload subset, Unicode included', async () => {
    const { call } = rawService({ fixture: fixtureWith(20) })
    let res = await call(
      `${FEED}?limit=100&payload=${encodeURIComponent(encodePayload({ nested: { city: 'القاهرة' } }))}`,
    )
    expect(res.status).toBe(200)
    expect(res.json.totalCount).toBe(15)
    expect(res.json.data.every((d: any) => d.payload.nested.city === 'القاهرة')).toBe(true)
    res = await call(
      `${FEED}?limit=2&page=1&payload=${encodeURIComponent(encodePayload({ team: 'even', nested: { city: 'Zürich' } }))}`,
    )
    expect(res.json.totalCount).toBe(5)
    expect(res.json.data.map((d: any) => d.payload.index)).toEqual([8, 12])
    expect(res.json.hasMore).toBe(true)
    res = await call(`${FEED}?payload=${encodePayload({ team: 'none' })}`)
    expect(res.json).toMatchObject({ totalCount: 0, hasMore: false, data: [], pageSize: 0 })
  })

  it('matches keys named like Object.prototype members only where the payload has them as its own', async () => {
    const fixture = buildFixture({
      messages: [
        ...messages(TEST_SUBSCRIBER_ID, 3, (i) => ({ payload: { i } })),
        {
          ...messages(TEST_SUBSCRIBER_ID, 1)[0]!,
          content: 'own',
          payload: JSON.parse('{"__proto__":{"x":1},"constructor":{},"toString":"t"}'),
        },
      ],
    })
    const { call } = rawService({ fixture })
    const search = async (filter: string) => {
      const res = await call(`${FEED}?limit=100&payload=${encodeURIComponent(btoa(filter))}`)
      expect(res.status).toBe(200)
      return res.json.data.map((m: { content: string }) => m.content)
    }
    expect(await search('{"__proto__":{}}')).toEqual(['own'])
    expect(await search('{"__proto__":{"x":1}}')).toEqual(['own'])
    expect(await search('{"__proto__":{"x":2}}')).toEqual([])
    expect(await search('{"constructor":{}}')).toEqual(['own'])
    expect(await search('{"toString":"t"}')).toEqual(['own'])
    expect(await search('{"hasOwnProperty":{}}')).toEqual([])
    expect(await search('{"i":{"__proto__":{}}}')).toEqual([])
  })

  it('leaves totalCount out of every page when created with totalCount: false', async () => {
    const { call } = rawService({ fixture: fixtureWith(12), totalCount: false })
    const { json } = await call(FEED)
    expect(json).toMatchObject({ page: 0, pageSize: 10, hasMore: true })
    expect(json).not.toHaveProperty('totalCount')
    const filtered = await call(`${FEED}?read=false&payload=${encodeURIComponent(encodePayload({ team: 'even' }))}`)
    expect(filtered.json).not.toHaveProperty('totalCount')
    expect(filtered.json.data.length).toBeGreaterThan(0)
  })

  it('returns the feed item shape with the subscriber and only in_app messages', async () => {
    const fixture = fixtureWith(3)
    fixture.messages!.push({
      subscriberId: TEST_SUBSCRIBER_ID,
      workflow: 'test-workflow',
      channel: 'email',
      createdAt: '2026-02-01T00:00:00.000Z',
      content: 'mail',
    })
    const { call } = rawService({ fixture })
    const { json } = await call(FEED)
    expect(json.totalCount).toBe(3)
    const item = json.data[0]
    expect(item).toMatchObject({
      channel: 'in_app',
      content: 'Message 0',
      status: 'sent',
      subscriber: { subscriberId: TEST_SUBSCRIBER_ID, firstName: 'Ada' },
    })
    for (const key of [
      '_id',
      '_templateId',
      '_environmentId',
      '_messageTemplateId',
      '_organizationId',
      '_notificationId',
      '_subscriberId',
      '_jobId',
      'transactionId',
    ])
      expect(typeof item[key]).toBe('string')
    expect(item._id).toMatch(/^[0-9a-f]{24}$/)
    expect(item.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(item.subscriber._id).not.toBe(TEST_SUBSCRIBER_ID)
  })

  it('defaults to page 0 and limit 10', async () => {
    const { call } = rawService({ fixture: fixtureWith(12) })
    const { json } = await call(FEED)
    expect(json).toMatchObject({ page: 0, pageSize: 10, hasMore: true, totalCount: 12 })
  })

  it('answers 422 naming each bad parameter, 400 for a bad payload, 404 for an unknown subscriber', async () => {
    const { call } = rawService({ fixture: fixtureWith(3) })
    let res = await call(`${FEED}?limit=101&page=-1&read=yes&seen=1`)
    expect(res.status).toBe(422)
    expect(res.json.message).toBe('Validation Error')
    expect(Object.keys(res.json.errors).sort()).toEqual(['limit', 'page', 'read', 'seen'])
    expect((await call(`${FEED}?limit=0`)).status).toBe(422)
    expect((await call(`${FEED}?limit=abc`)).json.errors.limit.value).toBe('abc')
    // Decimal digits only.
    for (const bad of ['limit=0x10', 'limit=1e1', 'page=0b1', 'limit=%205', 'limit=5.0', 'page=+1'])
      expect(Object.keys((await call(`${FEED}?${bad}`)).json.errors ?? {})).toEqual([bad.split('=')[0]])
    for (const bad of ['%%%', btoa('not json'), btoa('[1,2]'), btoa('"text"')]) {
      res = await call(`${FEED}?payload=${encodeURIComponent(bad)}`)
      expect(res.status).toBe(400)
      expect(res.json.statusCode).toBe(400)
    }
    res = await call('/v1/subscribers/nobody/notifications/feed')
    expect(res.status).toBe(404)
    expect(res.json).toMatchObject({
      statusCode: 404,
      error: 'Not Found',
      path: '/v1/subscribers/nobody/notifications/feed',
    })
  })

  it('pages a generated feed of 5,000 messages deep and filtered', async () => {
    const { call, service } = rawService()
    generateMessages(service, { subscriberId: 'big', count: 5000, read: (i) => i % 4 === 0 })
    let res = await call('/v1/subscribers/big/notifications/feed?page=499&limit=10')
    expect(res.json.data.map((d: any) => d.content)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Message ${4990 + i}`),
    )
    expect(res.json.hasMore).toBe(false)
    res = await call('/v1/subscribers/big/notifications/feed?page=10&limit=100&read=false')
    expect(res.json.totalCount).toBe(3750)
    expect(res.json.data[0].content).toBe(`Message ${Math.floor((1000 * 4) / 3) + 1}`)
    expect(res.json.data.every((d: any) => !d.read)).toBe(true)
  })
})
