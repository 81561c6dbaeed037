/**
 * The proxy's rate-limit store under many subscribers: the memory it holds and the cost of one request as the
 * number of subscribers grows to 1,000,000, beside the per-process map it replaced; and a whole proxy request
 * (in process, to the reference service) with an empty store and with one holding 1,000,000 subscribers.
 * Run: npx tsx bench/proxy.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createService } from '../server'
import { createInboxProxy, createMemoryRateLimitStore } from '../src/proxy'
import type { MemoryRateLimitStore, RateLimitRule } from '../src/proxy'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const RULE: RateLimitRule = { limit: 600, windowMs: 60_000 }
const SUBSCRIBERS = 1_000_000
const NOW = Date.now()

/** A subscriberId as the proxy gets it: a flat string fresh from parsing a token, 24 characters like the service's ids. */
const idOf = (i: number): string => JSON.parse(`"${i.toString(16).padStart(24, '0')}"`)

function heapBytes(): number {
  for (let i = 0; i < 3; i++) gc()
  return process.memoryUsage().heapUsed
}

const round = (n: number, digits = 0) => Number(n.toFixed(digits))

/** Heap held by a store after `subscribers` distinct subscribers made one request each, all within the window. */
function memory(maxKeys: number, subscribers: number) {
  const before = heapBytes()
  const store = createMemoryRateLimitStore({ maxKeys })
  // All within 10 ms, so no bucket has refilled by the end: each request spent 100 ms of allowance.
  for (let i = 0; i < subscribers; i++) store.take(idOf(i), 1, NOW + i / 100_000, RULE)
  const held = heapBytes() - before
  return {
    store,
    row: {
      maxKeys,
      subscribers,
      bucketsHeld: store.size,
      heapMiB: round(held / 2 ** 20, 1),
      bytesPerBucket: round(held / store.size),
    },
  }
}

const median = (xs: number[]) => round(xs.sort((a, b) => a - b)[xs.length >> 1]!)

/**
 * Nanoseconds per request, the median of 7 batches of `runs`: requests of subscribers already in the store,
 * then of new ones (each of which adds a bucket, or displaces one once the store is full). Beside them, a bare
 * Map of as many entries doing one get and one set per request: the floor any hash map has at that size, so
 * that what grows with the size is told apart from what the hardware's caches add.
 */
function cost(store: MemoryRateLimitStore, size: number, runs: number) {
  const bare = new Map<string, number>()
  for (let i = 0; i < size; i++) bare.set(idOf(i), i)
  const batch = (ids: string[], step: (id: string) => void) => {
    const t = performance.now()
    for (const id of ids) step(id)
    return ((performance.now() - t) * 1e6) / ids.length
  }
  const take = (id: string) => void store.take(id, 1, NOW + 1_000, RULE)
  const getSet = (id: string) => void bare.set(id, (bare.get(id) ?? 0) + 1)
  const known: number[] = []
  const fresh: number[] = []
  const floor: number[] = []
  for (let b = 0; b < 7; b++) {
    const ids = Array.from({ length: runs }, (_, i) => idOf((i * 7919 + b) % size))
    known.push(batch(ids, take))
    floor.push(batch(ids, getSet))
    fresh.push(
      batch(
        Array.from({ length: runs }, (_, i) => idOf(10_000_000 + b * runs + i)),
        take,
      ),
    )
  }
  return { size, knownNsPerRequest: median(known), newNsPerRequest: median(fresh), bareMapNsPerRequest: median(floor) }
}

/** The per-process limiter this store replaced, kept here only to measure against. */
function previousLimiter({ limit, windowMs }: RateLimitRule) {
  const buckets = new Map<string, { tokens: number; at: number }>()
  const rate = limit / windowMs
  let clock = NOW
  return (subscriberId: string): number => {
    const now = (clock += 0.001)
    if (buckets.size > 10_000) {
      for (const [id, b] of buckets) if (b.tokens + (now - b.at) * rate >= limit) buckets.delete(id)
    }
    const bucket = buckets.get(subscriberId) ?? { tokens: limit, at: now }
    bucket.tokens = Math.min(limit, bucket.tokens + (now - bucket.at) * rate)
    bucket.at = now
    buckets.set(subscriberId, bucket)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return 0
    }
    return Math.ceil((1 - bucket.tokens) / rate)
  }
}

function previousCost(sizes: number[], runs: number) {
  const limited = previousLimiter(RULE)
  const rows: { size: number; nsPerRequest: number }[] = []
  let filled = 0
  for (const size of sizes) {
    // Every subscriber spent a request, so none is full and the sweep past 10,000 drops nothing.
    while (filled < size) limited(idOf(filled++))
    const t = performance.now()
    for (let i = 0; i < runs; i++) limited(idOf(i % size))
    rows.push({ size, nsPerRequest: round(((performance.now() - t) * 1e6) / runs) })
  }
  return rows
}

/** Median and p99 of a whole proxy request, in microseconds. */
async function proxyRequest(store: MemoryRateLimitStore, runs: number) {
  const service = createService()
  const subscriberId = service.state.subscribers()[0]!.subscriberId
  const proxy = createInboxProxy({
    upstreamUrl: 'http://inbox.test',
    apiKey: service.apiKey,
    authenticate: () => subscriberId,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => service.fetch(new Request(input, init))) as typeof fetch,
    rateLimit: { limit: 1_000_000_000, windowMs: 60_000, store },
  })
  const url = `http://app.test/v1/subscribers/${encodeURIComponent(subscriberId)}/notifications/feed?limit=1`
  const samples: number[] = []
  for (let i = 0; i < runs + 200; i++) {
    const t = performance.now()
    const response = await proxy(new Request(url))
    await response.text()
    if (response.status !== 200) throw new Error(`proxy answered ${response.status}`)
    if (i >= 200) samples.push((performance.now() - t) * 1000)
  }
  samples.sort((a, b) => a - b)
  const pick = (q: number) => round(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!, 1)
  return { storeSize: store.size, medianUs: pick(0.5), p99Us: pick(0.99) }
}

const memoryRows = []
const defaultStore = memory(100_000, SUBSCRIBERS)
memoryRows.push(defaultStore.row)
// Room for all of them, so that the store holds 1,000,000 while the costs below are measured.
const big = memory(2 * SUBSCRIBERS, SUBSCRIBERS)
memoryRows.push(big.row)

const proxyRows = [await proxyRequest(createMemoryRateLimitStore(), 2_000), await proxyRequest(big.store, 2_000)]

const costRows = []
for (const size of [1_000, 10_000, 100_000, 1_000_000]) {
  const { store } = size === SUBSCRIBERS ? big : memory(size, size)
  costRows.push(cost(store, size, 50_000))
}
const previousRows = previousCost([1_000, 10_000, 20_000, 40_000], 200)

console.log(`Rate-limit store (${RULE.limit} per ${RULE.windowMs / 1000} s), 24-character subscriberIds\n`)
console.log('Memory held after each of N distinct subscribers made one request:')
console.log(['maxKeys', 'subscribers', 'buckets held', 'heap MiB', 'bytes/bucket'].map((h) => h.padStart(13)).join(''))
for (const r of memoryRows)
  console.log(
    [r.maxKeys, r.subscribers, r.bucketsHeld, r.heapMiB, r.bytesPerBucket]
      .map((v) => v.toLocaleString('en').padStart(13))
      .join(''),
  )
console.log('\nCost of one take() by number of subscribers held (ns):')
console.log(['held', 'known subscriber', 'new subscriber', 'bare Map get+set'].map((h) => h.padStart(17)).join(''))
for (const r of costRows)
  console.log(
    [r.size, r.knownNsPerRequest, r.newNsPerRequest, r.bareMapNsPerRequest]
      .map((v) => v.toLocaleString('en').padStart(17))
      .join(''),
  )
console.log('\nThe limiter it replaced (a walk of the whole map past 10,000 subscribers), ns per request:')
for (const r of previousRows)
  console.log(`${r.size.toLocaleString('en').padStart(17)}${r.nsPerRequest.toLocaleString('en').padStart(17)}`)
console.log('\nA whole proxy request (in process, reference service, feed limit=1), µs:')
for (const r of proxyRows)
  console.log(
    `  store holding ${r.storeSize.toLocaleString('en').padStart(9)} subscribers: median ${r.medianUs}, p99 ${r.p99Us}`,
  )

const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'proxy.json')
mkdirSync(dirname(out), { recursive: true })
writeFileSync(
  out,
  JSON.stringify(
    {
      command: 'npx tsx bench/proxy.ts',
      node: process.version,
      cpus: cpus().length,
      loadAverage1m: Number(loadavg()[0]!.toFixed(2)),
      date: new Date().toISOString(),
      rule: RULE,
      memory: memoryRows,
      costBySize: costRows,
      previousLimiterBySize: previousRows,
      proxyRequest: proxyRows,
    },
    null,
    2,
  ) + '\n',
)
console.log(`\nWrote ${out}`)
