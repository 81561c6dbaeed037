/** A rate limit: `limit` requests at once, refilled evenly over `windowMs` (a token bucket). */
export interface RateLimitRule {
  /** Requests a subscriber may make at once, and per window. */
  limit: number
  /** Milliseconds in which a spent allowance refills completely. */
  windowMs: number
}

/** A store's answer for one request. */
export interface RateLimitVerdict {
  /** True when the request may go ahead; its cost has then been taken. */
  ok: boolean
  /** When refused, milliseconds until the request would be allowed; 0 when `ok`. */
  retryAfterMs: number
}

/**
 * Where the proxy keeps its rate-limit state, one bucket per key (the subscriberId). The in-memory store of
 * {@link createMemoryRateLimitStore} counts per process; a store shared by every instance of the app (say in
 * Redis) makes the limit hold across instances. `take` may answer a promise, so the store can be remote.
 *
 * A store must take `cost` atomically: two instances asking at once must not both spend the last token.
 * The buckets described by a single number each (the time at which the bucket is full again, as the generic
 * cell rate algorithm keeps it) suit a store with atomic scripts: compute, compare, set with an expiry of the
 * remaining window.
 */
export interface RateLimitStore {
  /**
   * Takes `cost` requests from the bucket of `key` under `rule` at time `now` (ms since the epoch), or
   * refuses without taking anything when the bucket holds fewer.
   */
  take(key: string, cost: number, now: number, rule: RateLimitRule): RateLimitVerdict | Promise<RateLimitVerdict>
}

/** Options of {@link createMemoryRateLimitStore}. */
export interface MemoryRateLimitStoreOptions {
  /**
   * Most buckets held at once. A bucket not used for a whole window has refilled, carries nothing and is
   * dropped; past `maxKeys` subscribers active within one window, the buckets of the least recently active
   * half are dropped even when not yet full, so those subscribers start again with a full allowance.
   * About 130 bytes a bucket for 24-character subscriberIds. @default 100000
   */
  maxKeys?: number | undefined
}

/** The in-memory store, with `size` for tests and measurements. */
export interface MemoryRateLimitStore extends RateLimitStore {
  take(key: string, cost: number, now: number, rule: RateLimitRule): RateLimitVerdict
  /** Buckets held now. */
  readonly size: number
}

// Summing `windowMs / limit` steps drifts by float rounding; a microsecond of slack keeps that drift from
// refusing the last request of a burst.
const SLACK_MS = 1e-3

/**
 * A {@link RateLimitStore} in this process's memory: each request costs O(1) time (two map lookups and a
 * write, no scan), and the store holds at most `maxKeys` buckets.
 *
 * @example createInboxProxy({ …, rateLimit: { limit: 600, windowMs: 60_000, store: createMemoryRateLimitStore({ maxKeys: 50_000 }) } })
 */
export function createMemoryRateLimitStore(options: MemoryRateLimitStoreOptions = {}): MemoryRateLimitStore {
  const maxKeys = options.maxKeys ?? 100_000
  if (!Number.isInteger(maxKeys) || maxKeys < 1) throw new RangeError('maxKeys must be a positive integer.')
  const half = Math.max(1, Math.floor(maxKeys / 2))
  // Per key, the time at which its bucket is full again, in two generations: a used key moves to `current`;
  // `previous` is dropped whole once `current` is a window old (all its buckets have refilled by then) or
  // holds half of maxKeys. No scan, and no iteration over a Map, whose deleted slots would make it O(n).
  let current = new Map<string, number>()
  let previous = new Map<string, number>()
  let since = 0
  let span = 0
  // Times are kept relative to the first request: near 1.8e12 ms a float holds only ~1e-4 ms of precision.
  let epoch: number | undefined
  return {
    get size() {
      return current.size + previous.size
    },
    take(key, cost, time, { limit, windowMs }) {
      const now = time - (epoch ??= time)
      span = Math.max(span, windowMs)
      if (current.size >= half || now - since >= span) {
        previous = current
        current = new Map()
        since = now
      }
      let stored = current.get(key)
      if (stored === undefined) {
        stored = previous.get(key)
        if (stored !== undefined) previous.delete(key)
      }
      const from = Math.max(stored ?? now, now)
      const next = from + cost * (windowMs / limit)
      const ok = next - now <= windowMs + SLACK_MS
      current.set(key, ok ? next : from)
      return { ok, retryAfterMs: ok ? 0 : next - now - windowMs }
    },
  }
}
