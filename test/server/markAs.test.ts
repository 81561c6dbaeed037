import { describe, expect, it } from 'vitest'
import { TEST_SUBSCRIBER_ID, buildFixture, messages, subscriber } from '../support/fixtures'
import { MAX_LISTED_ISSUES } from '../../server/http'
import { rawService } from './helpers'

const MARK = `/v1/subscribers/${TEST_SUBSCRIBER_ID}/messages/mark-as`
const FEED = `/v1/subscribers/${TEST_SUBSCRIBER_ID}/notifications/feed?limit=100`

function setup() {
  const fixture = buildFixture({
    subscribers: [subscriber('user-2')],
    messages: [...messages(TEST_SUBSCRIBER_ID, 4, (i) => ({ read: i === 0, seen: i <= 1 })), ...messages('user-2', 2)],
  })
  const started = rawService({ fixture })
  const mine = started.service.state.messages(TEST_SUBSCRIBER_ID)
  const theirs = started.service.state.messages('user-2')
  return { ...started, mine, theirs }
}

describe('POST /v1/subscribers/{id}/messages/mark-as', () => {
  // [start read, start seen, markAs] → [read, seen]
  const table = [
    [false, false, 'read', true, true],
    [true, true, 'read', true, true],
    [false, false, 'unread', false, true],
    [true, true, 'unread', false, true],
    [false, false, 'seen', false, true],
    [true, false, 'seen', true, true],
    [false, true, 'unseen', false, false],
    [true, true, 'unseen', true, false],
  ] as const

  it.each(table)('read=%s seen=%s, mark %s → read=%s seen=%s', async (read, seen, markAs, toRead, toSeen) => {
    const fixture = buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 1, { read, seen }) })
    const { call, service } = rawService({ fixture })
    const id = service.state.messages(TEST_SUBSCRIBER_ID)[0]!._id
    const res = await call(MARK, { body: { messageId: id, markAs } })
    expect(res.status).toBe(201)
    expect(res.json).toHaveLength(1)
    expect(res.json[0]).toMatchObject({ _id: id, read: toRead, seen: toSeen, channel: 'in_app' })
    expect(res.json[0].subscriber).toMatchObject({ subscriberId: TEST_SUBSCRIBER_ID, deleted: false })
    expect(typeof res.json[0].lastSeenDate).toBe('string')
    expect(res.json[0].lastReadDate === undefined).toBe(markAs === 'seen' || markAs === 'unseen')
    // The filtered feed views follow at once.
    const unread = await call(`${FEED}&read=false`)
    expect(unread.json.data.map((d: any) => d._id)).toEqual(toRead ? [] : [id])
    const unseen = await call(`${FEED}&seen=false`)
    expect(unseen.json.data.map((d: any) => d._id)).toEqual(toSeen ? [] : [id])
    expect((await call(`${FEED}&read=${toRead}&seen=${toSeen}`)).json.totalCount).toBe(1)
  })

  it('takes an array or a comma-separated string and skips unknown and foreign ids', async () => {
    const { call, mine, theirs } = setup()
    let res = await call(MARK, {
      body: { messageId: [mine[2]!._id, theirs[0]!._id, 'ffffffffffffffffffffffff', mine[3]!._id], markAs: 'read' },
    })
    expect(res.status).toBe(201)
    expect(res.json.map((m: any) => m._id)).toEqual([mine[2]!._id, mine[3]!._id])
    res = await call(MARK, { body: { messageId: `${mine[0]!._id}, ${mine[1]!._id}`, markAs: 'unseen' } })
    expect(res.json.map((m: any) => m.seen)).toEqual([false, false])
    const other = await call('/v1/subscribers/user-2/notifications/feed?read=true')
    expect(other.json.totalCount).toBe(0)
  })

  it('answers 422 naming each bad field and 404 for an unknown subscriber', async () => {
    const { call, mine } = setup()
    let res = await call(MARK, { body: { markAs: 'done' } })
    expect(res.status).toBe(422)
    expect(res.json.message).toBe('Validation Error')
    expect(Object.keys(res.json.errors).sort()).toEqual(['markAs', 'messageId'])
    expect(res.json.errors.markAs.value).toBe('done')
    res = await call(MARK, { body: { messageId: [], markAs: 'read' } })
    expect(Object.keys(res.json.errors)).toEqual(['messageId'])
    res = await call(MARK, { body: { messageId: ['ok', 3], markAs: 'read' } })
    expect(Object.keys(res.json.errors)).toEqual(['messageId[1]'])
    res = await call(MARK, { body: { messageId: '', markAs: 'read' } })
    expect(res.status).toBe(422)
    res = await call('/v1/subscribers/nobody/messages/mark-as', { body: { messageId: mine[0]!._id, markAs: 'read' } })
    expect(res.status).toBe(404)
  })

  it('lists the first hundred bad fields of a 422 and counts the rest, so a small body cannot draw a huge answer', async () => {
    const { call } = setup()
    // 64 kB of bad ids: each named would make an answer of megabytes.
    const body = JSON.stringify({ messageId: Array(32_000).fill(0), markAs: 'read' })
    const res = await call(MARK, { rawBody: body })
    expect(res.status).toBe(422)
    const errors = res.json.errors as Record<string, { messages: string[]; value?: unknown }>
    expect(Object.keys(errors)).toHaveLength(MAX_LISTED_ISSUES + 1)
    expect(errors['messageId[0]']).toEqual({ messages: ['must be a non-empty string'], value: 0 })
    expect(errors[`messageId[${MAX_LISTED_ISSUES - 1}]`]).toBeDefined()
    expect(errors[`messageId[${MAX_LISTED_ISSUES}]`]).toBeUndefined()
    // The rest, counted under the field they belong to.
    expect(errors.messageId).toEqual({ messages: ['31900 more invalid fields not listed (a 422 lists 100)'] })
    expect(JSON.stringify(res.json).length).toBeLessThan(body.length / 4)

    // A field that is listed keeps all its messages; fields past the hundredth add none.
    const few = await call(MARK, { body: { messageId: Array(MAX_LISTED_ISSUES).fill(''), markAs: 'done' } })
    expect(Object.keys(few.json.errors)).toHaveLength(MAX_LISTED_ISSUES + 1)
    expect(few.json.errors.markAs).toEqual({ messages: ['1 more invalid field not listed (a 422 lists 100)'] })
  })
})
