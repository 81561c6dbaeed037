/**
 * The kit's stream reader against an event stream that misbehaves: the proxy's real stream, cut short or
 * followed by what no proxy sends, through a wrapper around its fetch handler.
 */
import { QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSubscriberClient } from '../../src/api/client'
import { startLive } from '../../src/core/live'
import { countQueryOptions, feedQueryOptions, feedFilters } from '../../src/core/queries'
import { pageFn } from '../../src/core/reach'
import { openStream } from '../../src/core/stream'
import { createInboxSync } from '../../src/core/sync'
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
  const seen = { opened: 0, closed: 0, events: [] as string[], lastEventIds: [] as (string | null)[] }
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(String(input), init)
    const response = await proxy(request)
    if (!response.ok) return response
    seen.opened++
    seen.lastEventIds.push(request.headers.get('last-event-id'))
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

  it('ignores an event id that cannot go back as Last-Event-ID, and resumes from the last one that can', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0)
    const lastIds: (string | null)[] = []
    const seen = open((first) => {
      const ready = /id: (\S+)/.exec(new TextDecoder().decode(first))![1]!
      lastIds.push(ready)
      return new Response(
        new Blob([
          first as BlobPart,
          'id: 😀\nevent: message.created\ndata: {}\n\nid: a\u0000b\nevent: x\ndata: {}\n\n',
        ]),
      ).body!
    })
    await vi.waitFor(() => expect(seen.opened).toBe(2), { timeout: 3000 })
    expect(seen.events.slice(0, 3)).toEqual(['ready', 'message.created', 'x'])
    expect(seen.lastEventIds).toEqual([null, lastIds[0]])
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

/**
 * The live loop of `user-1` on the proxy's stream; `after` makes what follows the stream's first chunk (none:
 * the proxy's own stream). Lists the requests that reached the service.
 */
async function live(after?: () => ReadableStream<Uint8Array>) {
  const started = startProxy({ events: { webhookSecret: WEBHOOK_SECRET } })
  const client = createSubscriberClient({
    baseUrl: APP + BASE_PATH,
    getHeaders: async () => ({ authorization: await started.bearer('user-1') }),
    retry: false,
    fetch: async (input, init) => {
      const response = await started.proxy(new Request(String(input), init))
      if (!after || !String(input).endsWith('/events') || !response.ok) return response
      const reader = response.body!.getReader()
      const { value } = await reader.read()
      void reader.cancel()
      const rest = after().getReader()
      let first = true
      return new Response(
        new ReadableStream<Uint8Array>({
          async pull(controller) {
            if (first) return void ((first = false), controller.enqueue(value!))
            const { done, value: next } = await rest.read()
            if (done) controller.close()
            else controller.enqueue(next)
          },
        }),
        { headers: response.headers },
      )
    },
  })
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const sync = createInboxSync(client, queryClient, 'user-1')
  for (const kind of ['unread', 'unseen'] as const)
    await queryClient.fetchQuery({ ...countQueryOptions(sync, kind), queryFn: sync.countFn(kind) })
  // A list on screen, as the open popover has it.
  await queryClient.fetchInfiniteQuery({ ...feedQueryOptions(sync), queryFn: pageFn(sync, feedFilters()) as never })
  const read = started.forwarded.length
  stops.push(startLive(sync, () => ({ interval: 0 })))
  await vi.waitFor(() => expect(sync.store.getState().source).toBe('stream'))
  // A stream opened from now begins with a look (its two counts): done before what a test counts.
  await vi.waitFor(() => expect(started.forwarded.length).toBe(read + 2))
  started.forwarded.length = 0
  return started
}

/** A stream of `count` events of `type`, one every 30 ms; `onEnd` is called as it closes. */
const every30ms = (type: string, count: number, onEnd = () => {}) => {
  let n = 0
  return () =>
    new ReadableStream<Uint8Array>({
      async pull(controller) {
        await sleep(30)
        if (n++ === count) return void (onEnd(), controller.close())
        controller.enqueue(new TextEncoder().encode(`id: 9-${n}\nevent: ${type}\ndata: {"type":"${type}"}\n\n`))
      },
    })
}

describe('a flood of events', () => {
  it('makes at most four looks a second, not one per event (the proxy’s own events, 30 ms apart)', async () => {
    const t = await live()
    const started = Date.now()
    for (let i = 0; i < 100; i++) {
      await t.proxy.notify(['user-1'])
      await sleep(30)
    }
    await sleep(1100)
    // About four seconds (more on a loaded machine, whose timers run late): up to four looks (two counts each) a
    // second; one look per event would be 200 requests.
    const seconds = Math.ceil((Date.now() - started) / 1000)
    expect(t.forwarded.length).toBeGreaterThanOrEqual(2)
    expect(t.forwarded.length).toBeLessThanOrEqual(2 * 4 * seconds)
  })

  it('makes one look a second of `reset` events too, each reading every list', async () => {
    let ended = 0
    const started = Date.now()
    const t = await live(every30ms('reset', 100, () => (ended = Date.now())))
    // The flood's three seconds (more on a loaded machine, whose timers run late) and the look after it.
    await vi.waitFor(() => expect(ended).toBeGreaterThan(0), { timeout: 20_000 })
    await sleep(1500)
    // A list's pages (a count reads one item: limit=1).
    const lists = () => t.forwarded.filter((f) => f.url.searchParams.get('limit') !== '1').length
    // Each look: the two counts and, the counts unchanged though they are, the list; whole once the last is read.
    await vi.waitFor(() => expect(t.forwarded.length).toBe(lists() * 3))
    expect(lists()).toBeGreaterThanOrEqual(1)
    expect(lists()).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / 1000))
  })
})
