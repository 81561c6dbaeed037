import { describe, expect, it, vi } from 'vitest'
import { TEST_SUBSCRIBER_ID, buildFixture, integration, messages } from '../support/fixtures'
import { rawService } from './helpers'

const FEED = `/v1/subscribers/${TEST_SUBSCRIBER_ID}/notifications/feed`
const MARK = `/v1/subscribers/${TEST_SUBSCRIBER_ID}/messages/mark-as`

describe('authentication', () => {
  it('answers 401 with the documented messages', async () => {
    const { call } = rawService()
    const cases: [Record<string, string>, string][] = [
      [{}, 'Missing authorization header'],
      [{ authorization: 'Bearer test-key' }, 'Invalid authentication scheme'],
      [{ authorization: 'ApiKey wrong' }, 'API Key not found'],
      [{ authorization: 'ApiKey' }, 'API Key not found'],
    ]
    for (const [headers, message] of cases) {
      const res = await call(FEED, { apiKey: null, headers })
      expect(res.status).toBe(401)
      expect(res.json).toMatchObject({ statusCode: 401, message, error: 'Unauthorized', path: FEED })
      expect(res.json.timestamp).toMatch(/Z$/)
    }
    expect((await call(FEED)).status).toBe(200)
  })

  it('selects the environment by key', async () => {
    const fixture = buildFixture({
      apiKeys: [
        { key: 'a', organizationId: 'o', environmentId: 'one' },
        { key: 'b', organizationId: 'o', environmentId: 'two' },
      ],
    })
    const { call } = rawService({ fixture })
    expect((await call(FEED, { apiKey: 'a' })).status).toBe(200)
    expect((await call(FEED, { apiKey: 'b' })).status).toBe(404)
  })
})

describe('errors', () => {
  it('answers unknown routes and methods with Cannot METHOD /path', async () => {
    const { call } = rawService()
    let res = await call('/v1/unknown?x=1', { apiKey: null })
    expect(res.status).toBe(404)
    expect(res.json.message).toBe('Cannot GET /v1/unknown')
    res = await call(FEED, { method: 'DELETE' })
    expect(res.json.message).toBe(`Cannot DELETE ${FEED}`)
  })

  it('answers HEAD as GET, without the body', async () => {
    const { service } = rawService()
    const head = (path: string, auth = true) =>
      service.fetch(
        new Request(`http://service.test${path}`, {
          method: 'HEAD',
          headers: auth ? { authorization: `ApiKey ${service.apiKey}` } : {},
        }),
      )
    let res = await head(FEED)
    expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([
      200,
      'application/json; charset=utf-8',
      '',
    ])
    res = await head(FEED, false)
    expect([res.status, await res.text()]).toEqual([401, ''])
    expect((await head('/v1/events/trigger')).status).toBe(404)
  })

  it('answers 400 for malformed JSON and non-object bodies, 415 for another content type, never 500', async () => {
    const { call } = rawService()
    const bodies = ['{"messageId":', 'null', '[1,2]', '"x"', '\u0000', '{"a":1}}']
    for (const path of [MARK, '/v1/events/trigger', '/v1/events/trigger/bulk']) {
      for (const rawBody of bodies) {
        const res = await call(path, { rawBody })
        expect([400, 422]).toContain(res.status)
        expect(res.json.statusCode).toBe(res.status)
      }
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const res = await call(path, { rawBody: 'messageId=1&markAs=read', headers: { 'content-type': type } })
        expect(res.status).toBe(415)
      }
      const empty = await call(path, { method: 'POST' })
      expect(empty.status).toBe(422)
    }
    const patch = await call(`/v2/subscribers/${TEST_SUBSCRIBER_ID}/preferences`, { method: 'PATCH', rawBody: '{' })
    expect(patch.status).toBe(400)
  })

  it('answers 413 above 100 KB outside /v1/events and above 1 MB on triggers', async () => {
    const { call } = rawService()
    const big = (size: number) => JSON.stringify({ messageId: 'x'.repeat(size), markAs: 'read' })
    expect((await call(MARK, { rawBody: big(101 * 1024) })).status).toBe(413)
    expect((await call(MARK, { rawBody: big(90 * 1024) })).status).toBe(201)
    const trigger = (size: number) =>
      JSON.stringify({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID, payload: { blob: 'x'.repeat(size) } })
    expect((await call('/v1/events/trigger', { rawBody: trigger(500 * 1024) })).status).toBe(201)
    const res = await call('/v1/events/trigger', { rawBody: trigger(1100 * 1024) })
    expect(res.status).toBe(413)
    expect(res.json.error).toBe('Payload Too Large')
  })

  it('answers an unexpected failure with 500 and an errorId, without a stack', async () => {
    const { call, service } = rawService()
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    ;(service.state as unknown as { env: () => never }).env = () => {
      throw new Error('secret detail')
    }
    const res = await call(FEED)
    spy.mockRestore()
    expect(res.status).toBe(500)
    expect(res.json).toMatchObject({
      statusCode: 500,
      message: 'Internal server error',
      error: 'Internal Server Error',
    })
    expect(res.json.errorId).toMatch(/^[0-9a-f-]{36}$/)
    expect(res.text).not.toMatch(/secret|at |\.ts/)
  })
})

describe('envelope mode and basePath', () => {
  it('wraps non-paginated bodies as {data} and leaves paginated ones bare', async () => {
    const fixture = buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 2) })
    const { call, service } = rawService({ fixture, envelope: true })
    const feed = await call(FEED)
    expect(Object.keys(feed.json).sort()).toEqual(['data', 'hasMore', 'page', 'pageSize', 'totalCount'])
    const messageId = service.state.messages(TEST_SUBSCRIBER_ID)[0]!._id
    const mark = await call(MARK, { body: { messageId, markAs: 'read' } })
    expect(mark.json.data[0]._id).toBe(messageId)
    expect((await call('/v1/integrations/active')).json).toEqual({ data: [] })
    expect((await call(`/v2/subscribers/${TEST_SUBSCRIBER_ID}/preferences`)).json.data.global.enabled).toBe(true)
    const trigger = await call('/v1/events/trigger', { body: { name: 'test-workflow', to: TEST_SUBSCRIBER_ID } })
    expect(trigger.json.data.status).toBe('processed')
    const bulk = await call('/v1/events/trigger/bulk', {
      body: { events: [{ name: 'test-workflow', to: TEST_SUBSCRIBER_ID }] },
    })
    expect(bulk.json.data).toHaveLength(1)
    expect((await call('/v1/nope')).json.data).toBeUndefined()
    const { call: callWithEmail, service: withEmail } = rawService({
      fixture: buildFixture({ integrations: [integration('email', 'mail')] }),
      envelope: true,
    })
    const id = withEmail.state.integrations()[0]!._id
    const primary = await callWithEmail(`/v1/integrations/${id}/set-primary`, { method: 'POST' })
    expect(primary.json.data).toMatchObject({ _id: id, primary: true })
    const topics = await callWithEmail(`/v2/subscribers/${TEST_SUBSCRIBER_ID}/subscriptions`)
    expect(topics.json).toEqual({ data: [], next: null, previous: null })
  })

  it('serves under a basePath and 404s outside it', async () => {
    const { call, service } = rawService({ basePath: '/api/' })
    expect((await call(FEED)).status).toBe(200)
    const outside = await service.fetch(
      new Request(`http://inbox.test${FEED}`, { headers: { authorization: 'ApiKey test-key' } }),
    )
    expect(outside.status).toBe(404)
  })

  it('answers CORS preflight and exposes its headers', async () => {
    const { service } = rawService()
    const res = await service.fetch(new Request(`http://inbox.test${MARK}`, { method: 'OPTIONS' }))
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-headers')).toMatch(/Idempotency-Key/)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
  })
})
