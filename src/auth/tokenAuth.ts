import { ApiError } from '../api/errors'
import { readSubscriberToken } from './tokenPayload'

/** What `fetchToken` may resolve with: the token, or the token and its expiry. */
export type FetchedToken =
  string | { token: string; /** Expiry in ms since the epoch (browser clock). */ expiresAt?: number }

/** Options of {@link createTokenAuth}. */
export interface TokenAuthOptions {
  /**
   * Gets a fresh token from your server (for example `POST /api/inbox-token`, which calls
   * `createSubscriberToken`). Called on first use and whenever the current token is about to expire.
   * Resolve with `null` when the user is signed out (the route's 401): the inbox then says so, calls the
   * provider's `onAuthError` and stops asking until the tab is focused again. A rejection is a failure like any
   * other: the inbox shows the service as unavailable and tries again with backoff.
   */
  fetchToken: () => Promise<FetchedToken | null>
  /** How long before expiry a new token is fetched, in ms; at most half the token's lifetime is used. @default 60000 */
  refreshMargin?: number | undefined
  /** Clock in ms since the epoch. @default Date.now */
  now?: (() => number) | undefined
}

/** Bearer-token headers for `InboxProvider`'s (or the client's) `getHeaders`. */
export interface TokenAuth {
  /** `{ Authorization: 'Bearer <token>' }` with a token that is not about to expire. */
  getHeaders(): Promise<Record<string, string>>
  /** A token that is not about to expire, fetched if needed; concurrent callers share one fetch. */
  getToken(): Promise<string>
  /** Forgets the current token (after sign-out, or a 401), so the next call fetches a new one. */
  invalidate(): void
}

/**
 * Sends a subscriber token from `inbox-kit/proxy`'s `createSubscriberToken` as a Bearer token and
 * fetches a new one before the current one expires, so that no request goes out with an expired token.
 * Expiry is read from the token (its lifetime is measured on the browser's clock, so clock skew between
 * browser and server does not matter) or from `expiresAt`.
 *
 * @example
 * // A token route that answers `{ token }`: fetchToken may resolve with that object as it is.
 * const auth = createTokenAuth({ fetchToken: () => fetch('/api/inbox-token', { method: 'POST' }).then((r) => r.json()) })
 * // As `auth` (not only its getHeaders), so that a token the proxy refuses is dropped and a fresh one fetched.
 * <InboxProvider subscriberId={user.id} baseUrl="/api/inbox" auth={auth}>…</InboxProvider>
 */
export function createTokenAuth(options: TokenAuthOptions): TokenAuth {
  const now = options.now ?? Date.now
  const margin = options.refreshMargin ?? 60_000
  let current: { token: string; refreshAt: number; expiresAt: number } | null = null
  let pending: Promise<string> | null = null
  let generation = 0

  async function refresh(): Promise<string> {
    const started = now()
    const mine = generation
    const fetched = await options.fetchToken()
    // Signed out: as the service's own 401, so that the inbox and the app treat it alike.
    if (fetched === null) throw new ApiError(401, '', { message: 'Signed out: fetchToken gave no token.' })
    const token = typeof fetched === 'string' ? fetched : fetched.token
    if (typeof token !== 'string' || !token) throw new TypeError('fetchToken resolved without a token.')
    let expiresAt = typeof fetched === 'string' ? undefined : fetched.expiresAt
    const payload = readSubscriberToken(token)
    if (payload && payload.exp > payload.iat) expiresAt = started + (payload.exp - payload.iat) * 1000
    const refreshAt =
      expiresAt === undefined ? Infinity : expiresAt - Math.min(margin, Math.max(0, (expiresAt - started) / 2))
    // A sign-out while this fetch was under way must not bring the old user's token back.
    if (mine === generation) current = { token, refreshAt, expiresAt: expiresAt ?? Infinity }
    return token
  }

  function getToken(): Promise<string> {
    if (current && now() < current.refreshAt) return Promise.resolve(current.token)
    if (!pending) {
      const held = current
      const p: Promise<string> = refresh()
        .catch((error: unknown) => {
          // A failed early refresh is not yet a failure: the token in hand still works until it expires.
          if (held && held === current && now() < held.expiresAt) return held.token
          throw error
        })
        .finally(() => {
          if (pending === p) pending = null
        })
      pending = p
    }
    return pending
  }

  return {
    getToken,
    async getHeaders() {
      return { Authorization: `Bearer ${await getToken()}` }
    },
    invalidate() {
      generation++
      current = null
      pending = null
    },
  }
}
