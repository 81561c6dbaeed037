import type { FaultRule } from './types'

/** The fault rules added by tests; `take` consumes one application of the first matching rule. */
export class Faults {
  private rules: { rule: FaultRule; left: number }[] = []

  add(rule: FaultRule): () => void {
    const entry = { rule, left: rule.times ?? Infinity }
    this.rules.push(entry)
    return () => {
      this.rules = this.rules.filter((r) => r !== entry)
    }
  }

  clear(): void {
    this.rules = []
  }

  take(method: string, path: string): FaultRule | undefined {
    for (const entry of this.rules) {
      const { rule } = entry
      if (entry.left <= 0) continue
      if (rule.method && rule.method.toUpperCase() !== method) continue
      if (rule.path !== undefined && !(typeof rule.path === 'string' ? rule.path === path : rule.path.test(path)))
        continue
      if (rule.rate !== undefined && Math.random() >= rule.rate) continue
      entry.left -= 1
      return rule
    }
    return undefined
  }
}

export interface StoredResponse {
  status: number
  body: string
  headers: Record<string, string>
}

type Entry =
  | { state: 'running'; fingerprint: string; expires: number; bytes: number }
  | { state: 'done'; fingerprint: string; expires: number; bytes: number; response: StoredResponse }

const DAY = 86_400_000
/** Map slot, key object and bookkeeping of one entry, beyond its strings. */
const ENTRY_OVERHEAD = 200

/** Bounds of an {@link IdempotencyStore}. */
export interface IdempotencyLimits {
  /** @default 20_000 */
  maxEntries?: number
  /** Approximate bytes of keys, fingerprints and kept responses. @default 32 MiB */
  maxBytes?: number
}

/** What an {@link IdempotencyStore} holds. */
export interface IdempotencyUsage {
  entries: number
  bytes: number
}

/** UTF-16 size of the strings an entry keeps, plus its overhead. */
function sizeOf(id: string, fingerprint: string, response?: StoredResponse): number {
  let chars = id.length + fingerprint.length
  if (response) {
    chars += response.body.length
    for (const [name, value] of Object.entries(response.headers)) chars += name.length + value.length
  }
  return chars * 2 + ENTRY_OVERHEAD
}

/**
 * Responses of keyed writes, per API key, kept 24 h. Expired entries are swept as new ones arrive, and past
 * `maxEntries` or `maxBytes` the oldest completed answers are forgotten first, so no stream of fresh keys can grow
 * it without bound. A request still running is never forgotten (its key must keep answering 409).
 */
export class IdempotencyStore {
  /** In the order of their expiry: an entry moves to the end when it is (re)written. */
  private readonly entries = new Map<string, Entry>()
  private bytes = 0
  private readonly maxEntries: number
  private readonly maxBytes: number

  constructor(
    private readonly clock: () => number,
    limits: IdempotencyLimits = {},
  ) {
    this.maxEntries = limits.maxEntries ?? 20_000
    this.maxBytes = limits.maxBytes ?? 32 * 1024 * 1024
  }

  get usage(): IdempotencyUsage {
    return { entries: this.entries.size, bytes: this.bytes }
  }

  get(scope: string, key: string): Entry | undefined {
    const id = `${scope}\n${key}`
    const entry = this.entries.get(id)
    if (entry && entry.expires <= this.clock()) {
      this.delete(id)
      return undefined
    }
    return entry
  }

  start(scope: string, key: string, fingerprint: string): void {
    const id = `${scope}\n${key}`
    this.put(id, { state: 'running', fingerprint, expires: this.clock() + DAY, bytes: sizeOf(id, fingerprint) })
  }

  finish(scope: string, key: string, fingerprint: string, response: StoredResponse): void {
    const id = `${scope}\n${key}`
    const bytes = sizeOf(id, fingerprint, response)
    // An answer larger than the whole store is not kept: a retry runs again rather than evicting everything.
    if (bytes > this.maxBytes) return this.delete(id)
    this.put(id, { state: 'done', fingerprint, expires: this.clock() + DAY, bytes, response })
  }

  forget(scope: string, key: string): void {
    this.delete(`${scope}\n${key}`)
  }

  private put(id: string, entry: Entry): void {
    this.delete(id)
    this.entries.set(id, entry)
    this.bytes += entry.bytes
    this.trim()
  }

  private delete(id: string): void {
    const entry = this.entries.get(id)
    if (!entry) return
    this.entries.delete(id)
    this.bytes -= entry.bytes
  }

  /** Sweeps expired entries from the front, then evicts the oldest completed ones while over a bound. */
  private trim(): void {
    const now = this.clock()
    for (const [id, entry] of this.entries) {
      if (entry.expires > now) break
      this.delete(id)
    }
    if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) return
    for (const [id, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break
      if (entry.state === 'done') this.delete(id)
    }
  }
}

/** A token bucket per API key. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>()

  constructor(
    private readonly config: { limit: number; windowMs: number },
    private readonly clock: () => number,
  ) {}

  /**
   * Takes `cost` tokens when there are enough; answers the headers to send either way. A cost above the limit is
   * the whole bucket: a full bucket pays it, else its 429 would name a Retry-After after which it is refused again.
   */
  take(scope: string, requested: number): { ok: boolean; headers: Record<string, string> } {
    const { limit, windowMs } = this.config
    const cost = Math.min(requested, limit)
    const perMs = limit / windowMs
    const now = this.clock()
    const bucket = this.buckets.get(scope) ?? { tokens: limit, at: now }
    bucket.tokens = Math.min(limit, bucket.tokens + (now - bucket.at) * perMs)
    bucket.at = now
    const ok = bucket.tokens >= cost
    if (ok) bucket.tokens -= cost
    this.buckets.set(scope, bucket)
    const headers: Record<string, string> = {
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(Math.floor(bucket.tokens)),
      'RateLimit-Reset': String(Math.ceil((limit - bucket.tokens) / perMs / 1000)),
    }
    if (!ok) headers['Retry-After'] = String(Math.max(1, Math.ceil((cost - bucket.tokens) / perMs / 1000)))
    return { ok, headers }
  }
}
