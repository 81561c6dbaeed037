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
  | { state: 'running'; fingerprint: string; expires: number }
  | { state: 'done'; fingerprint: string; expires: number; response: StoredResponse }

const DAY = 86_400_000

/** Responses of keyed writes, per API key, kept 24 h. */
export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>()

  constructor(private readonly clock: () => number) {}

  get(scope: string, key: string): Entry | undefined {
    const id = `${scope}\n${key}`
    const entry = this.entries.get(id)
    if (entry && entry.expires <= this.clock()) {
      this.entries.delete(id)
      return undefined
    }
    return entry
  }

  start(scope: string, key: string, fingerprint: string): void {
    this.entries.set(`${scope}\n${key}`, { state: 'running', fingerprint, expires: this.clock() + DAY })
  }

  finish(scope: string, key: string, fingerprint: string, response: StoredResponse): void {
    this.entries.set(`${scope}\n${key}`, { state: 'done', fingerprint, expires: this.clock() + DAY, response })
  }

  forget(scope: string, key: string): void {
    this.entries.delete(`${scope}\n${key}`)
  }
}

/** A token bucket per API key. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>()

  constructor(
    private readonly config: { limit: number; windowMs: number },
    private readonly clock: () => number,
  ) {}

  /** Takes `cost` tokens when there are enough; answers the headers to send either way. */
  take(scope: string, cost: number): { ok: boolean; headers: Record<string, string> } {
    const { limit, windowMs } = this.config
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
