import { base64UrlDecode, base64UrlEncode, readSubscriberToken } from '../auth/tokenPayload'
import type { SubscriberTokenPayload } from '../auth/tokenPayload'

/** Shortest secret accepted: HMAC-SHA256 is only as strong as a key of at least its output size. */
const MIN_SECRET_BYTES = 32

/** Longest token verified, so that a request cannot make the proxy hash megabytes. */
const MAX_TOKEN_LENGTH = 4096

/**
 * Why the proxy could never serve `subscriberId`, or null when it can. Issuing and verifying both ask this,
 * so that every token issued is one the proxy accepts.
 */
function subscriberIdProblem(subscriberId: unknown): string | null {
  if (typeof subscriberId !== 'string' || !subscriberId) return 'subscriberId must be a non-empty string.'
  // A lone surrogate becomes U+FFFD in the token's UTF-8, so the token would name someone else.
  if (!/^(?:[^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/.test(subscriberId)) {
    return 'subscriberId must be well-formed Unicode (it has a lone surrogate).'
  }
  // URLs drop `.` and `..` path segments, so no request path can name them.
  if (subscriberId === '.' || subscriberId === '..')
    return `subscriberId cannot be "${subscriberId}": no URL path can carry it.`
  return null
}

/** Options of {@link createSubscriberToken}. */
export interface CreateSubscriberTokenOptions {
  /** Lifetime in seconds. Keep it short (minutes); the browser helper fetches a new one before it runs out. */
  expiresIn: number
  /** Clock in ms since the epoch. @default Date.now */
  now?: (() => number) | undefined
}

/** Options of {@link verifySubscriberToken}. */
export interface VerifySubscriberTokenOptions {
  /** Clock in ms since the epoch. @default Date.now */
  now?: (() => number) | undefined
}

/** A verified token: who it speaks for and until when. */
export interface VerifiedSubscriberToken {
  subscriberId: string
  /** Expiry in ms since the epoch. */
  expiresAt: number
}

const encoder = new TextEncoder()
const keys = new Map<string, Promise<CryptoKey>>()

function hmacKey(secret: string): Promise<CryptoKey> {
  // `process.env.INBOX_TOKEN_SECRET!` of an unset variable: said as such, not as a secret too short.
  if (typeof secret !== 'string') {
    throw new TypeError(
      `The token secret is missing (got ${String(secret)}): an environment variable left unset? It takes a string of at least ${MIN_SECRET_BYTES} bytes.`,
    )
  }
  const bytes = encoder.encode(secret)
  if (bytes.length < MIN_SECRET_BYTES) {
    throw new TypeError(`The token secret must be at least ${MIN_SECRET_BYTES} bytes long.`)
  }
  let key = keys.get(secret)
  if (!key) {
    key = crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
    // A handful of secrets per process at most (rotation), so the cache stays tiny.
    if (keys.size > 16) keys.clear()
    keys.set(secret, key)
  }
  return key
}

async function sign(encodedPayload: string, secret: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(encodedPayload)))
}

/** Compares without an early exit, so the time taken does not reveal how many leading bytes matched. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ (b[i] ?? 0)
  return diff === 0
}

/**
 * Issues a short-lived token that lets the browser of `subscriberId` use the proxy as that subscriber.
 * Format: `base64url(JSON payload).base64url(HMAC-SHA256(secret, first part))`; the payload
 * (`{sub, iat, exp}`, times in seconds) is readable by the browser, the signature only checkable with the secret.
 *
 * Issues only tokens the proxy accepts: throws a TypeError for a subscriberId that is empty, not well-formed
 * Unicode, or `.` / `..` (which no URL path can carry), and a RangeError when the token would be longer than
 * the 4,096 characters `verifySubscriberToken` reads.
 *
 * @example
 * // at login, on the server
 * const token = await createSubscriberToken(user.id, process.env.INBOX_TOKEN_SECRET!, { expiresIn: 600 })
 */
export async function createSubscriberToken(
  subscriberId: string,
  secret: string,
  options: CreateSubscriberTokenOptions,
): Promise<string> {
  const problem = subscriberIdProblem(subscriberId)
  if (problem) throw new TypeError(problem)
  // `options?.`: called from JavaScript without them, the error names `expiresIn` too.
  if (!Number.isFinite(options?.expiresIn) || options.expiresIn <= 0) {
    throw new TypeError('expiresIn must be a positive number of seconds.')
  }
  const iat = Math.floor((options.now ?? Date.now)() / 1000)
  const payload: SubscriberTokenPayload = { sub: subscriberId, iat, exp: iat + Math.ceil(options.expiresIn) }
  const encoded = base64UrlEncode(encoder.encode(JSON.stringify(payload)))
  const token = `${encoded}.${base64UrlEncode(await sign(encoded, secret))}`
  if (token.length > MAX_TOKEN_LENGTH) {
    throw new RangeError(
      `subscriberId is too long: its token would be ${token.length} characters, over the ${MAX_TOKEN_LENGTH} the proxy accepts.`,
    )
  }
  return token
}

/**
 * Checks a token's signature and expiry. Resolves with its subscriber, or null for any token that is
 * malformed, longer than 4,096 characters, forged, signed with another secret, expired, or for a subscriberId
 * `createSubscriberToken` would refuse. Throws only for a secret that is too short.
 *
 * @example
 * const verified = await verifySubscriberToken(token, secret)
 * if (verified) console.log(verified.subscriberId)
 */
export async function verifySubscriberToken(
  token: string,
  secret: string,
  options: VerifySubscriberTokenOptions = {},
): Promise<VerifiedSubscriberToken | null> {
  const key = hmacKey(secret)
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return null
  const [encoded, signature] = token.split('.')
  const payload = readSubscriberToken(token)
  const given = signature ? base64UrlDecode(signature) : null
  if (!payload || !encoded || !given || subscriberIdProblem(payload.sub)) return null
  await key
  if (!constantTimeEqual(await sign(encoded, secret), given)) return null
  const expiresAt = payload.exp * 1000
  if ((options.now ?? Date.now)() >= expiresAt) return null
  return { subscriberId: payload.sub, expiresAt }
}

/**
 * An `authenticate` function for {@link createInboxProxy} that accepts `Authorization: Bearer <token>`
 * with a token from {@link createSubscriberToken}. It answers the token's subscriber and expiry, so an event
 * stream opened with the token ends when the token does.
 *
 * @example createInboxProxy({ upstreamUrl, apiKey, authenticate: bearerTokenAuth(process.env.INBOX_TOKEN_SECRET!) })
 */
export function bearerTokenAuth(
  secret: string,
  options: VerifySubscriberTokenOptions = {},
): (request: Request) => Promise<VerifiedSubscriberToken | null> {
  void hmacKey(secret)
  return async (request) => {
    // The scheme in any case, as HTTP has it (`bearer`, `BEARER`).
    const match = /^Bearer +([A-Za-z0-9_.-]+)$/i.exec(request.headers.get('authorization') ?? '')
    if (!match) return null
    return verifySubscriberToken(match[1]!, secret, options)
  }
}
