/**
 * Push, server side: the memory one open event stream holds and the time to fan one event out to 10,000 open
 * streams on one proxy process, in process (Response bodies read in the same process) and over loopback HTTP
 * (10,000 sockets read by a client in a child process); and the latency from a webhook posted to instance B to the
 * event read from a stream on instance A, through Redis pub/sub, and through the in-process broker for comparison.
 * Run: npx tsx bench/push.ts   (writes bench/results/push.json; needs redis-server)
 */
import { fork, execFileSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { cpus, loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createClient } from 'redis'
import { createService } from '../server'
import { bearerTokenAuth, createInboxProxy, createMemoryBroker, createSubscriberToken } from '../src/proxy'
import type { InboxEventBroker, NodeContext } from '../src/proxy'
import { createRedisBroker } from '../src/proxy/redis'
import { serveOverHttp } from '../test/proxy/http'
import { startRedis } from '../test/push/redisServer'
import { WEBHOOK_SECRET, messagePayload, signedWebhook } from '../test/push/sse'

const STREAMS = 10_000
const WEBHOOKS = 100
const SECRET = 'bench-push-secret-of-at-least-32-bytes!!'
const BASE = '/api/inbox'
const now = () => performance.timeOrigin + performance.now()
const round = (n: number, digits = 1) => Number(n.toFixed(digits))

// ------------------------------------------------------------------ the loopback client (a child process)

if (process.argv[2] === '--client') {
  const port = Number(process.argv[3])
  let tokens: string[] = []
  let arrived = 0
  let first = 0
  let last = 0
  const open = (token: string) =>
    new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: `${BASE}/events`,
          agent: false,
          headers: { authorization: `Bearer ${token}` },
        },
        (res) => {
          res.setEncoding('utf8')
          let seen = ''
          res.on('data', (chunk: string) => {
            seen += chunk
            if (seen.includes('event: ready')) {
              seen = seen.includes('event: message.created') ? seen : ''
              resolve()
            }
            if (seen.includes('event: message.created')) {
              const t = now()
              if (arrived++ === 0) first = t
              last = t
              seen = ''
              if (arrived === tokens.length) process.send!({ done: true, first, last })
            }
          })
          res.on('error', () => {})
        },
      )
      req.on('error', reject)
      req.end()
    })
  process.on('message', async (message: { tokens?: string[] }) => {
    if (!message.tokens) return
    tokens = message.tokens
    for (let at = 0; at < tokens.length; at += 250) await Promise.all(tokens.slice(at, at + 250).map(open))
    process.send!({ open: tokens.length })
  })
} else {
  await main()
}

// ------------------------------------------------------------------ the bench

async function main() {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  const settled = () => {
    for (let i = 0; i < 3; i++) gc()
    const { heapUsed, rss } = process.memoryUsage()
    return { heapUsed, rss }
  }
  const service = createService()
  const serviceFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
    service.fetch(new Request(input, init))) as typeof fetch
  const proxyWith = (broker?: InboxEventBroker, heartbeatMs = 25_000) =>
    createInboxProxy<NodeContext>({
      upstreamUrl: 'http://service.internal',
      apiKey: service.apiKey,
      basePath: BASE,
      authenticate: bearerTokenAuth(SECRET),
      fetch: serviceFetch,
      rateLimit: false,
      events: { webhookSecret: WEBHOOK_SECRET, heartbeatMs, ...(broker && { broker }) },
    })
  const ids = Array.from({ length: STREAMS }, (_, i) => `subscriber-${String(i).padStart(5, '0')}`)
  const tokens = await Promise.all(ids.map((id) => createSubscriberToken(id, SECRET, { expiresIn: 3600 })))

  // In process: Response bodies read by readers in this process.
  const inProcess = await (async () => {
    const proxy = proxyWith(createMemoryBroker({ maxSubscribers: STREAMS * 2 }))
    const before = settled()
    const readers: ReadableStreamDefaultReader<Uint8Array>[] = []
    for (const token of tokens) {
      const response = await proxy(
        new Request(`http://app.test${BASE}/events`, { headers: { authorization: `Bearer ${token}` } }),
      )
      const reader = response.body!.getReader()
      await reader.read()
      readers.push(reader)
    }
    const after = settled()
    const t0 = now()
    const arrivals = readers.map((reader) => reader.read().then(() => now()))
    await proxy.notify(ids, { type: 'message.created', messageIds: ['m1'] })
    const times = await Promise.all(arrivals)
    const result = {
      streams: STREAMS,
      heapBytesPerStream: Math.round((after.heapUsed - before.heapUsed) / STREAMS),
      fanOutMs: round(Math.max(...times) - t0),
      firstEventMs: round(Math.min(...times) - t0, 2),
    }
    proxy.closeStreams()
    await Promise.all(readers.map((r) => r.cancel()))
    return result
  })()
  console.log('in process', inProcess)

  // Loopback HTTP: the streams served by toNodeHandler, read by a client process.
  const loopback = await (async () => {
    const proxy = proxyWith(createMemoryBroker({ maxSubscribers: STREAMS * 2 }))
    const served = await serveOverHttp(proxy)
    served.server.maxConnections = STREAMS + 100
    const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--client', String(served.port)], {
      execArgv: ['--import', 'tsx'],
      stdio: 'inherit',
    })
    const next = <T>() => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)))
    const before = settled()
    const opening = now()
    const opened = next<{ open: number }>()
    child.send({ tokens })
    await opened
    const openSeconds = (now() - opening) / 1000
    const after = settled()
    const done = next<{ first: number; last: number }>()
    const t0 = now()
    await proxy.notify(ids, { type: 'message.created', messageIds: ['m1'] })
    const notified = now()
    const { first, last } = await done
    child.kill()
    proxy.closeStreams()
    await served.close()
    return {
      streams: STREAMS,
      openSeconds: round(openSeconds, 1),
      heapBytesPerStream: Math.round((after.heapUsed - before.heapUsed) / STREAMS),
      rssBytesPerStream: Math.round((after.rss - before.rss) / STREAMS),
      notifyReturnedMs: round(notified - t0),
      firstEventReadMs: round(first - t0),
      fanOutMs: round(last - t0),
    }
  })()
  console.log('loopback HTTP', loopback)

  // Webhook on B → event read from a stream on A, one at a time.
  const latency = async (brokers: [InboxEventBroker, InboxEventBroker]) => {
    const [a, b] = [proxyWith(brokers[0]), proxyWith(brokers[1])]
    const [servedA, servedB] = [await serveOverHttp(a), await serveOverHttp(b)]
    const response = await fetch(`http://127.0.0.1:${servedA.port}${BASE}/events`, {
      headers: { authorization: `Bearer ${tokens[0]}` },
    })
    const reader = response.body!.getReader()
    const decoder = new TextDecoder()
    let text = decoder.decode((await reader.read()).value)
    const times: number[] = []
    for (let i = 0; i < WEBHOOKS; i++) {
      const hook = signedWebhook('http://x/', messagePayload(ids[0]!, [`m${i}`]))
      const body = await hook.text()
      const t0 = now()
      const posted = await fetch(`http://127.0.0.1:${servedB.port}${BASE}/webhooks/messages`, {
        method: 'POST',
        headers: hook.headers,
        body,
      })
      if (posted.status !== 204) throw new Error(`webhook answered ${posted.status}`)
      while (!text.includes(`"m${i}"`)) text += decoder.decode((await reader.read()).value)
      times.push(now() - t0)
      text = ''
    }
    await reader.cancel()
    a.closeStreams()
    b.closeStreams()
    await Promise.all([servedA.close(), servedB.close()])
    times.sort((x, y) => x - y)
    const at = (q: number) => round(times[Math.min(times.length - 1, Math.floor(q * times.length))]!, 2)
    return { webhooks: WEBHOOKS, p50Ms: at(0.5), p95Ms: at(0.95), maxMs: round(times.at(-1)!, 2) }
  }

  const redis = await startRedis()
  const connect = async () => {
    const client = createClient({ url: redis.url })
    client.on('error', () => {})
    return client.connect()
  }
  const clients = await Promise.all([connect(), connect(), connect(), connect()])
  const redisLatency = await latency([
    createRedisBroker({ client: clients[0], subscriber: clients[1], prefix: 'bench' }),
    createRedisBroker({ client: clients[2], subscriber: clients[3], prefix: 'bench' }),
  ])
  console.log('webhook on B → stream on A, through Redis', redisLatency)
  const shared = createMemoryBroker()
  const memoryLatency = await latency([shared, shared])
  console.log('webhook → stream, one process, in-process broker', memoryLatency)
  for (const client of clients) client.destroy()
  await redis.stop()

  let redisVersion = ''
  try {
    redisVersion = /v=(\S+)/.exec(execFileSync('redis-server', ['--version'], { encoding: 'utf8' }))?.[1] ?? ''
  } catch {
    // Reported blank.
  }
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'push.json')
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(
    out,
    JSON.stringify(
      {
        command: 'npx tsx bench/push.ts',
        date: new Date().toISOString(),
        node: process.version,
        redis: redisVersion,
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? '',
        loadAverage1m: round(loadavg()[0]!, 2),
        inProcess,
        loopback,
        webhookToStream: { redis: redisLatency, inProcessBroker: memoryLatency },
      },
      null,
      2,
    ) + '\n',
  )
  console.log(`wrote ${out}`)
  process.exit(0)
}
