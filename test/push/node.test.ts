import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryBroker } from '../../src/proxy'
import type { InboxEventBroker, InboxProxyHandler, NodeContext } from '../../src/proxy'
import { startProxy } from '../proxy/harness'
import { serveOverHttp } from '../proxy/http'

const servers: { close(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

/** Serves a plain fetch handler through toNodeHandler. */
async function serve(handler: (request: Request) => Promise<Response>) {
  const served = await serveOverHttp(
    Object.assign(handler, { methods: ['GET'] }) as unknown as InboxProxyHandler<NodeContext>,
  )
  servers.push(served)
  return served.port
}

/** A GET whose response (headers) resolves as soon as they arrive. */
function open(port: number, path: string, headers: Record<string, string> = {}) {
  let req!: ClientRequest
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req = httpRequest({ host: '127.0.0.1', port, path, headers, agent: false }, resolve)
    req.on('error', reject)
    req.end()
  })
  return { req, response }
}

const until = async (check: () => boolean, ms = 2_000) => {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe('toNodeHandler with streamed answers', () => {
  it('sends an event stream’s headers before its first chunk', async () => {
    const port = await serve(
      async () => new Response(new ReadableStream(), { headers: { 'content-type': 'text/event-stream' } }),
    )
    const { req, response } = open(port, '/')
    const res = await response
    expect(res.headers['content-type']).toBe('text/event-stream')
    req.destroy()
  })

  it('cancels the body as soon as the client goes away, not at the next chunk', async () => {
    let cancelled = false
    const port = await serve(
      async () =>
        new Response(
          new ReadableStream({
            start: (c) => c.enqueue(new TextEncoder().encode('first\n\n')),
            cancel: () => void (cancelled = true),
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    )
    const { req, response } = open(port, '/')
    const res = await response
    await new Promise((resolve) => res.once('data', resolve))
    expect(cancelled).toBe(false)
    req.destroy()
    await until(() => cancelled)
  })

  it('lets the proxy’s stream stop listening to the broker when its client disconnects', async () => {
    const { broker, listening } = countingBroker()
    const { proxy, bearer } = startProxy({ events: { broker, heartbeatMs: 60_000 } })
    const served = await serveOverHttp(proxy)
    servers.push(served)
    const { req, response } = open(served.port, '/api/inbox/events', { authorization: await bearer('user-1') })
    const res = await response
    expect(res.statusCode).toBe(200)
    await new Promise((resolve) => res.once('data', resolve))
    expect(listening()).toBe(1)
    req.destroy()
    await until(() => listening() === 0)
    // An event for them now reaches nobody and costs nothing.
    await proxy.notify(['user-1'])
  })

  /** The proxy over HTTP, one stream a subscriber, and `stalled`: a client of its stream that never reads. */
  async function stallingProxy() {
    const { broker, listening } = countingBroker()
    const { proxy, bearer } = startProxy({
      events: { broker, heartbeatMs: 60_000, maxStreamsPerSubscriber: 1, maxQueuedBytes: 100_000 },
    })
    const served = await serveOverHttp(proxy)
    servers.push(served)
    const authorization = await bearer('user-1')
    /** A client that sends its request and then never reads; answers the server's side of its connection. */
    const stalled = async () => {
      const before = served.sockets.length
      const socket = connect({ host: '127.0.0.1', port: served.port })
      socket.on('error', () => {})
      socket.pause()
      socket.write(`GET /api/inbox/events HTTP/1.1\r\nhost: app.test\r\nauthorization: ${authorization}\r\n\r\n`)
      await until(() => served.sockets.length > before && listening() === 1)
      return { client: socket, server: served.sockets[before]! }
    }
    return { proxy, listening, stalled }
  }

  it('drops the connection of a client that takes nothing once its stream is over, cut off or replaced', async () => {
    const { proxy, listening, stalled } = await stallingProxy()
    // 26 kB an event: several fit in the proxy's queue.
    const event = {
      type: 'message.created' as const,
      messageIds: Array.from({ length: 100 }, (_, i) => String(i).padStart(250, 'm')),
    }
    // Until the system's buffers are full and the answer waits for the client: then one more, for the proxy's queue.
    const fill = async (server: { writableLength: number }) => {
      while (server.writableLength < 16_384) {
        await proxy.notify(['user-1'], event)
        await new Promise((resolve) => setTimeout(resolve, 1))
      }
      await proxy.notify(['user-1'], event)
    }

    // Replaced by a newer stream of the same subscriber while its client takes nothing.
    const replaced = await stalled()
    await fill(replaced.server)
    const next = await stalled()
    await until(() => replaced.server.destroyed)

    // Cut off for not reading: its queue filled.
    await fill(next.server)
    while (listening() > 0) await proxy.notify(['user-1'], event)
    await until(() => next.server.destroyed)
    replaced.client.destroy()
    next.client.destroy()
  })

  it('drops it too when less than a buffer waits for it, once it has not taken that within 2 s', async () => {
    const { proxy, stalled } = await stallingProxy()
    // About 5 kB an event, sent until the system's buffers are full and the first bytes wait in Node: then less
    // than 16 KiB waits, which no write has yet refused (their high-water mark is 16 KiB or more).
    const event = {
      type: 'message.created' as const,
      messageIds: Array.from({ length: 20 }, (_, i) => String(i).padStart(250, 'm')),
    }
    const replaced = await stalled()
    while (replaced.server.writableLength === 0) {
      await proxy.notify(['user-1'], event)
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
    expect(replaced.server.writableLength).toBeLessThan(16_384)
    // Replaced: its stream is over with those bytes still waiting for a client that takes nothing.
    const next = await stalled()
    const endedAt = Date.now()
    await until(() => replaced.server.destroyed, 4_000)
    expect(Date.now() - endedAt).toBeGreaterThanOrEqual(1_500)
    replaced.client.destroy()
    next.client.destroy()
  })

  it('keeps a plain answer as it was: written whole, then ended', async () => {
    const port = await serve(
      async () => new Response('x'.repeat(100_000), { headers: { 'content-type': 'text/plain' } }),
    )
    const { response } = open(port, '/')
    const res = await response
    let body = ''
    res.setEncoding('utf8')
    for await (const chunk of res) body += chunk
    expect(body).toHaveLength(100_000)
  })
})

/** A memory broker that counts the streams listening to it. */
function countingBroker(): { broker: InboxEventBroker; listening: () => number } {
  const inner = createMemoryBroker()
  let listening = 0
  const broker: InboxEventBroker = {
    ...inner,
    async subscribe(subscriberId, listener) {
      const stop = await inner.subscribe(subscriberId, listener)
      listening++
      return () => {
        listening--
        stop()
      }
    },
  }
  return { broker, listening: () => listening }
}
