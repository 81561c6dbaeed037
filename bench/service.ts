/**
 * Latency of the reference service's pages at scale, in process (no network):
 * feed pages at 100,000 messages for one subscriber and cursor pages at 1,000,000 subscriptions on one topic.
 * Run: npx tsx bench/service.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createService, generateMessages, generateSubscriptions } from '../server'

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
    ? ((body() as { messageId: string[] }).messageId.length)
    : ((await (await service.fetch(new Request(`http://bench.test${path}`, { headers }))).json()) as { data: unknown[] }).data.length
  const pick = (q: number) => Number((samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0).toFixed(3))
  return { case: name, path, medianMs: pick(0.5), p99Ms: pick(0.99), items }
}

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
rows.push(await measure('feed seen=false read=false page 250, limit 100', `${feed}?page=250&limit=100&read=false&seen=false`))
const messageIds = service.state.messages('bench-user').map((m) => m._id)
let flip = 0
rows.push(
  await measure('mark-as 100 ids (read/unread), 100,000 messages', '/v1/subscribers/bench-user/messages/mark-as', () => {
    flip++
    const start = (flip * 100) % 50_000
    return { messageId: messageIds.slice(start, start + 100), markAs: flip % 2 ? 'read' : 'unread' }
  }),
)
rows.push(await measure('topic first page (DESC) + totalCount, limit 100', `${topic}?limit=100`))
rows.push(await measure('topic after middle cursor, ASC, limit 100', `${topic}?limit=100&orderDirection=ASC&after=${middle}`))
rows.push(await measure('topic before cursor near end, DESC, limit 100', `${topic}?limit=100&before=${nearEnd}&includeCursor=true`))
rows.push(await measure('topic filtered by subscriberId', `${topic}?subscriberId=bench-topic-member-0777777`))

console.log(`Seeded ${MESSAGES.toLocaleString('en')} messages in ${seedMessagesMs.toFixed(0)} ms, ` +
  `${SUBSCRIPTIONS.toLocaleString('en')} subscriptions in ${seedSubscriptionsMs.toFixed(0)} ms (${RUNS} runs per case)\n`)
console.log(['case'.padEnd(50), 'median ms'.padStart(10), 'p99 ms'.padStart(10), 'items'.padStart(6)].join(' '))
for (const row of rows)
  console.log(
    [row.case.padEnd(50), row.medianMs.toFixed(3).padStart(10), row.p99Ms.toFixed(3).padStart(10), String(row.items).padStart(6)].join(' '),
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
    },
    null,
    2,
  ) + '\n',
)
console.log(`\nWrote ${out}`)
