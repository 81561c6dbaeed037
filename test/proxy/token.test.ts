import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bearerTokenAuth, createSubscriberToken, readSubscriberToken, verifySubscriberToken } from '../../src/proxy'
import { base64UrlDecode, base64UrlEncode } from '../../src/auth/tokenPayload'
import { path } from '../../src/api/encoding'
import { SECRET as PROXY_SECRET, startProxy } from './harness'

const SECRET = 'a-test-secret-that-is-long-enough-for-hmac'
const OTHER_SECRET = 'another-secret-that-is-long-enough-for-hmac'
const T0 = Date.parse('2026-03-01T10:00:00.000Z')
const at = (ms: number) => () => ms

describe('subscriber tokens', () => {
  it('verifies a token it issued, until it expires', async () => {
    const token = await createSubscriberToken('user-1', SECRET, { expiresIn: 600, now: at(T0) })
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
    expect(await verifySubscriberToken(token, SECRET, { now: at(T0) })).toEqual({
      subscriberId: 'user-1',
      expiresAt: T0 + 600_000,
    })
    expect(await verifySubscriberToken(token, SECRET, { now: at(T0 + 599_999) })).not.toBeNull()
    expect(await verifySubscriberToken(token, SECRET, { now: at(T0 + 600_000) })).toBeNull()
    expect(await verifySubscriberToken(token, SECRET, { now: at(T0 + 86_400_000) })).toBeNull()
  })

  it('has a payload the browser can read without the secret', async () => {
    const token = await createSubscriberToken('ユーザー/1', SECRET, { expiresIn: 60, now: at(T0) })
    expect(readSubscriberToken(token)).toEqual({ sub: 'ユーザー/1', iat: T0 / 1000, exp: T0 / 1000 + 60 })
    expect((await verifySubscriberToken(token, SECRET, { now: at(T0) }))?.subscriberId).toBe('ユーザー/1')
  })

  it('refuses a token signed with another secret', async () => {
    const token = await createSubscriberToken('user-1', OTHER_SECRET, { expiresIn: 600 })
    expect(await verifySubscriberToken(token, SECRET)).toBeNull()
  })

  it('refuses a token whose payload was changed, to another subscriber or a later expiry', async () => {
    const token = await createSubscriberToken('user-1', SECRET, { expiresIn: 60, now: at(T0) })
    const [, signature] = token.split('.')
    const forge = (payload: object) =>
      `${base64UrlEncode(new TextEncoder().encode(JSON.stringify(payload)))}.${signature}`
    expect(
      await verifySubscriberToken(forge({ sub: 'user-2', iat: T0 / 1000, exp: T0 / 1000 + 60 }), SECRET, {
        now: at(T0),
      }),
    ).toBeNull()
    expect(
      await verifySubscriberToken(forge({ sub: 'user-1', iat: T0 / 1000, exp: T0 / 1000 + 1e9 }), SECRET, {
        now: at(T0),
      }),
    ).toBeNull()
  })

  it('refuses every altered signature: flipped bits, truncated, extended, re-padded', async () => {
    const token = await createSubscriberToken('user-1', SECRET, { expiresIn: 60, now: at(T0) })
    const [payload, signature] = token.split('.') as [string, string]
    const bytes = base64UrlDecode(signature)!
    const variants: string[] = []
    for (let i = 0; i < bytes.length * 8; i += 7) {
      const flipped = bytes.slice()
      flipped[i >> 3]! ^= 1 << (i & 7)
      variants.push(`${payload}.${base64UrlEncode(flipped)}`)
    }
    variants.push(
      `${payload}.${base64UrlEncode(bytes.slice(0, 31))}`,
      `${payload}.${base64UrlEncode(new Uint8Array([...bytes, 0]))}`,
      `${payload}.${signature}=`,
      `${payload}.${signature.replace(/-/g, '+').replace(/_/g, '/')}x`,
      `${payload}.`,
      `.${signature}`,
      `${payload}.${signature}.${signature}`,
      `${payload}=.${signature}`,
      ` ${token}`,
      '',
      'x'.repeat(10_000),
    )
    for (const variant of variants) {
      expect(await verifySubscriberToken(variant, SECRET, { now: at(T0) }), variant).toBeNull()
    }
    expect(variants.length).toBeGreaterThan(40)
  })

  it('never accepts nor throws on arbitrary strings', async () => {
    let tried = 0
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string(), fc.base64String(), fc.stringMatching(/^[A-Za-z0-9_-]{0,60}\.[A-Za-z0-9_-]{0,60}$/)),
        async (text) => {
          tried++
          expect(await verifySubscriberToken(text, SECRET)).toBeNull()
        },
      ),
      { numRuns: 300 },
    )
    expect(tried).toBe(300)
  })

  it('refuses a secret shorter than 32 bytes, and bad arguments', async () => {
    await expect(createSubscriberToken('user-1', 'short', { expiresIn: 60 })).rejects.toThrow(/at least 32 bytes/)
    await expect(verifySubscriberToken('a.b', 'short')).rejects.toThrow(/at least 32 bytes/)
    expect(() => bearerTokenAuth('short')).toThrow(/at least 32 bytes/)
    await expect(createSubscriberToken('', SECRET, { expiresIn: 60 })).rejects.toThrow(TypeError)
    await expect(createSubscriberToken('user-1', SECRET, { expiresIn: 0 })).rejects.toThrow(TypeError)
    await expect(createSubscriberToken('user-1', SECRET, { expiresIn: Number.NaN })).rejects.toThrow(TypeError)
  })

  // An environment variable left unset, or a call from JavaScript without the options: the error says so.
  it('names a missing secret, and missing options, in its error', async () => {
    const unset = undefined as unknown as string
    expect(() => bearerTokenAuth(unset)).toThrow('The token secret is missing (got undefined)')
    await expect(createSubscriberToken('user-1', unset, { expiresIn: 60 })).rejects.toThrow(/missing \(got undefined\)/)
    await expect(verifySubscriberToken('a.b', unset)).rejects.toThrow(/missing \(got undefined\)/)
    const noOptions = createSubscriberToken as (id: string, secret: string) => Promise<string>
    await expect(noOptions('user-1', SECRET)).rejects.toThrow(
      new TypeError('expiresIn must be a positive number of seconds.'),
    )
  })

  it('bearerTokenAuth reads only a well-formed Bearer header, its scheme in any case as HTTP has it', async () => {
    const authenticate = bearerTokenAuth(SECRET, { now: at(T0) })
    const token = await createSubscriberToken('user-1', SECRET, { expiresIn: 60, now: at(T0) })
    const request = (authorization?: string) =>
      new Request('http://app.test/api/inbox', authorization ? { headers: { authorization } } : {})
    expect(await authenticate(request(`Bearer ${token}`))).toEqual({ subscriberId: 'user-1', expiresAt: T0 + 60_000 })
    expect(await authenticate(request())).toBeNull()
    const user = { subscriberId: 'user-1', expiresAt: T0 + 60_000 }
    expect(await authenticate(request(`bearer ${token}`))).toEqual(user)
    expect(await authenticate(request(`BEARER  ${token}`))).toEqual(user)
    expect(await authenticate(request(`Bearer${token}`))).toBeNull()
    expect(await authenticate(request('Bearer '))).toBeNull()
    expect(await authenticate(request(`Basic ${token}`))).toBeNull()
    expect(await authenticate(request(`Bearer ${token}, Bearer ${token}`))).toBeNull()
    expect(await authenticate(request('ApiKey demo-secret-key'))).toBeNull()
  })
})

/** A token signed as the issuer would, for any payload, so that verification can be tried on ids the issuer refuses. */
async function handSigned(payload: object, secret: string): Promise<string> {
  const encoded = base64UrlEncode(new TextEncoder().encode(JSON.stringify(payload)))
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(encoded)))
  return `${encoded}.${base64UrlEncode(signature)}`
}

describe('subscriber tokens the proxy could never accept', () => {
  it('are refused when issuing, with an error that names the problem', async () => {
    for (const id of ['.', '..']) {
      await expect(createSubscriberToken(id, SECRET, { expiresIn: 60 })).rejects.toThrow(TypeError)
      await expect(createSubscriberToken(id, SECRET, { expiresIn: 60 })).rejects.toThrow(/no URL path can carry it/)
    }
    await expect(createSubscriberToken('user-\uD800', SECRET, { expiresIn: 60 })).rejects.toThrow(/well-formed Unicode/)
    await expect(createSubscriberToken('a'.repeat(3_000), SECRET, { expiresIn: 60 })).rejects.toThrow(RangeError)
    await expect(createSubscriberToken('a'.repeat(3_000), SECRET, { expiresIn: 60 })).rejects.toThrow(/too long.*4096/)
    // Characters JSON escapes count at their escaped length.
    await expect(createSubscriberToken('\u0001'.repeat(600), SECRET, { expiresIn: 60 })).rejects.toThrow(RangeError)
    for (const id of ['...', '.a', 'a.', '%2e', '.%2E']) {
      expect(await createSubscriberToken(id, SECRET, { expiresIn: 60 })).toMatch(/\./)
    }
  })

  it('are refused by verification too, even when signed with the secret', async () => {
    const now = Math.floor(T0 / 1000)
    for (const sub of ['.', '..', 'user-\uD800']) {
      const token = await handSigned({ sub, iat: now, exp: now + 60 }, SECRET)
      expect(await verifySubscriberToken(token, SECRET, { now: at(T0) }), sub).toBeNull()
    }
    const long = await handSigned({ sub: 'a'.repeat(3_000), iat: now, exp: now + 60 }, SECRET)
    expect(long.length).toBeGreaterThan(4096)
    expect(await verifySubscriberToken(long, SECRET, { now: at(T0) })).toBeNull()
  })

  it('property: the proxy serves every id the issuer accepts, and the issuer refuses only with a TypeError or RangeError', async () => {
    const { proxy, forwarded } = startProxy()
    const id = fc.oneof(
      fc.string({ minLength: 1, maxLength: 20, unit: 'binary' }),
      fc.string({
        minLength: 1,
        maxLength: 20,
        unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      }),
      fc.string({
        minLength: 1,
        maxLength: 8,
        unit: fc.constantFrom('.', '%', '2', 'e', 'E', '/', '\\', ' ', '?', '#', ';'),
      }),
      fc.constantFrom('.', '..', '...', '%2e', '%2e%2e', 'user-1'),
      fc.integer({ min: 2_900, max: 3_100 }).map((n) => 'x'.repeat(n)),
      fc.integer({ min: 500, max: 760 }).map((n) => '\u0000'.repeat(n)),
      fc.integer({ min: 700, max: 760 }).map((n) => '\u{1F600}'.repeat(n)),
    )
    let issued = 0
    let refused = 0
    await fc.assert(
      fc.asyncProperty(id, async (subscriberId) => {
        let token: string
        try {
          token = await createSubscriberToken(subscriberId, PROXY_SECRET, { expiresIn: 600 })
        } catch (error) {
          refused++
          expect(error instanceof TypeError || error instanceof RangeError).toBe(true)
          return
        }
        issued++
        expect((await verifySubscriberToken(token, PROXY_SECRET))?.subscriberId).toBe(subscriberId)
        forwarded.length = 0
        // The path the kit's own client builds for this id.
        const url = 'http://app.test/api/inbox' + path`/v1/subscribers/${subscriberId}/notifications/feed`
        const response = await proxy(new Request(url, { headers: { authorization: `Bearer ${token}` } }))
        expect([401, 403]).not.toContain(response.status)
        expect(forwarded).toHaveLength(1)
        expect(decodeURIComponent(forwarded[0]!.url.pathname.split('/')[3]!)).toBe(subscriberId)
      }),
      { numRuns: 300, seed: 13 },
    )
    expect(issued).toBeGreaterThan(100)
    expect(refused).toBeGreaterThan(10)
  })
})
