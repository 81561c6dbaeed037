/**
 * Latency of the reference service's pages at scale, in process (no network):
 * feed pages at 100,000 messages for one subscriber and cursor pages at 1,000,000 subscriptions on one topic;
 * how long a light request waits while a trigger to 50,000 recipients is delivered; and the memory the
 * idempotency store holds under 100,000 fresh keys.
 * Run: npx tsx bench/service.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createService, generateMessages, generateSubscriptions, type IdempotencyLimits, type Service } from '../server'
import { idempotencyUsage } from '../server/service'

const MESSAGES = 100_000
const SUBSCRIPTIONS = 1_000_000
const RUNS = 400
const WARMUP = 50

const service = createService()
const headers = { authorization: `ApiKey ${service.apiKey}` }

async function time(path: string, body?: () => unknown): Promise<number> {
  const init: RequestInit = body
    ? { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body()) }
    : { headers }
  const start = performance.now()
  const response = await service.fetch(new Request(`http://bench.test${path}`, init))
  await response.text()
  const elapsed = performance.now() - start
  if (response.status !== (body ? 201 : 200)) throw new Error(`${path}: ${response.status}`)
  return elapsed
}

interface Row {
  case: string
  path: string
  medianMs: number
  p99Ms: number
  items: number
}

async function measure(name: string, path: string, body?: () => unknown): Promise<Row> {
  for (let i = 0; i < WARMUP; i++) await time(path, body)
  const samples: number[] = []
  for (let i = 0; i < RUNS; i++) samples.push(await time(path, body))
  samples.sort((a, b) => a - b)
  const items = body
    ? (body() as { messageId: string[] }).messageId.length
    : (
        (await (await service.fetch(new Request(`http://bench.test${path}`, { headers }))).json()) as {
          data: unknown[]
        }
      ).data.length
  const pick = (q: number) =>
    Number((samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0).toFixed(3))
  return { case: name, path, medianMs: pick(0.5), p99Ms: pick(0.99), items }
}

// ------------------------------------------------------------ a light request during a large trigger

const RECIPIENTS = 50_000
setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
const round = (ms: number) => Number(ms.toFixed(3))

interface Stall {
  case: string
  /** Time until the trigger answered (the part delivered before the answer). */
  answerMs: number
  /** Time until the last recipient's messages existed. */
  deliveredMs: number
  lightRequests: number
  medianMs: number
  p99Ms: number
  worstMs: number
}

/**
 * Sends the trigger while a light request (GET /v1/integrations/active) goes out every event-loop turn until the
 * last recipient has its message; each light request's time counts from the turn it was sent in to its answer,
 * so the trigger's part before its answer, and every slice after, is in some of them.
 */
async function stallDuring(name: string, path: string, body: unknown, isDone: (s: Service) => boolean): Promise<Stall> {
  const stallService = createService()
  generateSubscriptions(stallService, { topicKey: 'everyone', count: RECIPIENTS })
  generateSubscriptions(stallService, { topicKey: 'team', count: RECIPIENTS / 100 })
  collect()
  const auth = { authorization: `ApiKey ${stallService.apiKey}` }
  // Light requests go out every event-loop turn from before the trigger is sent until its last message exists,
  // so the trigger's own part before its answer is in them too.
  let triggered = false
  const samples: number[] = []
  const probe = (async () => {
    while (!triggered || !isDone(stallService)) {
      const sent = performance.now()
      await new Promise((resolve) => setImmediate(resolve))
      const response = await stallService.fetch(
        new Request('http://bench.test/v1/integrations/active', { headers: auth }),
      )
      await response.text()
      samples.push(performance.now() - sent)
    }
  })()
  await new Promise((resolve) => setImmediate(resolve))
  const start = performance.now()
  const answer = await stallService.fetch(
    new Request(`http://bench.test${path}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  )
  if (answer.status !== 201) throw new Error(`${name}: ${answer.status} ${await answer.text()}`)
  await answer.text()
  const answerMs = performance.now() - start
  triggered = true
  await probe
  const deliveredMs = performance.now() - start
  samples.sort((a, b) => a - b)
  return {
    case: name,
    answerMs: round(answerMs),
    deliveredMs: round(deliveredMs),
    lightRequests: samples.length,
    medianMs: round(quantile(samples, 0.5)),
    p99Ms: round(quantile(samples, 0.99)),
    worstMs: round(samples[samples.length - 1] ?? 0),
  }
}

const lastMember = `everyone-member-${String(RECIPIENTS - 1).padStart(5, '0')}`
const lastTeamMember = `team-member-${String(RECIPIENTS / 100 - 1).padStart(3, '0')}`
const stalls = [
  await stallDuring(
    `trigger to a topic of ${RECIPIENTS.toLocaleString('en')} (in_app + email)`,
    '/v1/events/trigger',
    {
      name: 'invoice-paid',
      to: { type: 'Topic', topicKey: 'everyone' },
      payload: { invoiceNumber: 'INV-1', amount: '$10' },
    },
    (s) => s.state.messages(lastMember).length > 0,
  ),
  await stallDuring(
    `trigger to ${RECIPIENTS.toLocaleString('en')} new subscriberIds (in_app + email)`,
    '/v1/events/trigger',
    {
      name: 'invoice-paid',
      to: Array.from({ length: RECIPIENTS }, (_, i) => `new-${i}`),
      payload: { invoiceNumber: 'INV-2' },
    },
    (s) => s.state.messages(`new-${RECIPIENTS - 1}`).length > 0,
  ),
  await stallDuring(
    `bulk of 100 events, each to a topic of ${(RECIPIENTS / 100).toLocaleString('en')} (in_app + email)`,
    '/v1/events/trigger/bulk',
    {
      events: Array.from({ length: 100 }, (_, i) => ({
        name: 'invoice-paid',
        to: { type: 'Topic', topicKey: 'team' },
        transactionId: `bulk-${i}`,
      })),
    },
    (s) => s.state.messages(lastTeamMember).some((m) => m.transactionId === 'bulk-99'),
  ),
]

// ------------------------------------------------------------ the idempotency store under fresh keys

const KEYS = 100_000

interface IdempotencyFigure {
  case: string
  keys: number
  requestBytes: number
  answerBytes: number
  entries: number
  /** What the store counts (UTF-16 strings plus a fixed overhead per entry). */
  countedMB: number
  /** Growth of the V8 heap after a full collection, store and all. */
  heapGrowthMB: number
  perKeyBytes: number
}

/** Keyed mark-as requests (2 ids each, toggling read) with a fresh key each: nothing else grows meanwhile. */
async function idempotencyMemory(name: string, keys: number, limits?: IdempotencyLimits): Promise<IdempotencyFigure> {
  const keyed = createService(limits ? { idempotency: limits } : {})
  generateMessages(keyed, { subscriberId: 'keyed-user', count: 100 })
  const ids = keyed.state.messages('keyed-user').map((m) => m._id)
  const headers = { authorization: `ApiKey ${keyed.apiKey}`, 'content-type': 'application/json' }
  const path = 'http://bench.test/v1/subscribers/keyed-user/messages/mark-as'
  const bodyOf = (i: number) =>
    JSON.stringify({ messageId: [ids[i % 100], ids[(i + 1) % 100]], markAs: i % 2 ? 'read' : 'unread' })
  collect()
  const before = process.memoryUsage().heapUsed
  let answerBytes = 0
  for (let i = 0; i < keys; i++) {
    const request = new Request(path, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': `bench-key-${i}` },
      body: bodyOf(i),
    })
    const response = await keyed.fetch(request)
    const text = await response.text()
    if (response.status !== 201) throw new Error(`${name}: ${response.status} ${text}`)
    answerBytes = text.length
  }
  collect()
  const growth = process.memoryUsage().heapUsed - before
  const usage = idempotencyUsage(keyed)
  return {
    case: name,
    keys,
    requestBytes: bodyOf(0).length,
    answerBytes,
    entries: usage.entries,
    countedMB: Number((usage.bytes / 1024 / 1024).toFixed(1)),
    heapGrowthMB: Number((growth / 1024 / 1024).toFixed(1)),
    perKeyBytes: Math.round(growth / keys),
  }
}

const idempotency = [
  await idempotencyMemory(`${KEYS.toLocaleString('en')} fresh keys, default bounds`, KEYS),
  await idempotencyMemory(`${KEYS.toLocaleString('en')} fresh keys, unbounded (as before)`, KEYS, {
    maxEntries: Infinity,
    maxBytes: Infinity,
  }),
]

// ------------------------------------------------------------ pages at scale

let t = performance.now()
generateMessages(service, { subscriberId: 'bench-user', count: MESSAGES, read: (i) => i % 2 === 0 })
const seedMessagesMs = performance.now() - t
t = performance.now()
generateSubscriptions(service, { topicKey: 'bench-topic', count: SUBSCRIPTIONS })
const seedSubscriptionsMs = performance.now() - t

const feed = '/v1/subscribers/bench-user/notifications/feed'
const topic = '/v2/topics/bench-topic/subscriptions'
const ids = service.state.subscriptions('bench-topic')
const middle = ids[SUBSCRIPTIONS / 2]!._id
const nearEnd = ids[SUBSCRIPTIONS - 500]!._id

const rows: Row[] = []
rows.push(await measure('feed page 0, limit 10', `${feed}?page=0&limit=10`))
rows.push(await measure('feed page 0, limit 100', `${feed}?page=0&limit=100`))
rows.push(await measure('feed page 999 (deep), limit 100', `${feed}?page=999&limit=100`))
rows.push(await measure('feed read=false page 0, limit 10', `${feed}?page=0&limit=10&read=false`))
rows.push(await measure('feed read=false page 499 (deep), limit 100', `${feed}?page=499&limit=100&read=false`))
rows.push(
  await measure('feed seen=false read=false page 250, limit 100', `${feed}?page=250&limit=100&read=false&seen=false`),
)
const messageIds = service.state.messages('bench-user').map((m) => m._id)
let flip = 0
rows.push(
  await measure(
    'mark-as 100 ids (read/unread), 100,000 messages',
    '/v1/subscribers/bench-user/messages/mark-as',
    () => {
      flip++
      const start = (flip * 100) % 50_000
      return { messageId: messageIds.slice(start, start + 100), markAs: flip % 2 ? 'read' : 'unread' }
    },
  ),
)
rows.push(await measure('topic first page (DESC) + totalCount, limit 100', `${topic}?limit=100`))
rows.push(
  await measure('topic after middle cursor, ASC, limit 100', `${topic}?limit=100&orderDirection=ASC&after=${middle}`),
)
rows.push(
  await measure(
    'topic before cursor near end, DESC, limit 100',
    `${topic}?limit=100&before=${nearEnd}&includeCursor=true`,
  ),
)
rows.push(await measure('topic filtered by subscriberId', `${topic}?subscriberId=bench-topic-member-0777777`))

for (const stall of stalls)
  rows.push({
    case: `light request during ${stall.case}`,
    path: '/v1/integrations/active',
    medianMs: stall.medianMs,
    p99Ms: stall.p99Ms,
    items: stall.lightRequests,
  })

console.log(
  `Seeded ${MESSAGES.toLocaleString('en')} messages in ${seedMessagesMs.toFixed(0)} ms, ` +
    `${SUBSCRIPTIONS.toLocaleString('en')} subscriptions in ${seedSubscriptionsMs.toFixed(0)} ms (${RUNS} runs per case)\n`,
)
console.log(['case'.padEnd(50), 'median ms'.padStart(10), 'p99 ms'.padStart(10), 'items'.padStart(6)].join(' '))
for (const row of rows)
  console.log(
    [
      row.case.padEnd(50),
      row.medianMs.toFixed(3).padStart(10),
      row.p99Ms.toFixed(3).padStart(10),
      String(row.items).padStart(6),
    ].join(' '),
  )

const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'service.json')
mkdirSync(dirname(out), { recursive: true })
writeFileSync(
  out,
  JSON.stringify(
    {
      command: 'npx tsx bench/service.ts',
      node: process.version,
      cpus: cpus().length,
      // Figures from a busy machine carry that in their tails (p99).
      loadAverage1m: Number(loadavg()[0]!.toFixed(2)),
      date: new Date().toISOString(),
      messages: MESSAGES,
      subscriptions: SUBSCRIPTIONS,
      runs: RUNS,
      seedMessagesMs: Math.round(seedMessagesMs),
      seedSubscriptionsMs: Math.round(seedSubscriptionsMs),
      results: rows,
      stalls,
      idempotency,
    },
    null,
    2,
  ) + '\n',
)
console.log('\nLight requests while a large trigger is delivered (each from the event-loop turn it was sent in):')
console.log(
  [
    'case'.padEnd(64),
    'answer ms'.padStart(10),
    'all ms'.padStart(8),
    'n'.padStart(6),
    'p99 ms'.padStart(8),
    'worst ms'.padStart(9),
  ].join(' '),
)
for (const s of stalls)
  console.log(
    [
      s.case.padEnd(64),
      s.answerMs.toFixed(1).padStart(10),
      s.deliveredMs.toFixed(0).padStart(8),
      String(s.lightRequests).padStart(6),
      s.p99Ms.toFixed(2).padStart(8),
      s.worstMs.toFixed(2).padStart(9),
    ].join(' '),
  )
console.log('\nIdempotency store under keyed mark-as requests with fresh keys:')
console.log(
  [
    'case'.padEnd(45),
    'entries'.padStart(8),
    'counted MB'.padStart(11),
    'heap +MB'.padStart(9),
    'B/key'.padStart(7),
  ].join(' '),
)
for (const f of idempotency)
  console.log(
    [
      f.case.padEnd(45),
      String(f.entries).padStart(8),
      f.countedMB.toFixed(1).padStart(11),
      f.heapGrowthMB.toFixed(1).padStart(9),
      String(f.perKeyBytes).padStart(7),
    ].join(' '),
  )
console.log(`(request ${idempotency[0]!.requestBytes} B, answer ${idempotency[0]!.answerBytes} B)`)
console.log(`\nWrote ${out}`)
