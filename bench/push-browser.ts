/**
 * Push, end to end, in Chromium: a trigger to the reference service → its signed webhook to proxy instance B →
 * Redis pub/sub → the event stream of instance A → the kit in the browser looks → the new count on the bell.
 * p50 and p95 over 50 triggers; and the requests the open inbox sends per minute while the stream is healthy.
 * Run: npx tsx bench/push-browser.ts   (writes bench/results/push-browser.json; needs redis-server and chromium)
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { createClient } from 'redis'
import { createService, demoFixture } from '../server'
import { bearerTokenAuth, createInboxProxy, createSubscriberToken } from '../src/proxy'
import { createRedisBroker } from '../src/proxy/redis'
import { launchBrowser } from '../test/support/browser'
import { startRedis } from '../test/push/redisServer'
import { buildPage, servePage } from './pages'

const TRIGGERS = Number(process.argv.find((a) => a.startsWith('--triggers='))?.slice(11) ?? 50)
const SECRET = 'bench-push-browser-secret-of-32-bytes!!'
const WEBHOOK_SECRET = 'whsec_' + Buffer.from('bench-push-browser-webhook-secret').toString('base64')
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

export async function pushBrowser() {
  const redis = await startRedis()
  const clients: { quit(): Promise<unknown> }[] = []
  const broker = async () => {
    const client = await createClient({ url: redis.url }).connect()
    const subscriber = await client.duplicate().connect()
    clients.push(client, subscriber)
    return createRedisBroker({ client, subscriber })
  }
  let instanceB = ''
  const service = createService({
    fixture: demoFixture,
    webhooks: {
      url: 'http://instance-b.invalid/api/inbox/webhooks/messages',
      secret: WEBHOOK_SECRET,
      fetch: (input, init) => fetch(String(input).replace('http://instance-b.invalid', instanceB), init),
    },
  })
  const proxy = async () =>
    createInboxProxy({
      upstreamUrl: 'http://service.invalid',
      fetch: (input, init) => service.fetch(new Request(input, init)),
      apiKey: service.apiKey,
      basePath: '/api/inbox',
      authenticate: bearerTokenAuth(SECRET),
      rateLimit: false,
      events: { webhookSecret: WEBHOOK_SECRET, broker: await broker() },
    })
  const dir = await buildPage(here('./pages/push.tsx'))
  const a = await servePage(dir, await proxy())
  const b = await servePage(dir, await proxy())
  instanceB = b.url
  const browser = await launchBrowser()
  try {
    const token = await createSubscriberToken('demo-user', SECRET, { expiresIn: 3600 })
    const page = await browser.newPage()
    const sent: string[] = []
    page.on('request', (r) => sent.push(r.url()))
    await page.goto(`${a.url}/?token=${token}`)
    const bell = page.locator('button[aria-haspopup]').first()
    await bell.waitFor()
    // Give the kit its leader election and the stream its first connection.
    await page.waitForTimeout(2000)

    const count = () => bell.getAttribute('data-count').then(Number)
    const times: number[] = []
    for (let i = 0; i < TRIGGERS; i++) {
      const before = await count()
      const started = Date.now()
      const answer = await service.fetch(
        new Request('http://service.invalid/v1/events/trigger', {
          method: 'POST',
          headers: { authorization: `ApiKey ${service.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'comment-mention', to: 'demo-user', payload: { n: i } }),
        }),
      )
      if (answer.status !== 201) throw new Error(`trigger answered ${answer.status}`)
      await page.waitForFunction(
        (n) => Number(document.querySelector('button[aria-haspopup]')?.getAttribute('data-count')) > n,
        before,
        { timeout: 30_000, polling: 'raf' },
      )
      times.push(Date.now() - started)
      await page.waitForTimeout(150)
    }
    await service.webhooks.idle()

    // A quiet minute with the stream open: what the open inbox sends.
    const from = sent.length
    await page.waitForTimeout(60_000)
    const quiet = sent.slice(from).filter((u) => u.includes('/api/inbox/'))
    const sorted = [...times].sort((x, y) => x - y)
    return {
      date: new Date().toISOString(),
      command: 'npx tsx bench/push-browser.ts',
      machine: { cpus: cpus().length, loadAverage: loadavg()[0] },
      triggers: TRIGGERS,
      triggerToCountMs: { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1] },
      quietMinute: { requests: quiet.length, streams: quiet.filter((u) => u.endsWith('/events')).length },
      path: 'trigger → service webhook → instance B → Redis → instance A stream → Chromium → count on the bell',
    }
  } finally {
    await browser.close()
    await a.close()
    await b.close()
    for (const c of clients) await c.quit().catch(() => {})
    await redis.stop()
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await pushBrowser()
  console.log(JSON.stringify(result, null, 2))
  mkdirSync(here('./results'), { recursive: true })
  writeFileSync(here('./results/push-browser.json'), JSON.stringify(result, null, 2) + '\n')
}
