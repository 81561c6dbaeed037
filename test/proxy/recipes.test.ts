import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSubscriberToken, toNodeHandler, verifySubscriberToken } from '../../src/proxy'
import { createService } from '../../server'
import { createAppServer } from './recipes/node-server'
import { createApp } from './recipes/express-app'
import { proxyFixture, SECRET } from './harness'
import { WEBHOOK_SECRET, messagePayload, readStream, signedWebhook } from '../push/sse'

const FEED = '/api/inbox/v1/subscribers/user-1/notifications/feed'
const EVENTS = '/api/inbox/events'
const HOOK = '/api/inbox/webhooks/messages'

/** Posts a webhook the way the service does, over real HTTP. */
async function postHook(base: string, payload: unknown) {
  const request = signedWebhook('http://x/', payload)
  return fetch(base + HOOK, { method: 'POST', headers: request.headers, body: await request.text() })
}
const MARK = '/api/inbox/v1/subscribers/user-1/messages/mark-as'

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))
  })
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })

/** The reference service on a loopback port, so the recipes reach it with the real `fetch`. */
let service: ReturnType<typeof createService>
let upstream: Server
let env: { INBOX_API_URL: string; INBOX_API_KEY: string; INBOX_TOKEN_SECRET: string; INBOX_WEBHOOK_SECRET: string }

beforeAll(async () => {
  service = createService({ fixture: proxyFixture() })
  upstream = createServer(toNodeHandler((request) => service.fetch(request)))
  env = {
    INBOX_API_URL: await listen(upstream),
    INBOX_API_KEY: service.apiKey,
    INBOX_TOKEN_SECRET: SECRET,
    INBOX_WEBHOOK_SECRET: WEBHOOK_SECRET,
  }
})
afterAll(() => close(upstream))

const bearer = async (id: string) => ({
  authorization: `Bearer ${await createSubscriberToken(id, SECRET, { expiresIn: 60 })}`,
})

/** A POST whose body arrives in chunks with no Content-Length, as a streaming client sends it. */
function chunkedPost(url: string, headers: Record<string, string>, chunks: number, chunk: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { ...headers, 'content-type': 'application/json' } },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (d: string) => (body += d))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      },
    )
    req.on('error', reject)
    let sent = 0
    const write = () => {
      while (sent < chunks) {
        sent++
        if (!req.write(chunk)) return void req.once('drain', write)
      }
      req.end()
    }
    write()
  })
}

describe('recipe: node:http', () => {
  let app: Server
  let base: string
  beforeAll(async () => {
    app = createAppServer(env)
    base = await listen(app)
  })
  afterAll(() => close(app))

  it('serves the feed over real sockets, and refuses the signed-out and other subscribers', async () => {
    const ok = await fetch(base + FEED + '?limit=2', { headers: await bearer('user-1') })
    expect(ok.status).toBe(200)
    expect(((await ok.json()) as { data: unknown[] }).data).toHaveLength(2)
    expect((await fetch(base + FEED)).status).toBe(401)
    expect((await fetch(base + FEED, { headers: await bearer('user-2') })).status).toBe(403)
    expect((await fetch(base + '/api/inbox/v1/integrations/active', { headers: await bearer('user-1') })).status).toBe(
      403,
    )
  })

  it('marks a message read, and cuts off a chunked body over the limit with 413', async () => {
    const id = service.state.messages('user-1')[0]!._id
    const marked = await fetch(base + MARK, {
      method: 'POST',
      headers: { ...(await bearer('user-1')), 'content-type': 'application/json' },
      body: JSON.stringify({ messageId: id, markAs: 'read' }),
    })
    expect(marked.status).toBe(201)
    expect(service.state.messages('user-1').find((m) => m._id === id)?.read).toBe(true)

    const before = JSON.stringify(service.state.messages('user-1'))
    const big = await chunkedPost(base + MARK, await bearer('user-1'), 64, ' '.repeat(4096))
    expect(big.status).toBe(413)
    expect(JSON.parse(big.body)).toMatchObject({ statusCode: 413, error: 'Payload Too Large' })
    expect(JSON.stringify(service.state.messages('user-1'))).toBe(before)
  })
})

describe('recipe: node:http, the event stream', () => {
  let app: Server
  let base: string
  beforeAll(async () => {
    app = createAppServer(env)
    // Idle sockets are cut after 300 ms here; a stream must outlive that with no event for longer.
    app.timeout = 300
    app.keepAliveTimeout = 300
    base = await listen(app)
  })
  afterAll(() => close(app))

  it('streams a webhook to the open stream as it arrives, past the server’s idle timeout', async () => {
    const response = await fetch(base + EVENTS, { headers: await bearer('user-1') })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const events = readStream(response.body!)
    expect((await events.next())?.event).toBe('ready')
    await new Promise((resolve) => setTimeout(resolve, 700))
    expect(events.isDone()).toBe(false)
    expect((await postHook(base, messagePayload('user-1', ['late']))).status).toBe(204)
    expect(JSON.parse((await events.next())!.data!).messageIds).toEqual(['late'])
    await events.cancel()
    expect((await fetch(base + EVENTS)).status).toBe(401)
  })
})

describe('recipe: Express', () => {
  let app: Server
  let base: string
  beforeAll(async () => {
    // Stands for the app's session: the user named by a cookie.
    const currentUser = (req: { headers: Record<string, unknown> }) =>
      /(?:^|; )user=([\w-]+)/.exec(String(req.headers.cookie ?? ''))?.[1] ?? null
    app = createServer(createApp(env, currentUser))
    base = await listen(app)
  })
  afterAll(() => close(app))

  it('proxies with the app’s own session, mounted under /api/inbox', async () => {
    const feed = await fetch(base + FEED + '?limit=1', { headers: { cookie: 'user=user-1' } })
    expect(feed.status).toBe(200)
    expect(feed.headers.get('x-powered-by')).toBe('Express')
    expect((await fetch(base + FEED)).status).toBe(401)
    expect((await fetch(base + FEED, { headers: { cookie: 'user=user-2' } })).status).toBe(403)

    const id = service.state.messages('user-1')[1]!._id
    const marked = await fetch(base + MARK, {
      method: 'POST',
      headers: { cookie: 'user=user-1', 'content-type': 'application/json', 'idempotency-key': 'express-1' },
      body: JSON.stringify({ messageId: id, markAs: 'seen' }),
    })
    expect(marked.status).toBe(201)
    expect(marked.headers.get('idempotency-key')).toBe('express-1')
    expect(service.state.messages('user-1').find((m) => m._id === id)?.seen).toBe(true)
  })

  it('streams events to the app’s own cookie session', async () => {
    const response = await fetch(base + EVENTS, { headers: { cookie: 'user=user-2' } })
    expect(response.status).toBe(200)
    const events = readStream(response.body!)
    expect((await events.next())?.event).toBe('ready')
    expect((await postHook(base, messagePayload('user-1', ['not-yours']))).status).toBe(204)
    expect((await postHook(base, messagePayload('user-2', ['yours'], 'message.updated'))).status).toBe(204)
    expect(await events.next()).toMatchObject({
      event: 'message.updated',
      data: '{"type":"message.updated","messageIds":["yours"]}',
    })
    await events.cancel()
  })

  it('issues a token at its token route that the proxy’s bearerTokenAuth would accept', async () => {
    const res = await fetch(base + '/api/inbox-token', { method: 'POST', headers: { cookie: 'user=user-1' } })
    const { token } = (await res.json()) as { token: string }
    expect((await verifySubscriberToken(token, SECRET))?.subscriberId).toBe('user-1')
    expect((await fetch(base + '/api/inbox-token', { method: 'POST' })).status).toBe(401)
  })
})

describe('recipe: Next.js route handler', () => {
  it("exports GET, POST, PATCH, PUT and DELETE that take Request objects; a method a path does not take is the proxy's 405", async () => {
    process.env.INBOX_API_URL = env.INBOX_API_URL
    process.env.INBOX_API_KEY = env.INBOX_API_KEY
    process.env.INBOX_TOKEN_SECRET = env.INBOX_TOKEN_SECRET
    process.env.INBOX_WEBHOOK_SECRET = env.INBOX_WEBHOOK_SECRET
    const route = await import('./recipes/next-route')
    const origin = 'http://localhost:3000'
    const feed = await route.GET(new Request(origin + FEED, { headers: await bearer('user-1') }))
    expect(feed.status).toBe(200)

    const prefs = await route.PATCH(
      new Request(origin + '/api/inbox/v2/subscribers/user-1/preferences', {
        method: 'PATCH',
        headers: { ...(await bearer('user-1')), 'content-type': 'application/json' },
        body: JSON.stringify({ channels: { email: false } }),
      }),
    )
    expect(prefs.status).toBe(200)
    expect(service.state.subscriber('user-1')?.preferences.channels.email).toBe(false)

    const other = await route.POST(
      new Request(origin + '/api/inbox/v1/events/trigger', {
        method: 'POST',
        headers: { ...(await bearer('user-1')), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'test-workflow', to: 'user-2' }),
      }),
    )
    expect(other.status).toBe(403)
    expect(route.GET).toBe(route.POST)
    // A method the path does not take: the proxy's 405, which names the ones it does.
    const wrong = await route.DELETE(new Request(origin + FEED, { method: 'DELETE', headers: await bearer('user-1') }))
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'GET, HEAD'])
    const put = await route.PUT(
      new Request(origin + '/api/inbox/v2/subscribers/user-1/preferences', {
        method: 'PUT',
        headers: { ...(await bearer('user-1')), 'content-type': 'application/json' },
        body: '{}',
      }),
    )
    expect(put.status).toBe(405)
    expect(put.headers.get('allow')).toContain('PATCH')
  })

  it('issues a token at the token route that the proxy route accepts, and 401 with no JSON when signed out', async () => {
    const tokens = await import('./recipes/next-token-route')
    const route = await import('./recipes/next-route')
    const origin = 'http://localhost:3000'
    const issued = await tokens.POST(
      new Request(origin + '/api/inbox-token', { method: 'POST', headers: { cookie: 'user=user-1' } }),
    )
    const { token } = (await issued.json()) as { token: string }
    const feed = await route.GET(new Request(origin + FEED, { headers: { authorization: `Bearer ${token}` } }))
    expect(feed.status).toBe(200)
    const signedOut = await tokens.POST(new Request(origin + '/api/inbox-token', { method: 'POST' }))
    expect([signedOut.status, await signedOut.text()]).toEqual([401, ''])
  })

  it('answers GET /events with a streaming Response that the webhook route, the same handler, feeds', async () => {
    const route = await import('./recipes/next-route')
    expect([route.runtime, route.dynamic]).toEqual(['nodejs', 'force-dynamic'])
    const origin = 'http://localhost:3000'
    const response = await route.GET(new Request(origin + EVENTS, { headers: await bearer('user-1') }))
    expect(response.status).toBe(200)
    const events = readStream(response.body!)
    expect((await events.next())?.event).toBe('ready')
    const hooked = await route.POST(signedWebhook(origin + HOOK, messagePayload('user-1', ['next-1'])))
    expect(hooked.status).toBe(204)
    expect(JSON.parse((await events.next())!.data!).messageIds).toEqual(['next-1'])
    // The client leaving cancels the body, which ends the stream on the server.
    await events.cancel()
    await events.ended
  })
})
