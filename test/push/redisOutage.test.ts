/**
 * Redis going away under two instances of the README's "Several instances" recipe, run as the README has it (its
 * code block, written out as a module per instance): the processes survive the outage, requests do not wait for
 * Redis, and once it is back everything is shared again without anyone stepping in.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createSubscriberToken, toNodeHandler } from '../../src/proxy'
import type { InboxProxyHandler, NodeContext } from '../../src/proxy'
import { createService } from '../../server'
import { proxyFixture, SECRET } from '../proxy/harness'
import { serveOverHttp } from '../proxy/http'
import { startRedis, type RedisServer } from './redisServer'
import { WEBHOOK_SECRET, messagePayload, readStream, signedWebhook } from './sse'

/** How long a request may take while Redis is down. */
const BOUND_MS = 3_000
const FEED = '/v1/subscribers/user-1/notifications/feed?limit=1'
const RATE_KEY = 'inbox-kit:rate:user-1'

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))

/** The README's code block that sets up the Redis broker and store, its imports pointed at the sources. */
function recipeSource(): string {
  const readme = readFileSync(here('../../README.md'), 'utf8')
  const block = [...readme.matchAll(/^```ts\s*$([\s\S]*?)^```\s*$/gm)]
    .map((m) => m[1]!)
    .find((code) => code.includes('createRedisBroker('))
  if (!block) throw new Error('The README has no code block that calls createRedisBroker.')
  const sources: Record<string, string> = {
    'inbox-kit/proxy': here('../../src/proxy/index.ts'),
    'inbox-kit/proxy/redis': here('../../src/proxy/redis.ts'),
    // Written outside the repository, the module finds `redis` by path.
    redis: createRequire(import.meta.url).resolve('redis'),
  }
  const code = block.replace(/from '([^']+)'/g, (whole, name: string) =>
    sources[name] ? `from ${JSON.stringify(sources[name])}` : whole,
  )
  // The recipe's connections, for the test to watch and to close.
  return `${code}\nexport { client, subscriber }\n`
}

interface RecipeClient {
  readonly isReady: boolean
  destroy(): void
}

interface Instance {
  inboxProxy: InboxProxyHandler<NodeContext>
  client: RecipeClient
  subscriber: RecipeClient
  base: string
}

let redis: RedisServer
let upstream: Server
let dir: string
let a: Instance
let b: Instance
/** The test's own connection, to look at what the instances keep in Redis. */
let probe: ReturnType<typeof createClient>
const servers: { close(): Promise<void> }[] = []
const errorLog = vi.spyOn(console, 'error').mockImplementation(() => {})

async function instance(name: string): Promise<Instance> {
  const file = join(dir, `${name}.ts`)
  writeFileSync(file, recipeSource())
  const recipe = (await import(/* @vite-ignore */ file)) as Omit<Instance, 'base'>
  const served = await serveOverHttp(recipe.inboxProxy)
  servers.push(served)
  return { ...recipe, base: `http://127.0.0.1:${served.port}/api/inbox` }
}

const bearer = async (id: string) => ({
  authorization: `Bearer ${await createSubscriberToken(id, SECRET, { expiresIn: 600 })}`,
})

/**
 * A request as user-1 whose answer must start within {@link BOUND_MS}: otherwise it is aborted, failing the test
 * rather than running into the test's timeout. A stream's body may then last as long as it likes.
 */
async function within(url: string, init: RequestInit = {}) {
  const headers = { ...(await bearer('user-1')), ...(init.headers as Record<string, string> | undefined) }
  const late = new AbortController()
  const timer = setTimeout(() => late.abort(new Error(`${url}: no answer within ${BOUND_MS} ms`)), BOUND_MS)
  const started = performance.now()
  try {
    const response = await fetch(url, { ...init, headers, signal: late.signal })
    return { response, ms: performance.now() - started }
  } finally {
    clearTimeout(timer)
  }
}

/** Waits until every connection of both instances is `ready`, or throws. */
async function allReady(timeoutMs = 8_000) {
  const deadline = Date.now() + timeoutMs
  const all = () => [a.client, a.subscriber, b.client, b.subscriber]
  while (!all().every((c) => c.isReady)) {
    if (Date.now() > deadline) throw new Error('the recipe’s clients did not reconnect')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** Both instances refuse user-1 while the bucket in Redis is full, and serve them once it is empty again. */
async function sharedLimit() {
  // The store keeps the time at which the bucket is full again (GCRA). Two windows from now: nothing is left, and
  // nothing however long the requests take to come (at one window it had room again a tenth of a second later,
  // and on a loaded machine they came later than that).
  await probe.sendCommand(['SET', RATE_KEY, String(Date.now() + 120_000), 'PX', '120000'])
  for (const base of [a.base, b.base]) expect((await within(base + FEED)).response.status).toBe(429)
  await probe.sendCommand(['DEL', RATE_KEY])
  for (const base of [a.base, b.base]) expect((await within(base + FEED)).response.status).toBe(200)
}

beforeAll(async () => {
  redis = await startRedis()
  const service = createService({ fixture: proxyFixture() })
  upstream = createServer(toNodeHandler((request) => service.fetch(request)))
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  Object.assign(process.env, {
    REDIS_URL: redis.url,
    INBOX_API_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    INBOX_API_KEY: service.apiKey,
    INBOX_TOKEN_SECRET: SECRET,
    INBOX_WEBHOOK_SECRET: WEBHOOK_SECRET,
  })
  dir = mkdtempSync(join(tmpdir(), 'inbox-kit-recipe-'))
  a = await instance('a')
  b = await instance('b')
  probe = createClient({ url: redis.url })
  probe.on('error', () => {})
  await probe.connect()
})

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
  for (const c of [a?.client, a?.subscriber, b?.client, b?.subscriber, probe]) c?.destroy()
  await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()))
  await redis?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
  errorLog.mockRestore()
})

describe('the README’s Redis recipe, two instances, Redis killed and started again', () => {
  it('shares the rate limit and carries events across the instances while Redis is up', async () => {
    await allReady()
    await sharedLimit()

    const stream = readStream((await within(a.base + '/events')).response.body!)
    expect((await stream.next())?.event).toBe('ready')
    await b.inboxProxy.notify(['user-1'], { type: 'message.created', messageIds: ['before'] })
    expect(JSON.parse((await stream.next())!.data!)).toEqual({ type: 'message.created', messageIds: ['before'] })
    await stream.cancel()
  })

  it('survives Redis going away, and answers at once meanwhile: the feed 200, /events and webhooks 503', async () => {
    // A stream open when Redis goes: the recipe closes it once the subscribing connection is back.
    const open = readStream((await within(a.base + '/events')).response.body!)
    expect((await open.next())?.event).toBe('ready')
    await redis.kill()
    try {
      await whileDown()
      expect(open.isDone()).toBe(false)
    } finally {
      redis = await startRedis(redis.port)
    }
    await allReady()
    // Back on the subscribing connection, the recipe closes the streams, and the clients resume.
    await vi.waitFor(() => expect(open.isDone()).toBe(true), { timeout: BOUND_MS })
  })

  /** What the instances answer, and how soon, with Redis gone. */
  async function whileDown() {
    // An 'error' nobody listens for would be thrown out of node-redis's socket handler, failing the run.
    await vi.waitFor(() => expect([a, b].some((i) => i.client.isReady || i.subscriber.isReady)).toBe(false))
    expect(errorLog).toHaveBeenCalled()

    // The rate-limit store cannot be asked: the request goes through.
    for (const base of [a.base, b.base]) {
      const { response, ms } = await within(base + FEED)
      expect(response.status).toBe(200)
      expect(ms).toBeLessThan(BOUND_MS)
    }
    const events = await within(b.base + '/events')
    expect(events.response.status).toBe(503)
    expect(events.response.headers.get('retry-after')).toBe('5')
    expect(events.ms).toBeLessThan(BOUND_MS)

    const hook = signedWebhook('http://x/', messagePayload('user-1', ['m']))
    const posted = await within(a.base + '/webhooks/messages', {
      method: 'POST',
      headers: Object.fromEntries(hook.headers),
      body: await hook.text(),
    })
    expect(posted.response.status).toBe(503)
    expect(posted.response.headers.get('retry-after')).toBe('5')
    await expect(a.inboxProxy.notify(['user-1'])).rejects.toThrow()
  }

  it('shares the rate limit and carries events across the instances again once Redis is back', async () => {
    await vi.waitFor(() => expect(probe.isReady).toBe(true), { timeout: 5_000 })
    await sharedLimit()

    const stream = readStream((await within(a.base + '/events')).response.body!)
    expect((await stream.next())?.event).toBe('ready')
    await b.inboxProxy.notify(['user-1'], { type: 'message.updated', messageIds: ['after'] })
    expect(JSON.parse((await stream.next())!.data!)).toEqual({ type: 'message.updated', messageIds: ['after'] })
    await stream.cancel()
  })
})
