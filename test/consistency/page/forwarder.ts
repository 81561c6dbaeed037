/**
 * The network between the kit and the reference service, as the consistency page injects it: every
 * mark-as waits `latency` ms, and a seeded share of the writes fails for good — the first attempt of a
 * write (a new Idempotency-Key) decides, and every retry under that key fails the same way.
 */
import type { Service } from '../../../server'

/** A small seeded PRNG (mulberry32): the same seed gives the same sequence in Node and in the page. */
export function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** One write as the forwarder saw it (all attempts under one key). */
export interface SeenWrite {
  key: string
  ids: string[]
  markAs: string
  /** Every attempt under this key fails. */
  failing: boolean
  attempts: number
  /** `performance.now()` of the first attempt and of the last answer. */
  firstAt: number
  answeredAt: number
  status: number
}

export interface ForwarderOptions {
  seed: number
  /** Delay of every mark-as, in ms. */
  latency: number
  /** Delay of every other request, in ms. */
  readLatency: number
  /** Delay of a count's read (a feed page of one), in ms, instead of `readLatency`. */
  countLatency?: number
  /** Share of writes that fail for good, 0..1. */
  failRate: number
}

export function createForwarder(service: Service, base: string, options: ForwarderOptions) {
  const draw = random(options.seed ^ 0x5eed)
  const writes = new Map<string, SeenWrite>()
  let inFlight = 0
  let lastActivity = performance.now()
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(new URL(String(input), base), init)
    inFlight++
    try {
      if (request.method !== 'POST' || !request.url.endsWith('/mark-as')) {
        const count = new URL(request.url).searchParams.get('limit') === '1'
        await sleep(count ? (options.countLatency ?? options.readLatency) : options.readLatency)
        return await service.fetch(request)
      }
      const key = request.headers.get('idempotency-key') ?? ''
      const body = (await request.clone().json()) as { messageId: string[]; markAs: string }
      let write = writes.get(key)
      if (!write) {
        const now = performance.now()
        write = {
          key,
          ids: body.messageId,
          markAs: body.markAs,
          failing: draw() < options.failRate,
          attempts: 0,
          firstAt: now,
          answeredAt: now,
          status: 0,
        }
        writes.set(key, write)
      }
      write.attempts++
      await sleep(options.latency)
      const response = write.failing
        ? Response.json(
            { statusCode: 503, message: 'Upstream unavailable', error: 'Service Unavailable' },
            { status: 503 },
          )
        : await service.fetch(request)
      write.answeredAt = performance.now()
      write.status = response.status
      return response
    } finally {
      inFlight--
      lastActivity = performance.now()
    }
  }
  return {
    fetch: fetch as typeof globalThis.fetch,
    writes: () => [...writes.values()],
    /** Requests on their way, and ms since the last one ended. */
    quiet: () => ({ inFlight, idleMs: inFlight ? 0 : performance.now() - lastActivity }),
  }
}
