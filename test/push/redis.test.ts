import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createInboxProxy, createSubscriberToken, bearerTokenAuth } from '../../src/proxy'
import type { InboxEventsOptions, InboxProxyOptions, NodeContext } from '../../src/proxy'
import { createRedisBroker, createRedisRateLimitStore } from '../../src/proxy/redis'
import { BASE_PATH, SECRET, proxyFixture } from '../proxy/harness'
import { serveOverHttp } from '../proxy/http'
import { BASE_URL, startService } from '../support/service'
import { startRedis, type RedisServer } from './redisServer'
import { WEBHOOK_SECRET, messagePayload, readStream, signedWebhook } from './sse'

let redis: RedisServer
const clients: { destroy(): void }[] = []
const servers: { close(): Promise<void> }[] = []
const { service, fetch: serviceFetch } = startService({ fixture: proxyFixture() })

async function connect() {
  const client = createClient({ url: redis.url })
  client.on('error', () => {})
  await client.connect()
  clients.push(client)
  return client
}

/** One instance of the app: its own Redis connections, its own proxy, served over real HTTP. */
async function instance(
  options: { events?: InboxEventsOptions; rateLimit?: InboxProxyOptions['rateLimit']; prefix?: string } = {},
) {
  const client = await connect()
  const subscriber = await connect()
  const broker = createRedisBroker({ client, subscriber, prefix: options.prefix ?? 'test', bufferSize: 3 })
  const proxy = createInboxProxy<NodeContext>({
    upstreamUrl: BASE_URL,
    apiKey: service.apiKey,
    basePath: BASE_PATH,
    authenticate: bearerTokenAuth(SECRET),
    fetch: serviceFetch,
    rateLimit: options.rateLimit ?? false,
    events: { webhookSecret: WEBHOOK_SECRET, broker, ...options.events },
  })
  const served = await serveOverHttp(proxy)
  servers.push(served)
  const base = `http://127.0.0.1:${served.port}${BASE_PATH}`
  return { proxy, client, base }
}

const bearer = async (id: string) => ({
  authorization: `Bearer ${await createSubscriberToken(id, SECRET, { expiresIn: 600 })}`,
})

/** A stream over real HTTP, read as the browser will (fetch with a Bearer header). */
async function stream(base: string, subscriberId: string, headers: Record<string, string> = {}) {
  const response = await fetch(base + '/events', { headers: { ...(await bearer(subscriberId)), ...headers } })
  expect(response.status).toBe(200)
  return readStream(response.body!)
}

/** Posts a signed webhook over HTTP. */
async function post(base: string, request: Request) {
  return fetch(base + '/webhooks/messages', { method: 'POST', headers: request.headers, body: await request.text() })
}

beforeAll(async () => {
  redis = await startRedis()
})
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
  for (const client of clients) client.destroy()
  await redis?.stop()
})

describe('the Redis broker, two instances over real HTTP', () => {
  let a: Awaited<ReturnType<typeof instance>>
  let b: Awaited<ReturnType<typeof instance>>
  beforeAll(async () => {
    a = await instance()
    b = await instance()
  })

  it('streams on instance A a webhook that instance B received, to that subscriber only', async () => {
    const mine = await stream(a.base, 'user-1')
    const theirs = await stream(b.base, 'user-2')
    expect((await mine.next())?.event).toBe('ready')
    expect((await theirs.next())?.event).toBe('ready')

    const hook = signedWebhook('http://x/', messagePayload('user-1', ['m1']))
    expect((await post(b.base, hook)).status).toBe(204)
    expect(JSON.parse((await mine.next())!.data!)).toEqual({ type: 'message.created', messageIds: ['m1'] })

    // Published on A, read on B: user-2's first event is their own.
    await a.proxy.notify(['user-2'], { type: 'message.updated', messageIds: ['m2'] })
    expect(JSON.parse((await theirs.next())!.data!)).toEqual({ type: 'message.updated', messageIds: ['m2'] })
    expect(mine.pending()).toEqual([])
    await Promise.all([mine.cancel(), theirs.cancel()])
  })

  it('treats a webhook-id accepted by one instance as a replay on the other', async () => {
    const hook = signedWebhook('http://x/', messagePayload('user-1', ['m1']), { id: 'msg_shared' })
    const again = hook.clone()
    expect((await post(a.base, hook)).status).toBe(204)
    const replay = await post(b.base, again)
    expect(replay.status).toBe(401)
    expect(((await replay.json()) as { message: string }).message).toMatch(/already received/)
  })

  it('resumes on B from an id that A gave, and sends reset once the buffer has moved past it', async () => {
    const first = await stream(a.base, 'user-1')
    const ready = (await first.next())!
    await first.cancel()
    await a.proxy.notify(['user-1'], { type: 'message.created', messageIds: ['x'] })
    await a.proxy.notify(['user-1'], { type: 'message.created', messageIds: ['y'] })

    const resumed = await stream(b.base, 'user-1', { 'last-event-id': ready.id! })
    const missed = [(await resumed.next())!, (await resumed.next())!]
    expect(missed.map((e) => JSON.parse(e.data!).messageIds[0])).toEqual(['x', 'y'])
    expect((await resumed.next())?.event).toBe('ready')
    await resumed.cancel()

    // A buffer of three: after three more, `x` is gone and the resume from the first id cannot be complete.
    await a.proxy.notify(['user-1', 'user-1', 'user-2'], { type: 'message.created', messageIds: ['z1'] })
    await b.proxy.notify(['user-1'], { type: 'message.created', messageIds: ['z2'] })
    await b.proxy.notify(['user-1'], { type: 'message.created', messageIds: ['z3'] })
    const late = await stream(b.base, 'user-1', { 'last-event-id': ready.id! })
    expect((await late.next())?.event).toBe('reset')
    await late.cancel()
    const fromX = await stream(a.base, 'user-1', { 'last-event-id': missed[0]!.id! })
    expect((await fromX.next())?.event).toBe('reset')
    await fromX.cancel()
    const fromY = await stream(a.base, 'user-1', { 'last-event-id': missed[1]!.id! })
    expect(
      [(await fromY.next())!, (await fromY.next())!, (await fromY.next())!].map(
        (e) => JSON.parse(e.data!).messageIds[0],
      ),
    ).toEqual(['z1', 'z2', 'z3'])
    await fromY.cancel()
  })

  it('lets clients resume what they missed while the subscribing connection was down, by closing streams on its return', async () => {
    const client = await connect()
    const subscriber = await connect()
    const subscriberId = String(await subscriber.sendCommand(['CLIENT', 'ID']))
    const proxy = createInboxProxy<NodeContext>({
      upstreamUrl: BASE_URL,
      apiKey: service.apiKey,
      basePath: BASE_PATH,
      authenticate: bearerTokenAuth(SECRET),
      fetch: serviceFetch,
      events: { broker: createRedisBroker({ client, subscriber, prefix: 'test' }) },
    })
    // The README's line: a subscribing connection back from a drop may have missed events; clients resume them.
    subscriber.on('ready', () => proxy.closeStreams())
    const served = await serveOverHttp(proxy)
    servers.push(served)
    const base = `http://127.0.0.1:${served.port}${BASE_PATH}`
    const first = await stream(base, 'user-1')
    const ready = (await first.next())!
    await client.sendCommand(['CLIENT', 'KILL', 'ID', subscriberId])
    await b.proxy.notify(['user-1'], { type: 'message.created', messageIds: ['while-down'] })
    await first.ended
    const seen = first.events.slice(1)
    const lastId = seen.at(-1)?.id ?? ready.id!
    const resumed = await stream(base, 'user-1', { 'last-event-id': lastId })
    for (let e = await resumed.next(); e && e.event !== 'ready'; e = await resumed.next()) seen.push(e)
    expect(seen.map((e) => JSON.parse(e.data!).messageIds[0])).toEqual(['while-down'])
    await resumed.cancel()
  })

  it('answers 503, and claims nothing, while Redis cannot be reached', async () => {
    const client = await connect()
    const subscriber = await connect()
    const broken = createInboxProxy({
      upstreamUrl: BASE_URL,
      apiKey: service.apiKey,
      basePath: BASE_PATH,
      authenticate: bearerTokenAuth(SECRET),
      fetch: serviceFetch,
      timeout: 300,
      events: { webhookSecret: WEBHOOK_SECRET, broker: createRedisBroker({ client, subscriber, prefix: 'test' }) },
    })
    client.destroy()
    subscriber.destroy()
    const opened = await broken(
      new Request('http://app.test' + BASE_PATH + '/events', { headers: await bearer('user-1') }),
    )
    expect(opened.status).toBe(503)
    expect(opened.headers.get('retry-after')).toBe('5')
    const hook = signedWebhook('http://app.test' + BASE_PATH + '/webhooks/messages', messagePayload('user-1', ['m']), {
      id: 'msg_later',
    })
    expect((await broken(hook)).status).toBe(503)
    // The id was not taken: once Redis is back, the retry goes through.
    expect(
      (await post(a.base, signedWebhook('http://x/', messagePayload('user-1', ['m']), { id: 'msg_later' }))).status,
    ).toBe(204)
  })
})

describe('the Redis rate-limit store', () => {
  it('holds one subscriber’s limit across two instances', async () => {
    const client = await connect()
    const rateLimit = { limit: 4, windowMs: 60_000, store: createRedisRateLimitStore({ client, prefix: 'rate-test' }) }
    const a = await instance({ rateLimit })
    const b = await instance({ rateLimit })
    const feed = '/v1/subscribers/user-1/notifications/feed?limit=1'
    const statuses: number[] = []
    for (const base of [a.base, b.base, a.base, b.base, a.base, b.base]) {
      statuses.push((await fetch(base + feed, { headers: await bearer('user-1') })).status)
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429])
    const refused = await fetch(b.base + feed, { headers: await bearer('user-1') })
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    // Another subscriber has a bucket of their own.
    expect(
      (await fetch(a.base + '/v2/subscribers/user-2/preferences', { headers: await bearer('user-2') })).status,
    ).toBe(200)
  })

  it('takes atomically: of 40 requests at once against a limit of 10, exactly 10 go ahead', async () => {
    const [one, two] = [await connect(), await connect()]
    const stores = [
      createRedisRateLimitStore({ client: one, prefix: 'atomic' }),
      createRedisRateLimitStore({ client: two, prefix: 'atomic' }),
    ]
    const now = Date.now()
    const verdicts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => stores[i % 2]!.take('user-1', 1, now, { limit: 10, windowMs: 60_000 })),
    )
    expect(verdicts.filter((v) => v.ok)).toHaveLength(10)
    const refused = verdicts.filter((v) => !v.ok)
    expect(refused.every((v) => v.retryAfterMs > 0 && v.retryAfterMs <= 6_000)).toBe(true)
    // The bucket refills evenly: one request's worth (6 s) later, exactly one more may go.
    const later = await stores[0]!.take('user-1', 1, now + 6_000, { limit: 10, windowMs: 60_000 })
    const again = await stores[1]!.take('user-1', 1, now + 6_000, { limit: 10, windowMs: 60_000 })
    expect([later.ok, again.ok]).toEqual([true, false])
  })
})
