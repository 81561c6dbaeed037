import type { IncomingMessage, ServerResponse } from 'node:http'

/** A Node request as node:http, Express and Connect hand it over. */
export interface NodeRequest extends IncomingMessage {
  /** Express keeps the full URL here when the handler is mounted under a path. */
  originalUrl?: string
  /** Set when a body parser already consumed the stream. */
  body?: unknown
}

/** What `toNodeHandler` passes as the handler's second argument. */
export interface NodeContext {
  req: NodeRequest
  res: ServerResponse
}

/**
 * Adapts a fetch-standard handler (such as the one from `createInboxProxy`) to Node's
 * `(req, res)` signature, for `http.createServer` and Express alike.
 *
 * Mount it before any body parser; if one ran first, the parsed body is sent on as JSON.
 * With Express, the full URL (`req.originalUrl`) is used, so the proxy's `basePath` is the mount path.
 * The handler gets `{ req, res }` as its second argument, so `authenticate` can read `req.session`.
 *
 * @example
 * app.use('/api/inbox', toNodeHandler(createInboxProxy({ ..., basePath: '/api/inbox' })))
 */
export function toNodeHandler(
  handler: (request: Request, context: NodeContext) => Promise<Response>,
): (req: NodeRequest, res: ServerResponse, next?: (error?: unknown) => void) => Promise<void> {
  return async (req, res) => {
    const controller = new AbortController()
    // 'close' on the response fires once it is finished or the client went away; only the latter aborts.
    res.on('close', () => {
      if (!res.writableFinished) controller.abort()
    })
    try {
      const response = await handler(toRequest(req, controller.signal), { req, res })
      res.statusCode = response.status
      response.headers.forEach((value, name) => res.setHeader(name, value))
      if (!response.body) {
        res.end()
        return
      }
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (controller.signal.aborted) break
        res.write(chunk)
      }
      res.end()
    } catch {
      if (res.headersSent) {
        res.destroy()
        return
      }
      res.statusCode = 500
      res.setHeader('content-type', 'application/json; charset=utf-8')
      res.end(
        JSON.stringify({
          statusCode: 500,
          timestamp: new Date().toISOString(),
          path: (req.originalUrl ?? req.url ?? '/').split('?')[0],
          message: 'The request could not be handled.',
          error: 'Internal Server Error',
        }),
      )
    }
  }
}

function toRequest(req: NodeRequest, signal: AbortSignal): Request {
  // Only the path and query are read by the proxy; the host is a placeholder when the header is missing.
  const url = new URL(req.originalUrl ?? req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const v of value) headers.append(name, v)
    else headers.set(name, value)
  }
  const method = req.method ?? 'GET'
  let body: BodyInit | undefined
  if (method !== 'GET' && method !== 'HEAD') {
    if (req.body !== undefined && (req.readableEnded || req.complete)) {
      body =
        typeof req.body === 'string' || req.body instanceof Uint8Array
          ? (req.body as BodyInit)
          : JSON.stringify(req.body)
      headers.delete('content-length')
    } else {
      body = bodyStream(req)
    }
  }
  return new Request(url, { method, headers, body, signal, duplex: 'half' } as RequestInit)
}

/**
 * The request body as a web stream, with back-pressure. Built by hand rather than with
 * `node:stream`, so that the proxy entry imports nothing of Node and also loads in edge runtimes.
 * A cancelled stream (a body over the limit) lets the rest drain unread, so the answer still goes out.
 */
function bodyStream(req: NodeRequest): ReadableStream<Uint8Array> {
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
      detach = () => {
        req.off('data', onData)
        req.off('end', onEnd)
        req.off('error', onError)
      }
      req.on('data', onData)
      req.on('end', onEnd)
      req.on('error', onError)
    },
    pull() {
      req.resume()
    },
    cancel() {
      detach()
      req.resume()
    },
  })
}
