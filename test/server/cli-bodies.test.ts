import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCli } from './spawn'

const MB = 1024 * 1024
const CHUNK = Buffer.alloc(64 * 1024, 'a')

/** A raw HTTP/1.1 request whose chunked body the test writes piece by piece, and the status line of its answer. */
function chunkedRequest(url: string, path: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(url)
  const socket: Socket = connect(Number(port), hostname)
  let received = ''
  let closed = false
  const status = new Promise<number>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1')
      const match = /^HTTP\/1\.1 (\d{3})/.exec(received)
      if (match && received.includes('\r\n\r\n')) resolve(Number(match[1]))
    })
    socket.on('close', () => reject(new Error(`closed before an answer: ${JSON.stringify(received.slice(0, 200))}`)))
  })
  socket.on('error', () => undefined)
  socket.on('close', () => (closed = true))
  const head = Object.entries({ host: 'localhost', 'transfer-encoding': 'chunked', ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')
  socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`)
  /** Writes `bytes` more of the body in 64 KiB chunks, waiting for the socket to drain; false once the server closed it. */
  const send = async (bytes: number): Promise<boolean> => {
    for (let sent = 0; sent < bytes; sent += CHUNK.length) {
      if (closed || socket.destroyed) return false
      socket.write(`${CHUNK.length.toString(16)}\r\n`)
      socket.write(CHUNK)
      if (!socket.write('\r\n'))
        await new Promise<void>((resolve) => {
          const done = () => {
            socket.off('drain', done).off('close', done)
            resolve()
          }
          socket.on('drain', done).on('close', done)
        })
    }
    return !closed
  }
  const end = () => socket.end('0\r\n\r\n')
  let answer: number | undefined
  void status.then(
    (s) => (answer = s),
    () => undefined,
  )
  /** Sends the body until the server answers (at most `limit` bytes); resolves with the status. */
  const sendUntilAnswered = async (limit: number): Promise<number> => {
    for (let sent = 0; answer === undefined && sent < limit; sent += CHUNK.length) {
      await send(CHUNK.length)
      await new Promise((resolve) => setImmediate(resolve))
    }
    return status
  }
  return { status, send, sendUntilAnswered, end, body: () => received }
}

/** Sends `text` on a fresh connection and collects what comes back until the server closes or `ms` pass. */
function rawExchange(url: string, text: string | Buffer, ms = 300): Promise<string> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname)
    let received = ''
    const done = () => {
      socket.destroy()
      resolve(received)
    }
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')))
    socket.on('error', () => undefined)
    socket.on('close', done)
    socket.write(text)
    setTimeout(done, ms)
  })
}

describe('npm run server under request bodies it refuses', () => {
  let cli: ReturnType<typeof startCli>
  let url: string
  let apiKey: string
  beforeAll(async () => {
    cli = startCli([])
    ;({ url, apiKey } = await cli.ready)
  })
  afterAll(() => {
    cli.child.kill()
  })

  const alive = async () => {
    const response = await fetch(`${url}/v1/integrations/active`, { headers: { authorization: `ApiKey ${apiKey}` } })
    return response.status
  }

  it('answers 413 to a chunked body over the limit and keeps serving (no crash on the bytes that follow)', async () => {
    const request = chunkedRequest(url, '/v1/subscribers/demo-user/messages/mark-as', {
      authorization: `ApiKey ${apiKey}`,
      'content-type': 'application/json',
    })
    // The route's limit is 100 KB.
    const status = await request.sendUntilAnswered(4 * MB)
    expect(status).toBe(413)
    expect(request.body()).toMatch(/"statusCode":413/)
    await request.send(4 * MB)
    request.end()
    expect(await alive()).toBe(200)
    expect(cli.child.exitCode).toBeNull()
    expect(cli.stderr()).not.toMatch(/ERR_INVALID_STATE|Controller is already closed/)
  })

  it.each([
    ['401 (no API key)', '/v1/events/trigger', 401, false],
    ['413 (over the limit)', '/v1/subscribers/demo-user/messages/mark-as', 413, true],
  ] as const)(
    'keeps none of the body sent after an early %s: memory stays flat while 256 MB arrive',
    async (_, path, expected, withKey) => {
      const request = chunkedRequest(url, path, {
        'content-type': 'application/json',
        ...(withKey && { authorization: `ApiKey ${apiKey}` }),
      })
      expect(await request.sendUntilAnswered(4 * MB)).toBe(expected)
      const before = cli.rss()
      const more = 256 * MB
      const stillOpen = await request.send(more)
      const after = cli.rss()
      // Either the server read and dropped everything, or it hung up: in neither case did it keep the bytes.
      expect(after - before, `RSS ${before} → ${after} with the socket ${stillOpen ? 'open' : 'closed'}`).toBeLessThan(
        more / 4,
      )
      request.end()
      expect(await alive()).toBe(200)
    },
  )
  it('answers odd methods, headers and framings with a 4xx (or closes), never a 5xx, and keeps serving', async () => {
    const auth = `Authorization: ApiKey ${apiKey}\r\n`
    const requests: (string | Buffer)[] = [
      'TRACE /v1/integrations/active HTTP/1.1\r\nHost: x\r\n\r\n',
      'TRACK / HTTP/1.1\r\nHost: x\r\n\r\n',
      'CONNECT example.com:443 HTTP/1.1\r\nHost: x\r\n\r\n',
      `PROPFIND /v1/integrations/active HTTP/1.1\r\nHost: x\r\n${auth}\r\n`,
      'QUERY / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}',
      'M-SEARCH * HTTP/1.1\r\nHost: x\r\n\r\n',
      `get /v1/integrations/active HTTP/1.1\r\nHost: x\r\n${auth}\r\n`,
      `GET /v1/integrations/active?${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`,
      `GET /v1/subscribers/demo-user/notifications/feed?${'limit=1&'.repeat(1_500)} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`,
      `GET /v1/integrations/active HTTP/1.1\r\nHost: x\r\n${auth}${Array.from({ length: 3_000 }, (_, i) => `X-${i}: 1\r\n`).join('')}\r\n`,
      Buffer.concat([
        Buffer.from(`POST /v1/events/trigger HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 2\r\nIdempotency-Key: `),
        Buffer.from([0xe9, 0xff]),
        Buffer.from('\r\n\r\n{}'),
      ]),
      Buffer.concat([
        Buffer.from('GET /v1/subscribers/'),
        Buffer.from([0xe9, 0xff]),
        Buffer.from(`/notifications/feed HTTP/1.1\r\nHost: x\r\n${auth}\r\n`),
      ]),
      `POST /v1/events/trigger HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      `POST /v1/events/trigger HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n`,
      `POST /v1/events/trigger HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      `POST /v1/events/trigger HTTP/1.1\r\nHost: x\r\n${auth}Expect: 100-continue\r\nContent-Length: 2\r\n\r\n{}`,
      `POST /v1/events/trigger HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 100\r\n\r\n{"name":`,
      'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
    ]
    const answers = await Promise.all(requests.map((text) => rawExchange(url, text)))
    answers.forEach((received, i) => {
      const statuses = [...received.matchAll(/HTTP\/1\.[01] (\d{3})/g)].map((m) => Number(m[1]))
      for (const status of statuses) expect(status, String(requests[i]).slice(0, 60)).toBeLessThan(500)
    })
    expect(await alive()).toBe(200)
    expect(cli.child.exitCode).toBeNull()
  })
})
