/**
 * The proxy's `onError`: told of each failure of the proxy's own, over real sockets (a closed port, a service
 * that never answers, one that redirects), while the browser gets the same answer as without it.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient } from 'redis'
import { afterEach, describe, expect, it } from 'vitest'
import { createInboxProxy, createMemoryBroker } from '../../src/proxy'
import type { InboxProxyOptions, RateLimitStore } from '../../src/proxy'
import { createRedisRateLimitStore } from '../../src/proxy/redis'
import { BASE_URL, startService } from '../support/service'
import { APP, proxyFixture, startProxy } from './harness'

const FEED = '/v1/subscribers/user-1/notifications/feed'
const FEED_OF = (id: string) => `/v1/subscribers/${id}/notifications/feed`

type Reported = { error: Error & { status: number }; request: Request }

/** A proxy to `upstreamUrl` over the real fetch, for user-1, noting what `onError` was told. */
function proxyTo(upstreamUrl: string, options: Partial<InboxProxyOptions> = {}) {
  const reported: Reported[] = []
  const proxy = createInboxProxy({
    upstreamUrl,
    apiKey: 'the-api-key',
    authenticate: () => 'user-1',
    rateLimit: false,
    onError: (error, request) => void reported.push({ error, request }),
    ...options,
  })
  return { proxy, reported }
}

/** The answer's status and body, without the timestamp (it differs between any two answers). */
async function answerOf(response: Response) {
  const { timestamp, ...body } = (await response.json()) as Record<string, unknown>
  expect(typeof timestamp).toBe('string')
  return { status: response.status, body }
}

/** The messages of an error and its causes, and the first `code` among them. */
function chain(error: unknown) {
  const messages: string[] = []
  let code: unknown
  for (let e = error; e instanceof Error; e = e.cause) {
    messages.push(e.message)
    code ??= (e as { code?: unknown }).code
  }
  return { messages, code }
}

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** A local HTTP server running `handle`; its base URL. */
async function upstream(handle: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handle)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** A loopback port that was just free and is closed again: connections to it are refused. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('createInboxProxy: onError', () => {
  it('is told of an unreachable service (a closed port), and the browser gets the 502 it got without it', async () => {
    const port = await closedPort()
    const { proxy, reported } = proxyTo(`http://127.0.0.1:${port}/api`)
    const request = new Request(`${APP}${FEED}?limit=5`)
    const answer = await answerOf(await proxy(request))
    const without = await answerOf(
      await proxyTo(`http://127.0.0.1:${port}/api`, { onError: undefined }).proxy(new Request(`${APP}${FEED}?limit=5`)),
    )
    expect(answer).toEqual(without)
    expect(answer).toMatchObject({
      status: 502,
      body: { statusCode: 502, error: 'Bad Gateway', message: 'Could not reach the notification service.' },
    })

    expect(reported).toHaveLength(1)
    const [{ error, request: told }] = reported as [Reported]
    expect(told).toBe(request)
    expect(error).toBeInstanceOf(Error)
    expect(error.status).toBe(502)
    expect(error.message).toContain(
      `Could not reach the notification service for GET http://127.0.0.1:${port}/api${FEED}?limit=5`,
    )
    // fetch's own error, and beneath it the socket's: the reason is in the message as well as in the chain.
    expect(error.cause).toBeInstanceOf(TypeError)
    const { messages, code } = chain(error.cause)
    expect(code).toBe('ECONNREFUSED')
    expect(error.message).toContain(messages.join(': '))
  })

  it('is told of a service that does not answer in time, and the browser gets the 504 it got without it', async () => {
    // Takes the request and never answers.
    const slow = await upstream(() => {})
    const { proxy, reported } = proxyTo(slow, { timeout: 200 })
    const answer = await answerOf(await proxy(new Request(APP + FEED)))
    const without = await answerOf(
      await proxyTo(slow, { timeout: 200, onError: undefined }).proxy(new Request(APP + FEED)),
    )
    expect(answer).toEqual(without)
    expect(answer).toMatchObject({
      status: 504,
      body: { statusCode: 504, error: 'Gateway Timeout', message: 'The notification service did not answer in time.' },
    })
    expect(reported.map((r) => [r.error.status, r.error.message])).toEqual([
      [504, `The notification service did not answer GET ${slow}${FEED} within 200 ms`],
    ])
  })

  it('is told of a redirect, which is not relayed', async () => {
    const moved = await upstream((_req, res) => res.writeHead(302, { location: 'https://elsewhere.example/' }).end())
    const { proxy, reported } = proxyTo(moved)
    expect((await answerOf(await proxy(new Request(APP + FEED)))).status).toBe(502)
    expect(reported.map((r) => [r.error.status, r.error.message])).toEqual([
      [
        502,
        `The notification service answered GET ${moved}${FEED} with a redirect (302 to https://elsewhere.example/)`,
      ],
    ])
  })

  it("is told when the service refuses the proxy's own API key, and the browser gets a 502, not a signed-out 401", async () => {
    const { service, fetch: serviceFetch } = startService({ fixture: proxyFixture() })
    for (const [upstreamFetch, status] of [
      // A key revoked or rotated: the service's own 401.
      [serviceFetch, 401],
      // A gateway in front of it that forbids this key.
      [(async () => Response.json({ message: 'Forbidden for the-api-key' }, { status: 403 })) as typeof fetch, 403],
    ] as const) {
      const { proxy, reported } = proxyTo(BASE_URL, { apiKey: 'the-api-key', fetch: upstreamFetch })
      const answer = await answerOf(await proxy(new Request(APP + FEED)))
      expect(answer).toMatchObject({
        status: 502,
        body: {
          statusCode: 502,
          error: 'Bad Gateway',
          message: 'The notification service refused the request of the proxy.',
        },
      })
      expect(reported.map((r) => r.error.status)).toEqual([502])
      const [{ error }] = reported as [Reported]
      expect(error.message).toContain(`refused the proxy's API key (${status} to GET ${BASE_URL}${FEED})`)
      expect(error.message).not.toContain('the-api-key')
    }
    // With the right key, the same proxy reads the feed.
    const right = proxyTo(BASE_URL, { apiKey: service.apiKey, fetch: serviceFetch })
    expect((await right.proxy(new Request(APP + FEED))).status).toBe(200)
    expect(right.reported).toEqual([])
  })

  it('is told what authenticate threw', async () => {
    const thrown = new Error('session store down')
    const { proxy, reported } = proxyTo('http://127.0.0.1:1', {
      authenticate: () => {
        throw thrown
      },
    })
    const answer = await answerOf(await proxy(new Request(APP + FEED)))
    expect(answer).toMatchObject({ status: 500, body: { message: 'Could not check who is signed in.' } })
    expect(JSON.stringify(answer)).not.toContain('session store down')
    expect(reported.map((r) => [r.error.status, r.error.message, r.error.cause])).toEqual([
      [500, 'authenticate threw: session store down', thrown],
    ])
  })

  it('is told when the event broker fails to start a stream', async () => {
    const down = new Error('broker connection lost')
    const broker = { ...createMemoryBroker(), subscribe: () => Promise.reject(down) }
    const { proxy, reported } = proxyTo('http://127.0.0.1:1', { events: { broker } })
    const answer = await answerOf(await proxy(new Request(`${APP}/events`)))
    expect(answer).toMatchObject({ status: 503, body: { message: 'Could not reach the event broker.' } })
    expect(reported.map((r) => [r.error.status, r.error.message, r.error.cause])).toEqual([
      [503, 'The event broker failed to start an event stream: broker connection lost', down],
    ])
  })

  it('is told when the rate-limit store fails, with the status of the answer the request went on to get', async () => {
    // A Redis store whose server is gone: its client could not connect (a closed port) and is not ready.
    const client = createClient({
      url: `redis://127.0.0.1:${await closedPort()}`,
      socket: { reconnectStrategy: false },
    })
    client.on('error', () => {})
    await expect(client.connect()).rejects.toThrow()
    const throwing: RateLimitStore = {
      take: () => {
        throw new Error('store bug')
      },
    }
    for (const [store, reason] of [
      [createRedisRateLimitStore({ client }), 'Redis cannot be reached: the client is not connected.'],
      [throwing, 'store bug'],
    ] as const) {
      const reported: Reported[] = []
      const rateLimit = { limit: 1, windowMs: 60_000, store }
      const { call } = startProxy({ rateLimit, onError: (error, request) => void reported.push({ error, request }) })
      const without = startProxy({ rateLimit })
      // The limit of one is not applied: both requests go ahead, as they do without onError.
      const answers = [await call('user-1', FEED_OF('user-1')), await call('user-1', FEED_OF('user-1'))]
      const unreported = [
        await without.call('user-1', FEED_OF('user-1')),
        await without.call('user-1', FEED_OF('user-1')),
      ]
      expect(answers.map((r) => r.status)).toEqual([200, 200])
      expect(unreported.map((r) => r.status)).toEqual([200, 200])
      // One the service refuses (a mark-as that names nothing to mark) is told with the service's status.
      const refused = await call('user-1', '/v1/subscribers/user-1/messages/mark-as', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
      expect(reported.map((r) => [r.error.status, r.error.message])).toEqual([
        [200, `The rate-limit store failed; the request went ahead unlimited: ${reason}`],
        [200, `The rate-limit store failed; the request went ahead unlimited: ${reason}`],
        [refused.status, `The rate-limit store failed; the request went ahead unlimited: ${reason}`],
      ])
      expect(refused.status).toBeGreaterThanOrEqual(400)
      expect(reported[0]!.error.cause).toBeInstanceOf(Error)
      expect(reported[0]!.request.url).toContain(FEED_OF('user-1'))
    }
  })

  it('cannot break the answer: what it throws, or an async one rejects with, is dropped', async () => {
    const port = await closedPort()
    for (const onError of [
      () => {
        throw new Error('the logger is down')
      },
      async () => {
        throw new Error('the logger is down')
      },
    ]) {
      const { proxy } = proxyTo(`http://127.0.0.1:${port}`, { onError })
      const answer = await answerOf(await proxy(new Request(APP + FEED)))
      expect(answer).toMatchObject({ status: 502, body: { message: 'Could not reach the notification service.' } })
    }
  })

  it('is not told of the service’s own errors, nor of the API key', async () => {
    const reported: Reported[] = []
    const { call, service } = startProxy({ onError: (error, request) => void reported.push({ error, request }) })
    service.faults.add({ path: FEED, status: 503, times: 1 })
    expect((await call('user-1', FEED)).status).toBe(503)
    expect(reported).toEqual([])
    // The service's address holds the key (a misconfiguration): the report does not repeat it.
    const port = await closedPort()
    const keyed = proxyTo(`http://127.0.0.1:${port}/the-api-key`)
    expect((await keyed.proxy(new Request(APP + FEED))).status).toBe(502)
    expect(keyed.reported[0]!.error.message).toContain(`http://127.0.0.1:${port}/[redacted]${FEED}`)
  })

  it('is not told when the browser went away before the service answered', async () => {
    const slow = await upstream(() => {})
    const { proxy, reported } = proxyTo(slow)
    const browser = new AbortController()
    const answering = proxy(new Request(APP + FEED, { signal: browser.signal }))
    setTimeout(() => browser.abort(), 50)
    expect((await answering).status).toBe(502)
    expect(reported).toEqual([])
  })
})
