import { describe, expect, it } from 'vitest'
import { TEST_SUBSCRIBER_ID, buildFixture } from '../support/fixtures'
import { idempotencyUsage } from '../../server/service'
import { rawService } from './helpers'

const TRIGGER = { name: 'test-workflow', to: TEST_SUBSCRIBER_ID }

describe('Idempotency-Key', () => {
  it('replays a completed request with the same status and body and does not run it again', async () => {
    const { call, service } = rawService()
    const headers = { 'idempotency-key': 'key-1' }
    const first = await call('/v1/events/trigger', { body: TRIGGER, headers })
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotency-key')).toBe('key-1')
    expect(first.headers.get('idempotency-replay')).toBeNull()
    const again = await call('/v1/events/trigger', { body: TRIGGER, headers })
    expect(again.status).toBe(201)
    expect(again.text).toBe(first.text)
    expect(again.headers.get('idempotency-replay')).toBe('true')
    expect(again.headers.get('idempotency-key')).toBe('key-1')
    expect(service.state.messages(TEST_SUBSCRIBER_ID)).toHaveLength(1)
    // Errors other than 5xx are kept too.
    const bad = await call('/v1/events/trigger', {
      body: { name: 'nope', to: 'x' },
      headers: { 'idempotency-key': 'key-2' },
    })
    const badAgain = await call('/v1/events/trigger', {
      body: { name: 'nope', to: 'x' },
      headers: { 'idempotency-key': 'key-2' },
    })
    expect([bad.status, badAgain.status, badAgain.headers.get('idempotency-replay')]).toEqual([422, 422, 'true'])
  })

  it('answers 409 with Retry-After while the first is running', async () => {
    const { call, service } = rawService()
    // The first holds its key for a second: the second comes once the key is taken, well within that.
    service.faults.add({ path: '/v1/events/trigger', latency: 1000, times: 1 })
    const headers = { 'idempotency-key': 'slow' }
    const first = call('/v1/events/trigger', { body: TRIGGER, headers })
    await expect.poll(() => idempotencyUsage(service).entries, { interval: 5 }).toBe(1)
    const second = await call('/v1/events/trigger', { body: TRIGGER, headers })
    expect(second.status).toBe(409)
    expect(second.headers.get('retry-after')).toBe('1')
    expect(second.headers.get('idempotency-key')).toBe('slow')
    expect((await first).status).toBe(201)
    const third = await call('/v1/events/trigger', { body: TRIGGER, headers })
    expect(third.headers.get('idempotency-replay')).toBe('true')
  })

  it('answers 422 for the same key with another body, 400 for a key over 255 characters', async () => {
    const { call } = rawService()
    await call('/v1/events/trigger', { body: TRIGGER, headers: { 'idempotency-key': 'k' } })
    const other = await call('/v1/events/trigger', {
      body: { ...TRIGGER, payload: { a: 1 } },
      headers: { 'idempotency-key': 'k' },
    })
    expect(other.status).toBe(422)
    const long = await call('/v1/events/trigger', { body: TRIGGER, headers: { 'idempotency-key': 'x'.repeat(256) } })
    expect(long.status).toBe(400)
    expect(
      (await call('/v1/events/trigger', { body: TRIGGER, headers: { 'idempotency-key': 'x'.repeat(255) } })).status,
    ).toBe(201)
  })

  it('answers 422 for the same key and body with another query, not the answer to the first query', async () => {
    const { call } = rawService()
    const patch = (query: string) =>
      call(`/v2/subscribers/${TEST_SUBSCRIBER_ID}/preferences${query}`, {
        method: 'PATCH',
        body: { channels: { email: false } },
        headers: { 'idempotency-key': 'prefs' },
      })
    expect((await patch('?criticality=critical')).status).toBe(200)
    const again = await patch('?criticality=critical')
    expect([again.status, again.headers.get('idempotency-replay')]).toEqual([200, 'true'])
    const other = await patch('?criticality=all')
    expect(other.status).toBe(422)
    expect(other.json.message).toMatch(/Idempotency-Key/)
  })

  it('is scoped per API key, ignored on GET, and forgotten after 24 hours', async () => {
    let now = Date.parse('2026-05-01T00:00:00.000Z')
    const fixture = buildFixture({
      apiKeys: [
        { key: 'a', organizationId: 'o', environmentId: 'e' },
        { key: 'b', organizationId: 'o', environmentId: 'e' },
      ],
    })
    const { call, service } = rawService({ fixture, now: () => now })
    const headers = { 'idempotency-key': 'same' }
    await call('/v1/events/trigger', { body: TRIGGER, headers, apiKey: 'a' })
    const b = await call('/v1/events/trigger', { body: TRIGGER, headers, apiKey: 'b' })
    expect(b.headers.get('idempotency-replay')).toBeNull()
    expect(service.state.messages(TEST_SUBSCRIBER_ID)).toHaveLength(2)
    const get = await call(`/v1/subscribers/${TEST_SUBSCRIBER_ID}/notifications/feed`, { headers, apiKey: 'a' })
    expect(get.status).toBe(200)
    expect(get.headers.get('idempotency-replay')).toBeNull()
    now += 24 * 3_600_000 - 1
    expect(
      (await call('/v1/events/trigger', { body: TRIGGER, headers, apiKey: 'a' })).headers.get('idempotency-replay'),
    ).toBe('true')
    now += 2
    expect(
      (await call('/v1/events/trigger', { body: TRIGGER, headers, apiKey: 'a' })).headers.get('idempotency-replay'),
    ).toBeNull()
    expect(service.state.messages(TEST_SUBSCRIBER_ID)).toHaveLength(3)
  })

  it('does not keep injected 5xx answers, so a retry with the key runs', async () => {
    const { call, service } = rawService()
    service.faults.add({ path: '/v1/events/trigger', status: 503, times: 1 })
    const headers = { 'idempotency-key': 'retry-me' }
    expect((await call('/v1/events/trigger', { body: TRIGGER, headers })).status).toBe(503)
    const retry = await call('/v1/events/trigger', { body: TRIGGER, headers })
    expect(retry.status).toBe(201)
    expect(retry.headers.get('idempotency-replay')).toBeNull()
  })
})

describe('Idempotency-Key edge cases and bounds', () => {
  it('answers 400 naming the header for an empty or blank key, running nothing', async () => {
    const { call, service } = rawService()
    for (const key of ['', ' ', '\t  ']) {
      const res = await call('/v1/events/trigger', { body: TRIGGER, headers: { 'idempotency-key': key } })
      expect(res.status).toBe(400)
      expect(res.json.message).toMatch(/^Idempotency-Key /)
    }
    expect(service.state.messages(TEST_SUBSCRIBER_ID)).toHaveLength(0)
    expect(idempotencyUsage(service).entries).toBe(0)
  })

  it('holds at most maxEntries answers and maxBytes under a stream of fresh keys, forgetting the oldest first', async () => {
    const maxEntries = 50
    const maxBytes = 64 * 1024
    const { call, service } = rawService({ idempotency: { maxEntries, maxBytes } })
    const body = (i: number) => ({ ...TRIGGER, payload: { i, text: 'x'.repeat(i % 7 === 0 ? 4000 : 200) } })
    let largest = 0
    for (let i = 0; i < 400; i++) {
      expect(
        (await call('/v1/events/trigger', { body: body(i), headers: { 'idempotency-key': `fresh-${i}` } })).status,
      ).toBe(201)
      const usage = idempotencyUsage(service)
      expect(usage.entries).toBeLessThanOrEqual(maxEntries)
      expect(usage.bytes).toBeLessThanOrEqual(maxBytes)
      largest = Math.max(largest, usage.entries)
    }
    expect(largest).toBeGreaterThan(maxEntries / 2)
    // The newest answers still replay; the oldest were forgotten, so that key runs again.
    const recent = await call('/v1/events/trigger', { body: body(399), headers: { 'idempotency-key': 'fresh-399' } })
    expect(recent.headers.get('idempotency-replay')).toBe('true')
    const old = await call('/v1/events/trigger', { body: body(0), headers: { 'idempotency-key': 'fresh-0' } })
    expect(old.status).toBe(201)
    expect(old.headers.get('idempotency-replay')).toBeNull()
  })

  it('sweeps answers older than 24 hours as new ones arrive, keeping 409 and 422 while they live', async () => {
    let now = Date.parse('2026-05-01T00:00:00.000Z')
    const { call, service } = rawService({ now: () => now })
    for (let i = 0; i < 100; i++)
      await call('/v1/events/trigger', { body: TRIGGER, headers: { 'idempotency-key': `day-1-${i}` } })
    expect(idempotencyUsage(service).entries).toBe(100)
    const changed = await call('/v1/events/trigger', {
      body: { ...TRIGGER, payload: { a: 1 } },
      headers: { 'idempotency-key': 'day-1-5' },
    })
    expect(changed.status).toBe(422)
    now += 24 * 3_600_000 + 1
    await call('/v1/events/trigger', { body: TRIGGER, headers: { 'idempotency-key': 'day-2' } })
    expect(idempotencyUsage(service).entries).toBe(1)
    // A running request is never evicted: it keeps answering 409.
    const bounded = rawService({ idempotency: { maxEntries: 1 } })
    // Long enough to be running still when the others are asked, however loaded the machine.
    bounded.service.faults.add({ path: '/v1/events/trigger', latency: 1000, times: 1 })
    const first = bounded.call('/v1/events/trigger', { body: TRIGGER, headers: { 'idempotency-key': 'slow' } })
    await new Promise((resolve) => setTimeout(resolve, 10))
    await bounded.call('/v1/events/trigger', { body: TRIGGER, headers: { 'idempotency-key': 'other' } })
    expect(
      (await bounded.call('/v1/events/trigger', { body: TRIGGER, headers: { 'idempotency-key': 'slow' } })).status,
    ).toBe(409)
    expect((await first).status).toBe(201)
  })
})

describe('rate limits', () => {
  it('are off by default and, when configured, take one token per request and per bulk event', async () => {
    let now = 1_000_000
    const { call } = rawService({ rateLimit: { limit: 5, windowMs: 10_000 }, now: () => now })
    const first = await call('/v1/integrations/active')
    expect(first.headers.get('ratelimit-limit')).toBe('5')
    expect(first.headers.get('ratelimit-remaining')).toBe('4')
    const bulk = await call('/v1/events/trigger/bulk', { body: { events: [TRIGGER, TRIGGER, TRIGGER] } })
    expect(bulk.status).toBe(201)
    expect(bulk.headers.get('ratelimit-remaining')).toBe('1')
    await call('/v1/integrations/active')
    const limited = await call('/v1/integrations/active')
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    now += 2_000
    expect((await call('/v1/integrations/active')).status).toBe(200)
    const { call: free } = rawService()
    for (let i = 0; i < 20; i++)
      expect((await free('/v1/integrations/active')).headers.get('ratelimit-limit')).toBeNull()
  })

  it('answer a bulk of more than 100 events with its 422, and let a full bucket pay for a bulk above the limit', async () => {
    let now = 1_000_000
    const { call } = rawService({ rateLimit: { limit: 5, windowMs: 10_000 }, now: () => now })
    const tooMany = await call('/v1/events/trigger/bulk', { body: { events: Array(101).fill(TRIGGER) } })
    expect([tooMany.status, Object.keys(tooMany.json.errors ?? {})]).toEqual([422, ['events']])
    expect(tooMany.headers.get('ratelimit-remaining')).toBe('4')
    now += 10_000
    // Eight events against a bucket of five: refused with a Retry-After, it would be refused after it too.
    const large = await call('/v1/events/trigger/bulk', { body: { events: Array(8).fill(TRIGGER) } })
    expect(large.status).toBe(201)
    expect(large.json).toHaveLength(8)
    expect(large.headers.get('ratelimit-remaining')).toBe('0')
    const next = await call('/v1/events/trigger/bulk', { body: { events: Array(8).fill(TRIGGER) } })
    expect(next.status).toBe(429)
    now += Number(next.headers.get('retry-after')) * 1000
    expect((await call('/v1/events/trigger/bulk', { body: { events: Array(8).fill(TRIGGER) } })).status).toBe(201)
  })
})
