import type { IncomingMessage, ServerResponse } from 'node:http'

/** A Node request as node:http, Express and Connect hand it over. */
export interface NodeRequest extends IncomingMessage {
  /** Express keeps the full URL here when the handler is mounted under a path. */
  originalUrl?: string | undefined
  /** Set when a body parser already consumed the stream. */
  body?: unknown
}

/** What `toNodeHandler` passes as the handler's second argument. */
export interface NodeContext {
  req: NodeRequest
  res: ServerResponse
}

/** Methods the Fetch API refuses to put in a `Request`, so no fetch-standard handler can be asked about them. */
const UNCARRIED_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK'])

/** What a handler that does not say which methods it takes is taken to take: all that fetch can carry. */
const FETCH_METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']

/**
 * After an early answer (a 401 before the body was read, a 413 halfway), the rest of the body is read and
 * dropped, so the connection can serve the next request, but only this much and this long: past either, the
 * connection is ended rather than kept reading for a client that may never stop sending.
 */
const DRAIN_BYTES = 1 << 20
const DRAIN_MS = 2_000

/**
 * What may still wait in Node for an event stream's client once the stream is over, when the client has
 * stopped reading (the system's buffers are full before Node holds anything): at this much or more it is
 * dropped at once. Node 20's default high-water mark; from Node 22 the default is 64 KiB, below which a write
 * does not yet say to wait, so that alone cannot tell.
 */
const STALLED_BYTES = 16_384

/**
 * Adapts a fetch-standard handler (such as the one from `createInboxProxy`) to Node's
 * `(req, res)` signature, for `http.createServer` and Express alike.
 *
 * Mount it before any body parser; if one ran first, the parsed body is sent on as JSON.
 * With Express, the full URL (`req.originalUrl`) is used, so the proxy's `basePath` is the mount path.
 * The handler gets `{ req, res }` as its second argument, so `authenticate` can read `req.session`.
 *
 * Requests that cannot become a fetch `Request` are answered here, in the service's error shape: a method
 * fetch cannot carry (`TRACE`, `CONNECT`) → 405 with `Allow` (what the handler's `allowedMethods` names for
 * the path, else its `methods`), a `Host` header or request target that is not a usable URL → 400. The request
 * body is read only as fast as the handler reads it; when the handler answers before reading all of it, at most
 * 1 MiB more is read (and dropped), after which the connection is ended, and closed 2 s after the answer at the
 * latest. A client that goes away mid-body aborts the request's `signal` and errors its body; nothing throws.
 *
 * Answers stream: each chunk is written as it comes, as fast as the client takes it, and a client that goes
 * away cancels the rest at once. A `text/event-stream` answer (the proxy's `/events`) has its headers sent
 * straight away and is exempt from the socket's idle timeout, so it lives as long as the client stays; when it
 * ends while its client is not taking what was sent, the connection is dropped rather than left waiting: at
 * once with 16 KiB or more waiting, else when the client has not taken the rest within 2 s.
 *
 * @example
 * app.use('/api/inbox', toNodeHandler(createInboxProxy({ ..., basePath: '/api/inbox' })))
 */
export function toNodeHandler(
  handler: ((request: Request, context: NodeContext) => Promise<Response>) & {
    readonly methods?: readonly string[]
    allowedMethods?: (path: string) => readonly string[]
  },
): (req: NodeRequest, res: ServerResponse, next?: (error?: unknown) => void) => Promise<void> {
  return async (req, res) => {
    const controller = new AbortController()
    // 'close' on the response fires once it is finished or the client went away; only the latter aborts.
    res.on('close', () => {
      if (!res.writableFinished) controller.abort()
    })
    // The body stream's listeners, taken off once the answer is out, so that draining reads the rest.
    const bodyListeners = { detach: () => {} }
    res.on('finish', () => {
      bodyListeners.detach()
      drainRest(req)
    })
    const path = (req.originalUrl ?? req.url ?? '/').split('?')[0]!
    try {
      const method = req.method ?? 'GET'
      if (UNCARRIED_METHODS.has(method.toUpperCase())) {
        // The path as the handler would read it from a `Request`, whatever the Host: `Allow` as it names it there.
        const at = requestUrl(req, 'localhost')?.pathname
        const allowed = at === undefined ? undefined : handler.allowedMethods?.(at)
        const allow = (allowed ?? handler.methods ?? FETCH_METHODS).join(', ')
        return void sendError(res, 405, path, `The method ${method} is not allowed here.`, { allow })
      }
      const url = requestUrl(req)
      if (!url) return void sendError(res, 400, path, 'The Host header or the request target is not a usable URL.')
      let request: Request
      try {
        request = toRequest(req, method, url, controller.signal, bodyListeners)
      } catch {
        return void sendError(res, 400, path, 'The request could not be read.')
      }
      const response = await handler(request, { req, res })
      res.statusCode = response.status
      response.headers.forEach((value, name) => res.setHeader(name, value))
      if (!response.body) {
        res.end()
        return
      }
      const reader = response.body.getReader()
      if (/^text\/event-stream/i.test(response.headers.get('content-type') ?? '')) {
        // A stream lives as long as the client stays: no idle timeout of the server's may end it, and its
        // headers go out now rather than with a first event that may be long in coming.
        req.socket?.setTimeout(0)
        res.flushHeaders()
        // So once the stream is over (cut off, replaced, expired), a client still not taking what was sent would
        // hold the connection for ever, uncounted by the proxy's limits: it is dropped instead, at once when a
        // buffer's worth waits for it, else once it has not taken the rest within DRAIN_MS.
        const over = () => {
          if (res.writableNeedDrain || res.writableLength >= STALLED_BYTES) return void res.destroy()
          if (res.writableFinished) return
          const timer = setTimeout(() => res.destroy(), DRAIN_MS)
          ;(timer as { unref?: () => void }).unref?.()
          const clear = () => clearTimeout(timer)
          res.once('finish', clear)
          res.once('close', clear)
        }
        reader.closed.then(over, over)
      }
      // A client gone while nothing is being sent is noticed at once, not at the next chunk.
      const stop = () => void reader.cancel().catch(() => {})
      controller.signal.addEventListener('abort', stop)
      try {
        for (;;) {
          const { done, value } = await reader.read()
          if (done || controller.signal.aborted) break
          // Written only as fast as the client reads, so a slow reader does not pile the answer up in memory.
          if (!res.write(value)) await writable(res)
        }
      } finally {
        controller.signal.removeEventListener('abort', stop)
      }
      res.end()
    } catch {
      if (res.headersSent) {
        res.destroy()
        return
      }
      sendError(res, 500, path, 'The request could not be handled.')
    }
  }
}

/** Resolves once `res` takes more, or is gone. */
function writable(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}

function sendError(
  res: ServerResponse,
  status: number,
  path: string,
  message: string,
  headers: Record<string, string> = {},
) {
  const error = { 400: 'Bad Request', 405: 'Method Not Allowed', 500: 'Internal Server Error' }[
    status as 400 | 405 | 500
  ]
  res.statusCode = status
  for (const [name, value] of Object.entries({ ...headers, 'content-type': 'application/json; charset=utf-8' })) {
    res.setHeader(name, value)
  }
  res.end(JSON.stringify({ statusCode: status, timestamp: new Date().toISOString(), path, message, error }))
}

/**
 * The request's URL, or null when the Host header is not a bare host and port (it would move or rewrite the
 * path) or the target is neither a path nor an absolute http(s) URL. A missing Host (HTTP/1.0) reads as
 * `localhost`; `host` stands in for the header where only the path matters.
 */
function requestUrl(req: NodeRequest, host = req.headers.host ?? 'localhost'): URL | null {
  if (!/^(?:\[[\dA-Fa-f:.]+\]|[\w.~!$&'()*+,;=%-]+)(?::\d*)?$/.test(host)) return null
  let target = req.originalUrl ?? req.url ?? '/'
  const scheme = (req.socket as { encrypted?: boolean } | undefined)?.encrypted ? 'https' : 'http'
  try {
    if (!target.startsWith('/')) {
      const absolute = new URL(target)
      if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:') return null
      target = absolute.pathname + absolute.search
    }
    // Joined as text rather than resolved against a base, so that a target starting `//` stays a path.
    return new URL(`${scheme}://${host}${target}`)
  } catch {
    return null
  }
}

function toRequest(
  req: NodeRequest,
  method: string,
  url: URL,
  signal: AbortSignal,
  stream: { detach: () => void },
): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const v of value) headers.append(name, v)
    else headers.set(name, value)
  }
  let body: BodyInit | undefined
  if (method !== 'GET' && method !== 'HEAD') {
    if (req.body !== undefined && (req.readableEnded || req.complete)) {
      body =
        typeof req.body === 'string' || req.body instanceof Uint8Array
          ? (req.body as BodyInit)
          : JSON.stringify(req.body)
      headers.delete('content-length')
    } else {
      body = bodyStream(req, stream)
    }
  }
  return new Request(url, { method, headers, body, signal, duplex: 'half' } as RequestInit)
}

/**
 * The request body as a web stream, with back-pressure. Built by hand rather than with
 * `node:stream`, so that the proxy entry imports nothing of Node and also loads in edge runtimes. `handle.detach`
 * takes its listeners off the request (the handler cancelled the body, or answered before reading all of it):
 * what is left is then for {@link drainRest}. The reference service's command line serves with it too.
 */
export function bodyStream(req: NodeRequest, handle: { detach: () => void }): ReadableStream<Uint8Array> {
  let detach = () => {}
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const onData = (chunk: Uint8Array | string) => {
        controller.enqueue(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : new Uint8Array(chunk))
        if ((controller.desiredSize ?? 0) <= 0) req.pause()
      }
      const onEnd = () => {
        detach()
        controller.close()
      }
      const onError = (error: Error) => {
        detach()
        controller.error(error)
      }
      // A client gone mid-body may close the request without an 'error'; the reader must not wait forever.
      const onClose = () => {
        if (req.complete) return
        detach()
        controller.error(new Error('The client closed the connection before sending the whole body.'))
      }
      detach = () => {
        req.off('data', onData)
        req.off('end', onEnd)
        req.off('error', onError)
        req.off('close', onClose)
      }
      handle.detach = detach
      req.on('data', onData)
      req.on('end', onEnd)
      req.on('error', onError)
      req.on('close', onClose)
    },
    pull() {
      req.resume()
    },
    cancel() {
      // Paused until the answer is out: what is left is drained then, once reading it cannot delay the answer.
      detach()
      req.pause()
    },
  })
}

/**
 * Once the answer is out, reads and drops what is left of a request body nobody will read, so the connection
 * can serve the next request. Past {@link DRAIN_BYTES}, it stops reading and ends its side of the connection
 * (after the answer, so the client still gets it); past {@link DRAIN_MS}, it closes the connection.
 */
export function drainRest(req: IncomingMessage): void {
  if (req.complete || req.destroyed || req.listenerCount('data') > 0) return
  let left = DRAIN_BYTES
  const timer = setTimeout(() => req.socket?.destroy(), DRAIN_MS)
  ;(timer as { unref?: () => void }).unref?.()
  const onData = (chunk: Uint8Array | string) => {
    left -= chunk.length
    if (left >= 0) return
    req.off('data', onData)
    req.pause()
    req.socket?.end()
  }
  const done = () => {
    clearTimeout(timer)
    req.off('data', onData)
  }
  req.on('data', onData)
  req.once('end', done)
  req.once('close', done)
  // An error here is the client going away, which is what draining waits for anyway.
  req.once('error', done)
  req.resume()
}
