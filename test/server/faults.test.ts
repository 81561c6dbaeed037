import { describe, expect, it } from 'vitest'
import { TEST_SUBSCRIBER_ID } from '../support/fixtures'
import { rawService } from './helpers'

const FEED = `/v1/subscribers/${TEST_SUBSCRIBER_ID}/notifications/feed`

describe('fault injection', () => {
  it('forces a status, a malformed body, a wrong-shape body and a dropped connection on matching requests', async () => {
    const { call, service, fetch } = rawService()
    const remove = service.faults.add({ path: FEED, status: 500 })
    let res = await call(FEED)
    expect(res.status).toBe(500)
    expect(res.json.errorId).toBeTypeOf('string')
    expect((await call('/v1/integrations/active')).status).toBe(200)
    remove()
    expect((await call(FEED)).status).toBe(200)

    service.faults.add({ path: /notifications\/feed$/, malformed: true, times: 1 })
    res = await call(FEED)
    expect(res.status).toBe(200)
    expect(res.json).toBeUndefined()
    expect((await call(FEED)).json.data).toEqual([])

    service.faults.add({ method: 'GET', body: { data: 'nope' }, times: 2 })
    expect((await call(FEED)).json).toEqual({ data: 'nope' })
    expect((await call('/v1/integrations/active')).json).toEqual({ data: 'nope' })
    expect((await call('/v1/integrations/active')).status).toBe(200)

    service.faults.add({ status: 502, times: 1 })
    res = await call('/v1/events/trigger', {
      body: { name: 'test-workflow', to: TEST_SUBSCRIBER_ID },
      headers: { 'idempotency-key': 'k1' },
    })
    expect(res.status).toBe(502)
    expect(res.headers.get('idempotency-key')).toBe('k1')

    service.faults.add({ drop: true, times: 1 })
    await expect(fetch(FEED, { headers: { authorization: 'ApiKey test-key' } })).rejects.toThrow(
      new TypeError('fetch failed'),
    )
    service.faults.clear()
    expect((await call(FEED)).status).toBe(200)
  })

  it('applies a rule at its rate and adds latency that an abort cuts short', async () => {
    const { call, service, fetch } = rawService()
    service.faults.add({ status: 503, rate: 0 })
    for (let i = 0; i < 5; i++) expect((await call(FEED)).status).toBe(200)
    service.faults.clear()
    service.faults.add({ latency: 5_000 })
    const controller = new AbortController()
    const pending = fetch(FEED, { headers: { authorization: 'ApiKey test-key' }, signal: controller.signal })
    setTimeout(() => controller.abort(), 10)
    await expect(pending).rejects.toThrow(/abort/i)
  })
})
