/** What a subscriber token carries; readable by anyone, trusted only after `verifySubscriberToken`. */
export interface SubscriberTokenPayload {
  /** The subscriberId the token speaks for. */
  sub: string
  /** Issued at, in seconds since the epoch. */
  iat: number
  /** Expires at, in seconds since the epoch. */
  exp: number
}

/** base64url without padding, over raw bytes. */
export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** The bytes of a base64url string, or null when it is not strict unpadded base64url. */
export function base64UrlDecode(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null
  let binary: string
  try {
    binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4))
  } catch {
    return null
  }
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  // Two spellings of the same bytes would give one token two signatures' worth of forms; only the canonical one counts.
  return base64UrlEncode(bytes) === text ? bytes : null
}

/**
 * Reads a subscriber token's payload without checking its signature, e.g. so that a browser knows
 * when to fetch a fresh one. Returns null when the token is not of the `payload.signature` form.
 *
 * @example readSubscriberToken(token)?.exp // seconds since the epoch
 */
export function readSubscriberToken(token: string): SubscriberTokenPayload | null {
  const parts = token.split('.')
  if (parts.length !== 2 || !parts[0] || !parts[1]) return null
  const bytes = base64UrlDecode(parts[0])
  if (!bytes) return null
  let value: unknown
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    return null
  }
  if (!value || typeof value !== 'object') return null
  const { sub, iat, exp } = value as Record<string, unknown>
  if (typeof sub !== 'string' || !sub || !Number.isFinite(iat) || !Number.isFinite(exp)) return null
  return { sub, iat: iat as number, exp: exp as number }
}
