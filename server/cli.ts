import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { parseArgs } from 'node:util'
import { FixtureError } from './fixture'
import { createService } from './service'

const USAGE = `Usage: npm run server -- [--port 4010] [--host 127.0.0.1] [--fixture path.json] [--envelope] [--latency ms] [--base-path /api]`

function main(): void {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      fixture: { type: 'string' },
      envelope: { type: 'boolean', default: false },
      latency: { type: 'string', default: '0' },
      'base-path': { type: 'string', default: '' },
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
    service = createService({ fixture, envelope: values.envelope, latency, basePath: values['base-path'] })
  } catch (error) {
    if (error instanceof FixtureError) return exit(`Invalid fixture ${values.fixture}: ${error.message}`)
    throw error
  }

  const server = createServer((req, res) => {
    void serve(service.fetch, req, res, `http://${values.host}:${port}`)
  })
  server.listen(port, values.host, () => {
    const address = server.address()
    const actualPort = typeof address === 'object' && address ? address.port : port
    console.log(`Reference service listening on http://${values.host}:${actualPort}${values['base-path']}`)
    console.log(`API key: ${service.apiKey}`)
    console.log(`Fixture: ${values.fixture ?? 'built-in demo'}${values.envelope ? ' (envelope mode)' : ''}`)
  })
}

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
  try {
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v)
      else if (value !== undefined) headers.set(name, value)
    }
    const method = req.method ?? 'GET'
    const hasBody = method !== 'GET' && method !== 'HEAD'
    const request = new Request(new URL(req.url ?? '/', origin), {
      method,
      headers,
      signal: controller.signal,
      ...(hasBody && {
        body: new ReadableStream<Uint8Array>({
          start(stream) {
            req.on('data', (chunk: Buffer) => stream.enqueue(new Uint8Array(chunk)))
            req.on('end', () => stream.close())
            req.on('error', (error) => stream.error(error))
          },
        }),
        duplex: 'half',
      }),
    } as RequestInit)
    const response = await handler(request)
    res.writeHead(response.status, Object.fromEntries(response.headers))
    res.end(Buffer.from(await response.arrayBuffer()))
  } catch (error) {
    // An injected drop closes the connection without an answer.
    if (error instanceof TypeError && error.message === 'fetch failed') res.destroy()
    else if (!res.headersSent && !controller.signal.aborted) {
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
