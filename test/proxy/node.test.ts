import { Agent } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { bearerTokenAuth, createInboxProxy } from '../../src/proxy'
import type { InboxProxyOptions, NodeContext } from '../../src/proxy'
import { BASE_PATH, SECRET, startProxy } from './harness'
import { firstResponse, rawSend, send, serveOverHttp } from './http'

const FEED = `${BASE_PATH}/v1/subscribers/user-1/notifications/feed`
const MARK = `${BASE_PATH}/v1/subscribers/user-1/messages/mark-as`

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
})

/** The proxy in front of an in-process reference service, served over a loopback port by `toNodeHandler`. */
async function start(options: Partial<InboxProxyOptions<NodeContext>> = {}) {
  const started = startProxy()
  const proxy = createInboxProxy<NodeContext>({ ...proxyOptions(started), ...options })
  const served = await serveOverHttp(proxy)
  closers.push(served.close)
  const auth = { authorization: await started.bearer('user-1') }
  return { ...started, ...served, auth }
}

function proxyOptions(started: ReturnType<typeof startProxy>): InboxProxyOptions<NodeContext> {
  const { forwarded, serviceFetch, service } = started
  return {
    upstreamUrl: 'http://inbox.test',
    apiKey: service.apiKey,
    basePath: BASE_PATH,
    authenticate: bearerTokenAuth(SECRET),
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      forwarded.push({ method: request.method, url: new URL(request.url), headers: new Headers(request.headers) })
      return serviceFetch(request)
    }) as typeof fetch,
    rateLimit: false,
  }
}

function expectErrorShape(body: unknown, status: number) {
  expect(body).toMatchObject({
    statusCode: status,
    timestamp: expect.any(String),
    path: expect.any(String),
    message: expect.any(String),
    error: expect.any(String),
  })
}

describe('toNodeHandler: requests fetch cannot represent', () => {
  it('answers TRACE with 405 and the Allow of the path in the error shape, over real HTTP', async () => {
    const { port, auth, forwarded } = await start()
    for (const [path, allow] of [
      [FEED, 'GET, HEAD'],
      [`${FEED}?limit=1`, 'GET, HEAD'],
      [MARK, 'POST'],
      [`${BASE_PATH}/v2/subscribers/user-1/preferences`, 'GET, HEAD, PATCH'],
      [`${BASE_PATH}/v1/subscribers/user-1/notifications/../messages/mark-as`, 'POST'],
      [`${BASE_PATH}/v1/events/trigger`, ''],
    ]) {
      for (const headers of [{}, auth, { host: 'a b' }] as Record<string, string>[]) {
        const answer = await send(port, { method: 'TRACE', path: path!, headers })
        expect(answer.status, path).toBe(405)
        expect(answer.headers.allow, path).toBe(allow)
        expectErrorShape(JSON.parse(answer.body), 405)
        expect(JSON.parse(answer.body).error).toBe('Method Not Allowed')
      }
    }
    for (const [method, path, allow] of [
      ['PUT', FEED, 'GET, HEAD'],
      ['OPTIONS', MARK, 'POST'],
      ['POST', FEED, 'GET, HEAD'],
    ]) {
      const answer = await send(port, { method: method!, path: path!, headers: auth })
      expect([answer.status, answer.headers.allow], `${method} ${path}`).toEqual([405, allow])
    }
    expect(forwarded).toEqual([])
  })

  it('answers HEAD as GET without the body, over real HTTP', async () => {
    const { port, auth, forwarded } = await start()
    const get = await send(port, { path: `${FEED}?limit=2`, headers: auth })
    const head = await send(port, { method: 'HEAD', path: `${FEED}?limit=2`, headers: auth })
    expect([head.status, head.body, head.headers['content-type']]).toEqual([200, '', get.headers['content-type']])
    expect(forwarded.map((f) => f.method)).toEqual(['GET', 'GET'])
    const other = await send(port, {
      method: 'HEAD',
      path: `${BASE_PATH}/v1/subscribers/user-2/notifications/feed`,
      headers: auth,
    })
    expect([other.status, other.body]).toEqual([403, ''])
  })

  it('answers 400 to a Host header that is not a usable host, and serves the usable ones', async () => {
    const { port, auth, forwarded } = await start()
    const unusable = ['a b', '[::1', 'a/b', 'a@b', 'a?b', 'a#b', 'a\\b', '', 'a:99999', 'exa mple.com:80', '%zz', 'a:b']
    for (const host of unusable) {
      const answer = await send(port, { path: FEED, headers: { ...auth, host } })
      expect(answer.status, host).toBe(400)
      expectErrorShape(JSON.parse(answer.body), 400)
    }
    expect(forwarded).toEqual([])
    for (const host of ['localhost:3000', '127.0.0.1', '[::1]:8080', 'Inbox.Example.com', 'a-b.test:']) {
      const answer = await send(port, { path: `${FEED}?limit=1`, headers: { ...auth, host } })
      expect(answer.status, host).toBe(200)
    }
  })

  it('keeps a request target that starts with // as a path, rather than reading a host out of it', async () => {
    const { port, auth, forwarded } = await start()
    const answer = await send(port, { path: `/${FEED}`, headers: auth })
    expect(answer.status).toBe(403)
    expect(JSON.parse(answer.body).path).toBe(`/${FEED}`)
    expect(forwarded).toEqual([])
  })
})

describe('toNodeHandler: a body nobody reads', () => {
  it('after an early 401, reads at most a bounded part of an endless chunked body, then closes the connection', async () => {
    const { port, sockets, server } = await start()
    // Long enough that only the adapter, not Node's idle timer, can be what closes the connection.
    server.keepAliveTimeout = 60_000
    const head = `POST ${MARK} HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`
    // 256 MiB offered; the server should stop taking it long before.
    const answer = await rawSend(port, head, { chunk: 65_536, total: 256 << 20, chunked: true, waitMs: 8_000 })
    const { status, body } = firstResponse(answer.text)
    expect(status).toBe(401)
    expectErrorShape(body, 401)
    expect(answer.closedByServer).toBe(true)
    expect(sockets[0]!.bytesRead).toBeLessThan(16 << 20)
  })

  it('answers 413 in full to a chunked body over the limit, and reads only a bounded part of the rest', async () => {
    const { port, sockets, auth, forwarded, service } = await start({ maxBodyBytes: 1024 })
    const before = JSON.stringify(service.state.messages('user-1'))
    const head =
      `POST ${MARK} HTTP/1.1\r\nHost: a\r\nAuthorization: ${auth.authorization}\r\n` +
      'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n'
    const answer = await rawSend(port, head, { chunk: 65_536, total: 256 << 20, chunked: true, waitMs: 8_000 })
    const { status, body } = firstResponse(answer.text)
    expect(status).toBe(413)
    expect(body).toMatchObject({ statusCode: 413, error: 'Payload Too Large' })
    expect(answer.closedByServer).toBe(true)
    expect(sockets[0]!.bytesRead).toBeLessThan(16 << 20)
    expect(forwarded).toEqual([])
    expect(JSON.stringify(service.state.messages('user-1'))).toBe(before)
  })

  it('keeps the connection for the next request when the unread body is small', async () => {
    const { port, auth } = await start()
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const refused = await send(port, {
        method: 'POST',
        path: MARK,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messageId: 'x'.repeat(4000), markAs: 'read' }),
        agent,
      })
      expect(refused.status).toBe(401)
      const next = await send(port, { path: `${FEED}?limit=1`, headers: auth, agent })
      expect(next.status).toBe(200)
      expect(next.reused).toBe(true)
    } finally {
      agent.destroy()
    }
  })
})

describe('toNodeHandler: clients that stop sending', () => {
  it('survives a client that goes away mid-body: the write never reaches the service and the server goes on', async () => {
    const { port, auth, forwarded } = await start()
    const head =
      `POST ${MARK} HTTP/1.1\r\nHost: a\r\nAuthorization: ${auth.authorization}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"messageId": "'
    for (let i = 0; i < 5; i++) {
      // The client gives up after 50 ms with the body unfinished and drops the connection.
      const answer = await rawSend(port, head, { chunk: 1000, total: 5000, waitMs: 50 })
      expect(answer.closedByServer).toBe(false)
    }
    const next = await send(port, { path: `${FEED}?limit=1`, headers: auth })
    expect(next.status).toBe(200)
    expect(forwarded.filter((f) => f.method === 'POST')).toEqual([])
  })

  it('answers 408 to a client that never finishes its body, without contacting the service', async () => {
    const { port, auth, forwarded } = await start({ timeout: 300 })
    const head =
      `POST ${MARK} HTTP/1.1\r\nHost: a\r\nAuthorization: ${auth.authorization}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"messageId": '
    const answer = await rawSend(port, head, { waitMs: 3_000, untilAnswered: true })
    const { status, body } = firstResponse(answer.text)
    expect(status).toBe(408)
    expect(body).toMatchObject({ statusCode: 408, error: 'Request Timeout' })
    expect(forwarded).toEqual([])
  })
})
