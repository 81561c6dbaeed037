/**
 * The kit's stream reader against an event stream that misbehaves: the proxy's real stream, cut short or
 * followed by what no proxy sends, through a wrapper around its fetch handler.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { openStream } from '../../src/core/stream'
import { APP, BASE_PATH, startProxy } from '../proxy/harness'
import { WEBHOOK_SECRET } from './sse'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const stops: (() => void)[] = []
afterEach(() => {
  stops.splice(0).forEach((stop) => stop())
  vi.restoreAllMocks()
})

/**
 * Opens the kit's stream on the proxy as `user-1`; `tamper` makes the body the kit reads from the proxy's
 * first chunk (its `retry:` hint and `ready`). Counts the streams opened and what the kit heard.
 */
function open(tamper: (first: Uint8Array) => ReadableStream<Uint8Array>) {
  const { proxy, bearer } = startProxy({ events: { webhookSecret: WEBHOOK_SECRET } })
  const seen = { opened: 0, closed: 0, events: [] as string[] }
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await proxy(new Request(String(input), init))
    if (!response.ok) return response
    seen.opened++
    const reader = response.body!.getReader()
    const { value } = await reader.read()
    void reader.cancel()
    return new Response(tamper(value!), { headers: response.headers })
  }) as typeof globalThis.fetch
  const stop = openStream(
    { baseUrl: APP + BASE_PATH, fetch, getHeaders: async () => ({ authorization: await bearer('user-1') }) },
    { open: () => {}, closed: () => void seen.closed++, event: (type) => void seen.events.push(type) },
  )
  stops.push(stop)
  return seen
}

describe('an event stream that misbehaves', () => {
  it('is opened less and less often when every stream ends as soon as it opened', async () => {
    // The least of each backoff's jitter: 1 s, then 2 s, 4 s … between attempts.
    vi.spyOn(Math, 'random').mockReturnValue(0)
    const seen = open((first) => new Response(first as BodyInit).body!)
    await sleep(4500)
    // Opened at 0, 1 and 3 s; at a fixed 1 s it would have been five times.
    expect(seen.opened).toBe(3)
    expect(seen.events).toEqual(['ready', 'ready', 'ready'])
  })

  it.each([
    ['one line', 'x'.repeat(64 * 1024)],
    ['lines of data', `data: ${'x'.repeat(64 * 1024)}\n`],
  ])(
    'drops a stream whose event does not end (%s) rather than hold it in memory, and opens it again later',
    async (_, piece) => {
      let sent = 0
      const chunk = new TextEncoder().encode(piece)
      const seen = open((first) => {
        let started = false
        return new ReadableStream<Uint8Array>({
          async pull(controller) {
            // A chunk a task, as a network delivers them (and so that a reader without end cannot starve the test).
            await sleep(0)
            if (started) return void (controller.enqueue(chunk), (sent += chunk.length))
            started = true
            controller.enqueue(first)
            controller.enqueue(new TextEncoder().encode('data: '))
          },
        })
      })
      await vi.waitFor(() => expect(seen.closed).toBe(1), { timeout: 5000 })
      expect(sent).toBeLessThan(4 * 1024 * 1024)
      expect(seen.events).toEqual(['ready'])
    },
  )
})
