import { describe, expect, it } from 'vitest'
import { createMemoryRateLimitStore } from '../../src/proxy'
import type { RateLimitRule, RateLimitStore } from '../../src/proxy'
import { startProxy } from './harness'

const FEED = (id: string) => `/v1/subscribers/${id}/notifications/feed`
const T0 = Date.parse('2026-03-01T10:00:00.000Z')
const RULE: RateLimitRule = { limit: 3, windowMs: 60_000 }

describe('createMemoryRateLimitStore', () => {
  it('allows `limit` at once, then one more per windowMs / limit, and says how long to wait', () => {
    const store = createMemoryRateLimitStore()
    for (let i = 0; i < 3; i++) expect(store.take('a', 1, T0, RULE)).toEqual({ ok: true, retryAfterMs: 0 })
    expect(store.take('a', 1, T0, RULE)).toEqual({ ok: false, retryAfterMs: 20_000 })
    expect(store.take('a', 1, T0 + 5_000, RULE)).toEqual({ ok: false, retryAfterMs: 15_000 })
    expect(store.take('a', 1, T0 + 20_000, RULE).ok).toBe(true)
    expect(store.take('a', 1, T0 + 20_000, RULE).ok).toBe(false)
    // Each key has its own bucket; a refusal takes nothing.
    expect(store.take('b', 3, T0, RULE).ok).toBe(true)
    expect(store.take('b', 1, T0 + 19_999, RULE).ok).toBe(false)
    expect(store.take('b', 3, T0 + 60_000, RULE).ok).toBe(true)
    // Rounding does not eat the last request of a burst whose interval is not a whole number.
    const odd = { limit: 7, windowMs: 1_000 }
    for (let i = 0; i < 7; i++) expect(store.take('c', 1, T0, odd).ok).toBe(true)
    expect(store.take('c', 1, T0, odd).ok).toBe(false)
  })

  it('holds at most maxKeys buckets, however many subscribers come, and keeps the recently active ones', () => {
    const store = createMemoryRateLimitStore({ maxKeys: 1_000 })
    const hourly = { limit: 3, windowMs: 3_600_000 }
    for (let i = 0; i < 3; i++) store.take('hot', 1, T0, hourly)
    let largest = 0
    for (let i = 0; i < 20_000; i++) {
      store.take(`user-${i}`, 1, T0 + i, hourly)
      largest = Math.max(largest, store.size)
      // A subscriber still spending keeps their bucket while thousands of others come and go.
      if (i % 400 === 0) expect(store.take('hot', 1, T0 + i, hourly).ok).toBe(false)
    }
    // Even when more subscribers than maxKeys keep coming back, the bound holds.
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 2_000; i++) {
        store.take(`user-${i}`, 1, T0 + 60_000, hourly)
        largest = Math.max(largest, store.size)
      }
    }
    expect(largest).toBe(1_000)
  })

  it('drops buckets once they have refilled, so an idle crowd does not stay', () => {
    const store = createMemoryRateLimitStore()
    for (let i = 0; i < 5_000; i++) store.take(`user-${i}`, 1, T0, RULE)
    expect(store.size).toBe(5_000)
    store.take('one', 1, T0 + RULE.windowMs, RULE)
    store.take('one', 1, T0 + 2 * RULE.windowMs, RULE)
    expect(store.size).toBe(1)
  })

  it('refuses a maxKeys that is not a positive integer', () => {
    for (const maxKeys of [0, -1, 1.5, Number.NaN])
      expect(() => createMemoryRateLimitStore({ maxKeys })).toThrow(RangeError)
  })
})

describe('createInboxProxy: rate-limit stores', () => {
  it('asks the store (async, as a shared one would be) per subscriber, only for requests it would forward', async () => {
    const memory = createMemoryRateLimitStore()
    const asked: [string, number, RateLimitRule][] = []
    const store: RateLimitStore = {
      async take(key, cost, now, rule) {
        asked.push([key, cost, rule])
        await new Promise((resolve) => setTimeout(resolve, 1))
        return memory.take(key, cost, now, rule)
      },
    }
    // Two instances of the app sharing one store: the limit holds across both.
    const a = startProxy({ rateLimit: { ...RULE, store } })
    const b = startProxy({ rateLimit: { ...RULE, store } })
    expect((await a.call('user-1', FEED('user-1'))).status).toBe(200)
    expect((await b.call('user-1', FEED('user-1'))).status).toBe(200)
    expect((await a.call('user-1', FEED('user-1'))).status).toBe(200)
    const limited = await b.call('user-1', FEED('user-1'))
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('20')
    expect(await limited.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' })
    expect(b.forwarded).toHaveLength(1)

    expect((await a.call(null, FEED('user-1'))).status).toBe(401)
    expect((await a.call('user-1', FEED('user-2'))).status).toBe(403)
    expect((await a.call('user-1', FEED('user-1'), { method: 'DELETE' })).status).toBe(405)
    expect(asked).toHaveLength(4)
    expect(
      asked.every(
        ([key, cost, rule]) => key === 'user-1' && cost === 1 && rule.limit === 3 && rule.windowMs === 60_000,
      ),
    ).toBe(true)
  })

  it('lets requests through when the store fails, so an outage of a shared store does not take the inbox down', async () => {
    const broken: RateLimitStore = {
      take: () => Promise.reject(new Error('store unreachable')),
    }
    const { call } = startProxy({ rateLimit: { limit: 1, windowMs: 60_000, store: broken } })
    for (let i = 0; i < 3; i++) expect((await call('user-1', FEED('user-1'))).status).toBe(200)
    const throwing = startProxy({
      rateLimit: {
        limit: 1,
        windowMs: 60_000,
        store: {
          take: () => {
            throw new Error('store bug')
          },
        },
      },
    })
    expect((await throwing.call('user-1', FEED('user-1'))).status).toBe(200)
  })

  it('lets a request through when the store has not answered within a second, so a store that hangs holds nothing', async () => {
    // A shared store whose server is gone while its client queues commands: it answers neither yes nor no.
    let asked = 0
    const hanging: RateLimitStore = {
      take: () => {
        asked++
        return new Promise(() => {})
      },
    }
    const { call } = startProxy({ rateLimit: { limit: 1, windowMs: 60_000, store: hanging } })
    const started = performance.now()
    const answers = await Promise.race([
      Promise.all([call('user-1', FEED('user-1')), call('user-1', FEED('user-1'))]),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 3_000)),
    ])
    expect(answers?.map((r) => r.status)).toEqual([200, 200])
    expect(performance.now() - started).toBeGreaterThanOrEqual(990)
    expect(asked).toBe(2)
  })

  it('refuses a rule it cannot apply', () => {
    for (const rateLimit of [
      { limit: 0, windowMs: 1_000 },
      { limit: 10, windowMs: 0 },
      { limit: Number.NaN, windowMs: 1 },
    ]) {
      expect(() => startProxy({ rateLimit })).toThrow(RangeError)
    }
  })
})
