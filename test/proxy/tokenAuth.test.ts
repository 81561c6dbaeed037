import { describe, expect, it } from 'vitest'
import { createInboxClient, createTokenAuth } from '../../src/client'
import { bearerTokenAuth, createSubscriberToken } from '../../src/proxy'
import { APP, BASE_PATH, SECRET as PROXY_SECRET, startProxy } from './harness'

const SECRET = 'a-test-secret-that-is-long-enough-for-hmac'
const T0 = Date.parse('2026-03-01T10:00:00.000Z')

/** A clock the test moves by hand, shared by the "server" that issues tokens and the "browser". */
function clock(start = T0) {
  let t = start
  return { now: () => t, advance: (ms: number) => (t += ms) }
}

describe('createTokenAuth', () => {
  it('sends the token as a Bearer header and fetches it once for concurrent callers', async () => {
    const c = clock()
    let fetched = 0
    const auth = createTokenAuth({
      now: c.now,
      fetchToken: async () => {
        fetched++
        await new Promise((r) => setTimeout(r, 5))
        return createSubscriberToken('user-1', SECRET, { expiresIn: 600, now: c.now })
      },
    })
    const headers = await Promise.all(Array.from({ length: 20 }, () => auth.getHeaders()))
    expect(fetched).toBe(1)
    expect(new Set(headers.map((h) => h.Authorization)).size).toBe(1)
    expect(headers[0]!.Authorization).toMatch(/^Bearer [\w-]+\.[\w-]+$/)
  })

  it('fetches a new token once inside the refresh margin, before the old one expires', async () => {
    const c = clock()
    const issued: string[] = []
    const auth = createTokenAuth({
      now: c.now,
      refreshMargin: 30_000,
      fetchToken: async () => {
        const token = await createSubscriberToken('user-1', SECRET, { expiresIn: 120, now: c.now })
        issued.push(token)
        return token
      },
    })
    expect(await auth.getToken()).toBe(issued[0])
    c.advance(89_000)
    expect(await auth.getToken()).toBe(issued[0])
    expect(issued).toHaveLength(1)
    c.advance(1_000) // 30 s before expiry
    expect(await auth.getToken()).toBe(issued[1])
    expect(issued).toHaveLength(2)
  })

  it('measures the lifetime on its own clock, so a browser clock hours off still refreshes in time', async () => {
    const server = clock(T0 + 3 * 3_600_000)
    const browser = clock(T0)
    let fetched = 0
    const auth = createTokenAuth({
      now: browser.now,
      refreshMargin: 10_000,
      fetchToken: () => {
        fetched++
        return createSubscriberToken('user-1', SECRET, { expiresIn: 60, now: server.now })
      },
    })
    await auth.getToken()
    browser.advance(49_000)
    server.advance(49_000)
    await auth.getToken()
    expect(fetched).toBe(1)
    browser.advance(1_000)
    server.advance(1_000)
    await auth.getToken()
    expect(fetched).toBe(2)
  })

  it('never refreshes on every call when the token lives shorter than the margin', async () => {
    const c = clock()
    let fetched = 0
    const auth = createTokenAuth({
      now: c.now,
      refreshMargin: 60_000,
      fetchToken: () => {
        fetched++
        return createSubscriberToken('user-1', SECRET, { expiresIn: 10, now: c.now })
      },
    })
    await auth.getToken()
    await auth.getToken()
    c.advance(4_000)
    await auth.getToken()
    expect(fetched).toBe(1)
    c.advance(1_000)
    await auth.getToken()
    expect(fetched).toBe(2)
  })

  it('keeps using a still-valid token when an early refresh fails, and fails once it has expired', async () => {
    const c = clock()
    let fail = false
    const auth = createTokenAuth({
      now: c.now,
      refreshMargin: 30_000,
      fetchToken: async () => {
        if (fail) throw new Error('token endpoint down')
        return createSubscriberToken('user-1', SECRET, { expiresIn: 60, now: c.now })
      },
    })
    const first = await auth.getToken()
    fail = true
    c.advance(40_000)
    expect(await auth.getToken()).toBe(first)
    c.advance(20_000)
    await expect(auth.getToken()).rejects.toThrow('token endpoint down')
    fail = false
    expect(await auth.getToken()).not.toBe(first)
  })

  it('uses expiresAt for tokens it cannot read, and keeps opaque tokens until invalidated', async () => {
    const c = clock()
    let n = 0
    const withExpiry = createTokenAuth({
      now: c.now,
      refreshMargin: 1_000,
      fetchToken: async () => ({ token: `opaque-${++n}`, expiresAt: c.now() + 10_000 }),
    })
    expect(await withExpiry.getToken()).toBe('opaque-1')
    c.advance(9_500)
    expect(await withExpiry.getToken()).toBe('opaque-2')

    const opaque = createTokenAuth({ now: c.now, fetchToken: async () => `plain-${++n}` })
    const token = await opaque.getToken()
    c.advance(365 * 86_400_000)
    expect(await opaque.getToken()).toBe(token)
    opaque.invalidate()
    expect(await opaque.getToken()).not.toBe(token)
  })

  it('does not bring back a token fetched before invalidate() (a sign-out)', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    let n = 0
    const auth = createTokenAuth({
      fetchToken: async () => {
        const mine = ++n
        if (mine === 1) await gate
        return `token-${mine}`
      },
    })
    const stale = auth.getToken()
    auth.invalidate()
    const fresh = auth.getToken()
    release()
    expect(await stale).toBe('token-1')
    expect(await fresh).toBe('token-2')
    expect(await auth.getToken()).toBe('token-2')
  })

  it('rejects when fetchToken resolves with no token', async () => {
    const auth = createTokenAuth({ fetchToken: async () => '' })
    await expect(auth.getHeaders()).rejects.toThrow(TypeError)
  })
})

describe('createTokenAuth with the proxy', () => {
  it('keeps a client working for hours of short-lived tokens without one request refused', async () => {
    // The server's clock runs 40 s ahead of the browser's.
    const browser = clock()
    const server = { now: () => browser.now() + 40_000 }
    const { proxy } = startProxy({ authenticate: bearerTokenAuth(PROXY_SECRET, server) })
    let issued = 0
    const auth = createTokenAuth({
      now: browser.now,
      refreshMargin: 20_000,
      fetchToken: () => {
        issued++
        return createSubscriberToken('user-1', PROXY_SECRET, { expiresIn: 120, now: server.now })
      },
    })
    const statuses: number[] = []
    const client = createInboxClient({
      baseUrl: APP + BASE_PATH,
      getHeaders: auth.getHeaders,
      retry: false,
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        const response = await proxy(new Request(input, init))
        statuses.push(response.status)
        return response
      }) as typeof fetch,
    })
    for (let minute = 0; minute < 180; minute++) {
      await client.getFeed('user-1', { limit: 1 })
      browser.advance(7_000)
      await client.getPreferences('user-1')
      browser.advance(53_000)
    }
    expect(statuses).toHaveLength(360)
    expect(statuses.every((s) => s === 200)).toBe(true)
    // A token lives 120 s and is replaced 20 s early: one per 100 s, give or take the request spacing.
    expect(issued).toBeGreaterThanOrEqual(90)
    expect(issued).toBeLessThanOrEqual(182)
  })
})
