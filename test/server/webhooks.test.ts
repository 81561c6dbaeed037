import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it } from 'vitest'
import { createService } from '../../server'
import type { WebhookOptions } from '../../server'
import { bearerTokenAuth, createInboxProxy } from '../../src/proxy'
import { buildFixture, delayStep, inApp, subscriber, topic, workflow } from '../support/fixtures'
import { BASE_URL } from '../support/service'
import { WEBHOOK_SECRET, readStream } from '../push/sse'
import { SECRET } from '../proxy/harness'
import { createSubscriberToken } from '../../src/proxy'
import { startCli } from './spawn'

interface Received {
  headers: IncomingMessage['headers']
  body: string
  at: number
}

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
})

/**
 * A webhook receiver on a loopback port. `answer` decides each response (status, or 'hold' to keep it open until
 * `release`); every request is recorded in arrival order.
 */
async function receiver(answer: (n: number) => number | 'hold' = () => 204) {
  const received: Received[] = []
  const held: ServerResponse[] = []
  const arrivals = new Set<() => void>()
  const server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (d: string) => (body += d))
    req.on('end', () => {
      received.push({ headers: req.headers, body, at: Date.now() })
      for (const wake of arrivals) wake()
      const verdict = answer(received.length)
      if (verdict === 'hold') held.push(res)
      else res.writeHead(verdict).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  )
  const count = (n: number, timeoutMs = 5_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (received.length < n) return
        arrivals.delete(check)
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(() => reject(new Error(`${received.length} of ${n} webhooks arrived`)), timeoutMs)
      arrivals.add(check)
      check()
    })
  const release = (status: number) => held.shift()!.writeHead(status).end()
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, count, release }
}

const verifier = new Webhook(WEBHOOK_SECRET)
/** The payload of a received webhook, after checking its signature as a receiver would. */
function verified(hook: Received) {
  return verifier.verify(hook.body, hook.headers as Record<string, string>) as {
    type: string
    timestamp: string
    data: { subscriberId: string; environmentId: string; messageIds: string[] }
  }
}

function serviceWith(webhooks: Omit<WebhookOptions, 'secret'>, fixture = buildFixture(), now?: () => number) {
  const service = createService({ fixture, webhooks: { secret: WEBHOOK_SECRET, ...webhooks }, ...(now && { now }) })
  const call = (path: string, body: unknown) =>
    service.fetch(
      new Request(BASE_URL + path, {
        method: 'POST',
        headers: { authorization: `ApiKey ${service.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    )
  return { service, call }
}

describe('the reference service’s webhooks', () => {
  it('posts a signed message.created after answering the trigger, and retries with backoff until the receiver takes it', async () => {
    const hooks = await receiver((n) => (n === 1 ? 'hold' : n === 2 ? 500 : 204))
    const { service, call } = serviceWith({ url: hooks.url, retryDelayMs: 50 })
    const trigger = await call('/v1/events/trigger', { name: 'test-workflow', to: 'user-1' })
    expect(trigger.status).toBe(201)
    // Answered while the receiver still holds the first attempt: the webhook never delays the trigger.
    await hooks.count(1)
    expect(service.webhooks.delivered).toBe(0)
    hooks.release(503)
    await hooks.count(3)
    await service.webhooks.idle()

    const [first, second, third] = hooks.received as [Received, Received, Received]
    const message = service.state.messages('user-1')[0]!
    for (const hook of hooks.received) {
      expect(verified(hook)).toEqual({
        type: 'message.created',
        timestamp: message.createdAt,
        data: { subscriberId: 'user-1', environmentId: 'env-test', messageIds: [message._id] },
      })
      expect(hook.body).not.toContain(message.content)
    }
    // One webhook tried three times: one id, each attempt signed anew.
    expect(new Set(hooks.received.map((h) => h.headers['webhook-id'])).size).toBe(1)
    expect(first.headers['webhook-id']).toMatch(/^msg_/)
    // The waits double: 50 ms, then 100 ms.
    expect(third.at - second.at).toBeGreaterThanOrEqual(95)
    expect({
      delivered: service.webhooks.delivered,
      failed: service.webhooks.failed,
      attempts: service.webhooks.attempts,
    }).toEqual({
      delivered: 1,
      failed: 0,
      attempts: 3,
    })
  })

  it('posts message.updated after mark-as, and gives up at once on a 4xx that retrying cannot fix', async () => {
    const hooks = await receiver(() => 400)
    const { service, call } = serviceWith({ url: hooks.url, retryDelayMs: 10 })
    await call('/v1/events/trigger', { name: 'test-workflow', to: 'user-1' })
    await service.webhooks.idle()
    const id = service.state.messages('user-1')[0]!._id
    expect((await call('/v1/subscribers/user-1/messages/mark-as', { messageId: [id], markAs: 'read' })).status).toBe(
      201,
    )
    await service.webhooks.idle()
    expect(hooks.received.map((h) => verified(h).type)).toEqual(['message.created', 'message.updated'])
    expect(verified(hooks.received[1]!).data.messageIds).toEqual([id])
    expect({ failed: service.webhooks.failed, attempts: service.webhooks.attempts }).toEqual({ failed: 2, attempts: 2 })
  })

  it('posts delayed deliveries when they land, and every recipient of a large trigger delivered in slices', async () => {
    let now = Date.now()
    const posted: { subscriberId: string; messageIds: string[]; type: string }[] = []
    const fixture = buildFixture({
      workflows: [workflow('later', [delayStep(30, 'seconds'), inApp('Later')]), workflow('news', [inApp('News')])],
      subscribers: Array.from({ length: 600 }, (_, i) => subscriber(`reader-${i}`)),
      topics: [
        topic(
          'all',
          Array.from({ length: 600 }, (_, i) => `reader-${i}`),
        ),
      ],
    })
    const { service, call } = serviceWith(
      {
        url: 'http://receiver.test/hooks',
        // Posted in process, so six hundred of them take no sockets.
        fetch: async (input, init) => {
          const request = new Request(input, init)
          const body = await request.text()
          const payload = verifier.verify(body, Object.fromEntries(request.headers)) as {
            type: string
            data: (typeof posted)[number]
          }
          posted.push({ ...payload.data, type: payload.type })
          return new Response(null, { status: 204 })
        },
      },
      fixture,
      () => now,
    )
    await call('/v1/events/trigger', { name: 'later', to: 'user-1' })
    await service.settle()
    await service.webhooks.idle()
    expect(posted).toEqual([])
    now += 31_000
    await service.settle()
    await service.webhooks.idle()
    expect(posted).toEqual([
      {
        type: 'message.created',
        subscriberId: 'user-1',
        environmentId: 'env-test',
        messageIds: [service.state.messages('user-1')[0]!._id],
      },
    ])

    posted.length = 0
    const answer = await call('/v1/events/trigger', { name: 'news', to: { type: 'Topic', topicKey: 'all' } })
    expect(answer.status).toBe(201)
    // Answered with only part delivered; the rest follows in slices, each followed by its webhooks.
    expect(service.state.messages('reader-599')).toHaveLength(0)
    await service.settle()
    await service.webhooks.idle()
    expect(posted).toHaveLength(600)
    expect(new Set(posted.map((p) => p.subscriberId)).size).toBe(600)
    expect(
      posted.every(
        (p) => p.messageIds.length === 1 && p.messageIds[0] === service.state.messages(p.subscriberId)[0]!._id,
      ),
    ).toBe(true)
  })

  it('reaches an open stream end to end: service → signed webhook → proxy → the subscriber’s stream', async () => {
    // eslint-disable-next-line prefer-const -- made after the service, whose webhooks it receives
    let proxy: ReturnType<typeof createInboxProxy> | undefined
    const service = createService({
      fixture: buildFixture(),
      webhooks: {
        url: 'http://app.test/api/inbox/webhooks/messages',
        secret: WEBHOOK_SECRET,
        fetch: (input, init) => proxy!(new Request(input, init)),
      },
    })
    proxy = createInboxProxy({
      upstreamUrl: BASE_URL,
      apiKey: service.apiKey,
      basePath: '/api/inbox',
      authenticate: bearerTokenAuth(SECRET),
      fetch: (input, init) => service.fetch(new Request(input, init)),
      events: { webhookSecret: WEBHOOK_SECRET },
    })
    const token = await createSubscriberToken('user-1', SECRET, { expiresIn: 60 })
    const response = await proxy(
      new Request('http://app.test/api/inbox/events', { headers: { authorization: `Bearer ${token}` } }),
    )
    const events = readStream(response.body!)
    expect((await events.next())?.event).toBe('ready')
    await service.fetch(
      new Request(BASE_URL + '/v1/events/trigger', {
        method: 'POST',
        headers: { authorization: `ApiKey ${service.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'test-workflow', to: 'user-1' }),
      }),
    )
    const event = (await events.next())!
    expect(event.event).toBe('message.created')
    expect(JSON.parse(event.data!).messageIds).toEqual([service.state.messages('user-1')[0]!._id])
    await service.webhooks.idle()
    expect(service.webhooks.delivered).toBe(1)
    await events.cancel()
  })

  it('refuses webhook options that cannot work', () => {
    expect(() => createService({ webhooks: { url: 'ftp://x', secret: WEBHOOK_SECRET } })).toThrow(/http/)
    expect(() => createService({ webhooks: { url: 'http://x', secret: 'not base64!' } })).toThrow(/whsec_/)
  })
})

describe('npm run server -- --webhook URL --webhook-secret S', () => {
  it('posts the webhooks of what it delivers, and refuses one flag without the other', async () => {
    const hooks = await receiver()
    const { child, ready, printed } = startCli(['--webhook', hooks.url, '--webhook-secret', WEBHOOK_SECRET])
    try {
      const { url, apiKey } = await ready
      await printed(/Webhooks: message\.created and message\.updated to \S+/)
      const trigger = await fetch(`${url}/v1/events/trigger`, {
        method: 'POST',
        headers: { authorization: `ApiKey ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'comment-mention', to: 'demo-user' }),
      })
      expect(((await trigger.json()) as { status: string }).status).toBe('processed')
      await hooks.count(1)
      expect(verified(hooks.received[0]!)).toMatchObject({
        type: 'message.created',
        data: { subscriberId: 'demo-user' },
      })
    } finally {
      child.kill()
    }
    const lone = startCli(['--webhook', hooks.url])
    lone.ready.catch(() => {})
    expect(await lone.exited).toBe(1)
    expect(lone.stderr()).toMatch(/--webhook and --webhook-secret go together/)
  })
})
