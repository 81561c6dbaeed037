import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { parseArgs } from 'node:util'
import { bodyStream, drainRest } from '../src/proxy/node'
import { FixtureError } from './fixture'
import { errorBody } from './http'
import { storeOf, createService } from './service'

const USAGE = `Usage: npm run server -- [--port 4010] [--host 127.0.0.1] [--fixture path.json] [--envelope] [--no-total-count]
                         [--latency ms] [--base-path /api] [--webhook URL --webhook-secret whsec_...]

  --envelope        wrap non-paginated bodies as {"data": ...}, as the hosted service does
  --no-total-count  leave totalCount out of feed pages, as a service that does not count may
  --webhook         post a signed message.created / message.updated webhook to URL for every in-app message
                    delivered or marked (Standard Webhooks; see server/WEBHOOKS.md)
  --webhook-secret  the signing secret, whsec_ followed by base64 (the proxy's events.webhookSecret)`

function main(): void {
  const { values } = parseArgs({
    allowNegative: true,
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      fixture: { type: 'string' },
      envelope: { type: 'boolean', default: false },
      'total-count': { type: 'boolean', default: true },
      latency: { type: 'string', default: '0' },
      'base-path': { type: 'string', default: '' },
      webhook: { type: 'string' },
      'webhook-secret': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  })
  if (values.help) {
    console.log(USAGE)
    return
  }
  const port = Number(values.port)
  const latency = Number(values.latency)
  if (!Number.isInteger(port) || port < 0 || port > 65535) return exit(`--port must be 0-65535\n${USAGE}`)
  if (!(latency >= 0)) return exit(`--latency must be a number of ms >= 0\n${USAGE}`)

  if ((values.webhook === undefined) !== (values['webhook-secret'] === undefined)) {
    return exit(`--webhook and --webhook-secret go together\n${USAGE}`)
  }
  let fixture: unknown
  if (values.fixture) {
    try {
      fixture = JSON.parse(readFileSync(values.fixture, 'utf8'))
    } catch (error) {
      return exit(`Cannot read fixture ${values.fixture}: ${(error as Error).message}`)
    }
  }
  let service
  try {
    service = createService({
      fixture,
      envelope: values.envelope,
      totalCount: values['total-count'],
      latency,
      basePath: values['base-path'],
      ...(values.webhook !== undefined && { webhooks: { url: values.webhook, secret: values['webhook-secret']! } }),
    })
  } catch (error) {
    if (error instanceof FixtureError) return exit(`Invalid fixture ${values.fixture}: ${error.message}`)
    if (error instanceof TypeError && /^webhooks\./.test(error.message)) return exit(`${error.message}\n${USAGE}`)
    throw error
  }

  const host = values.host.includes(':') ? `[${values.host}]` : values.host
  // A request that has not arrived whole within 30 s (a stalled body, say) gets 408 rather than holding a socket for Node's 5 minutes.
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 15_000 }, (req, res) => {
    void serve(service.fetch, req, res, `http://${host}:${port}`)
  })
  server.listen(port, values.host, () => {
    const address = server.address()
    const actualPort = typeof address === 'object' && address ? address.port : port
    const base = `http://${host}:${actualPort}${values['base-path']}`
    const subscriber = storeOf(service).subscribers()[0]?.subscriberId
    console.log(`Reference service listening on ${base}`)
    console.log(`API key: ${service.apiKey}`)
    console.log(
      `Fixture: ${values.fixture ?? 'built-in demo'}${values.envelope ? ' (envelope mode)' : ''}` +
        `${values['total-count'] ? '' : ' (no totalCount)'}`,
    )
    if (values.webhook !== undefined) console.log(`Webhooks: message.created and message.updated to ${values.webhook}`)
    const auth = `-H ${shellQuote(`Authorization: ApiKey ${service.apiKey}`)}`
    if (subscriber !== undefined) {
      const feed = `${base}/v1/subscribers/${encodeURIComponent(subscriber)}/notifications/feed?limit=10`
      console.log(`Subscriber: ${subscriber}`)
      console.log(`Try: curl -sS ${auth} ${shellQuote(feed)}`)
      return
    }
    const workflow = storeOf(service).workflows()[0]?.identifier
    if (workflow === undefined) return console.log('Subscriber: none in this fixture, and no workflow to create one')
    // A trigger creates its recipient, so the first request can make the first subscriber.
    const trigger = JSON.stringify({ name: workflow, to: 'first-subscriber' })
    console.log('Subscriber: none in this fixture; this trigger creates first-subscriber')
    console.log(
      `Try: curl -sS ${auth} -H 'Content-Type: application/json' -d ${shellQuote(trigger)} ${shellQuote(`${base}/v1/events/trigger`)}`,
    )
  })
}

/** One POSIX shell word, whatever `text` holds. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/** Methods a fetch Request cannot carry; the service would answer them 404 like any unknown route. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK'])

/** Converts a node:http request into a fetch Request and writes the Response back. */
async function serve(
  handler: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
): Promise<void> {
  const controller = new AbortController()
  res.on('close', () => {
    if (!res.writableFinished) controller.abort()
  })
  const method = req.method ?? 'GET'
  const hasBody = method !== 'GET' && method !== 'HEAD'
  // The body as the proxy's Node adapter reads it, read only as fast as the service consumes it.
  const listeners = { detach: () => {} }
  const body = hasBody ? bodyStream(req, listeners) : undefined
  // Once the answer is out, what the client still sends is read and dropped, as the proxy's Node adapter does: up
  // to 1 MiB, then the connection is ended, and closed 2 s after the answer at the latest.
  res.on('finish', () => {
    listeners.detach()
    drainRest(req)
  })
  try {
    const url = new URL(req.url ?? '/', origin)
    if (FORBIDDEN_METHODS.has(method.toUpperCase())) {
      const message = `Cannot ${method} ${url.pathname}`
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' })
      res.end(JSON.stringify(errorBody(404, message, url.pathname)))
      return
    }
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v)
      else if (value !== undefined) headers.set(name, value)
    }
    const request = new Request(url, {
      method,
      headers,
      signal: controller.signal,
      ...(body && { body, duplex: 'half' }),
    } as RequestInit)
    const response = await handler(request)
    const bytes = Buffer.from(await response.arrayBuffer())
    if (res.destroyed) return
    res.writeHead(response.status, Object.fromEntries(response.headers))
    res.end(bytes)
  } catch (error) {
    // An injected drop closes the connection without an answer.
    if (error instanceof TypeError && error.message === 'fetch failed') res.destroy()
    else if (!res.headersSent && !controller.signal.aborted && !res.destroyed) {
      console.error('[inbox-kit service]', error)
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ statusCode: 500, message: 'Internal server error', error: 'Internal Server Error' }))
    } else res.destroy()
  }
}

function exit(message: string): void {
  console.error(message)
  process.exitCode = 1
}

main()
