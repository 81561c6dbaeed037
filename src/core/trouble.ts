import { ApiError, NetworkError, ResponseShapeError } from '../api/errors'

/**
 * What kind of failure stops an inbox, for the words shown and for what the loop does next:
 * - `signedOut`: 401 — the session ended or the token expired;
 * - `forbidden`: 403 — this user may not see this inbox;
 * - `notFound`: 404 — no such subscriber, or a wrong address;
 * - `unavailable`: a 5xx, 408 or 429, a timeout, or no answer while online — retried with backoff;
 * - `offline`: no answer, and the browser says it is offline;
 * - `malformed`: an answer the kit cannot read, or another 4xx.
 */
export type TroubleKind = 'signedOut' | 'forbidden' | 'notFound' | 'unavailable' | 'offline' | 'malformed'

/** The kind of a failure (see {@link TroubleKind}). */
export function troubleKind(error: unknown): TroubleKind {
  if (error instanceof ApiError) {
    const s = error.status
    return s === 401
      ? 'signedOut'
      : s === 403
        ? 'forbidden'
        : s === 404
          ? 'notFound'
          : s >= 500 || s === 408 || s === 429
            ? 'unavailable'
            : 'malformed'
  }
  if (error instanceof ResponseShapeError) return 'malformed'
  if (error instanceof NetworkError && typeof navigator === 'object' && navigator.onLine === false) return 'offline'
  return 'unavailable'
}
