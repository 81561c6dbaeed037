import { createServer, request as httpRequest, type Agent, type Server } from 'node:http'
import { connect, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { toNodeHandler } from '../../src/proxy'
import type { InboxProxyHandler, NodeContext } from '../../src/proxy'

/** A proxy handler served by `toNodeHandler` on a loopback port, with the server's side of every connection. */
export async function serveOverHttp(handler: InboxProxyHandler<NodeContext>) {
  const sockets: Socket[] = []
  const server: Server = createServer(toNodeHandler(handler))
  server.on('connection', (socket) => sockets.push(socket))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  return { server, port, sockets, close }
}

export interface HttpAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
  /** Whether the socket was one kept alive from an earlier request. */
  reused: boolean
}

/** One request through node:http, which (unlike fetch) sends any method token and any Host. */
export function send(
  port: number,
  init: { method?: string; path: string; headers?: Record<string, string>; body?: string | Uint8Array; agent?: Agent },
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    // Framed by Content-Length whatever the method: node:http would send an OPTIONS or DELETE body unframed.
    const length = init.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(init.body)) }
    const headers = { host: `127.0.0.1:${port}`, ...length, ...init.headers }
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: init.method ?? 'GET',
        path: init.path,
        headers,
        setHost: false,
        agent: init.agent ?? false,
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (d: string) => (body += d))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, reused: req.reusedSocket }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(init.body)
  })
}

export interface RawAnswer {
  /** Everything the server sent. */
  text: string
  /** Whether the server closed the connection before `waitMs` ran out. */
  closedByServer: boolean
  /** Body bytes the client managed to write. */
  written: number
}

/**
 * Writes `head` and then body chunks of `chunk` bytes, as fast as the socket takes them, until `total` bytes,
 * the server closes the connection, or `waitMs` passes (or, with `untilAnswered`, a whole JSON answer came);
 * then reports what came back.
 */
export function rawSend(
  port: number,
  head: string,
  options: { chunk?: number; total?: number; chunked?: boolean; waitMs: number; untilAnswered?: boolean },
): Promise<RawAnswer> {
  const { chunk = 0, total = 0, chunked = false, waitMs, untilAnswered = false } = options
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let text = ''
    let written = 0
    let closedByServer = false
    let finished = false
    const finish = () => {
      if (finished) return
      finished = true
      clearTimeout(timer)
      socket.destroy()
      resolve({ text, closedByServer, written })
    }
    const timer = setTimeout(finish, waitMs)
    socket.setEncoding('latin1')
    socket.on('data', (d: string) => {
      text += d
      if (untilAnswered && /\r\n\r\n[^]*(\}|\r\n0\r\n\r\n)$/.test(text)) finish()
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      closedByServer = !finished
      finish()
    })
    const piece = chunked ? `${chunk.toString(16)}\r\n${' '.repeat(chunk)}\r\n` : ' '.repeat(chunk)
    const pump = () => {
      while (!finished && !socket.destroyed && written < total) {
        written += chunk
        if (!socket.write(piece)) return void socket.once('drain', pump)
      }
    }
    socket.write(head, () => pump())
  })
}

/** Status and JSON body of the first response in a raw answer. */
export function firstResponse(text: string): { status: number; body: unknown } {
  const [head = '', rest = ''] = text.split('\r\n\r\n', 2)
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)
  let body = rest
  if (/transfer-encoding: chunked/i.test(head)) {
    body = ''
    let at = 0
    for (;;) {
      const eol = rest.indexOf('\r\n', at)
      const size = parseInt(rest.slice(at, eol), 16)
      if (!(size > 0)) break
      body += rest.slice(eol + 2, eol + 2 + size)
      at = eol + 2 + size + 2
    }
  }
  return { status, body: body ? JSON.parse(body) : undefined }
}
