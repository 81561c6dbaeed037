/**
 * The kit reading the proxy's event stream: an arrival shows at once while polling waits a minute; when the
 * stream cannot be had the kit polls at its usual pace, and it drops back to the slow safety net once the
 * stream returns. Against the demo's backend in process: the reference service, its signed webhooks and the
 * proxy with `events`.
 */
import { QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createDemo } from '../../demo/server/backend'
import { createSubscriberClient } from '../../src/api/client'
import { startLive } from '../../src/core/live'
import { countQueryOptions, inboxKeys } from '../../src/core/queries'
import { openStream } from '../../src/core/stream'
import { createTokenAuth } from '../../src/auth/tokenAuth'
import { createInboxSync } from '../../src/core/sync'

const SECRET = 'kit-push-test-secret-of-at-least-32-bytes'
const JSON_SAME_ORIGIN = { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }
const stops: (() => void)[] = []
afterEach(() => stops.splice(0).forEach((stop) => stop()))

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
async function until(check: () => boolean, timeout = 5000): Promise<number> {
  const start = Date.now()
  while (!check()) {
    if (Date.now() - start > timeout) throw new Error('timed out')
    await sleep(10)
  }
  return Date.now() - start
}

async function setup() {
  const { backend } = createDemo({ secret: SECRET })
  const call = (path: string, init?: RequestInit) => backend(new Request('http://demo.test' + path, init))
  const session = (await (
    await call('/demo-auth/session', {
      method: 'POST',
      headers: JSON_SAME_ORIGIN,
      body: JSON.stringify({ subscriberId: 'demo-user' }),
    })
  ).json()) as { token: string }
  const sent: string[] = []
  let streamDown = false
  // A token the proxy no longer takes, until fresh credentials are asked for (as `auth.invalidate` does).
  let token = session.token
  const auth = { fresh: 0, signedOut: false }
  const client = createSubscriberClient({
    baseUrl: 'http://demo.test/api/inbox',
    getHeaders: () => ({ authorization: `Bearer ${token}` }),
    onUnauthorized: () => {
      auth.fresh++
      if (!auth.signedOut) token = session.token
    },
    retry: false,
    fetch: async (input, init) => {
      const url = new URL(String(input))
      sent.push(`${init?.method ?? 'GET'} ${url.pathname}${url.search}`)
      if (streamDown && url.pathname.endsWith('/events')) return new Response('down', { status: 503 })
      return backend(new Request(url, init))
    },
  })
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const sync = createInboxSync(client, queryClient, 'demo-user')
  for (const kind of ['unread', 'unseen'] as const)
    await queryClient.fetchQuery({ ...countQueryOptions(sync, kind), queryFn: sync.countFn(kind) })
  const unread = () => queryClient.getQueryData<{ count: number }>(inboxKeys.count('demo-user', 'unread'))!.count
  const trigger = () =>
    call('/demo-admin/v1/events/trigger', {
      method: 'POST',
      headers: { ...JSON_SAME_ORIGIN, authorization: `Bearer ${session.token}` },
      body: JSON.stringify({ name: 'comment-mention', to: 'demo-user' }),
    })
  const polls = () => sent.filter((r) => r.includes('read=false&limit=1')).length
  const expire = (signedOut = false) => ((auth.signedOut = signedOut), (token = 'stale'))
  const signIn = () => ((auth.signedOut = false), (token = session.token))
  return {
    sync,
    sent,
    unread,
    trigger,
    polls,
    auth,
    expire,
    signIn,
    setStreamDown: (down: boolean) => (streamDown = down),
  }
}

describe('the kit on the proxy’s event stream', () => {
  it('shows an arrival within a second while polling waits a minute, and sends nothing else meanwhile', async () => {
    const t = await setup()
    // A short period: only the stream can explain an update before it, and it must quiet the polling.
    const read = t.polls()
    stops.push(startLive(t.sync, () => ({ interval: 400 })))
    await until(() => t.sync.store.getState().source === 'stream')
    // The look of a stream opened from now (below): then nothing until the arrival.
    await until(() => t.polls() === read + 1)
    const polled = t.polls()
    await sleep(1500)
    const quiet = t.sent.length
    expect(t.polls()).toBe(polled)
    const before = t.unread()
    expect((await t.trigger()).status).toBe(201)
    const took = await until(() => t.unread() === before + 1, 2000)
    expect(took).toBeLessThan(1000)
    console.info(`[measure] trigger → count through the stream (in process): ${took} ms`)
    // The look it caused: two count requests; no poll before or after.
    await sleep(1200)
    expect(
      t.sent.slice(quiet).filter((r) => !r.endsWith('/events')),
      t.sent.slice(quiet).join('\n'),
    ).toHaveLength(2)
  })

  it('shows each of a few notifications a second as it comes: one look each, none held back', async () => {
    const t = await setup()
    stops.push(startLive(t.sync, () => ({ interval: undefined })))
    await until(() => t.sync.store.getState().source === 'stream')
    // The look it opens with.
    await sleep(300)
    const before = t.unread()
    const counts = [before]
    const off = t.sync.queryClient.getQueryCache().subscribe(() => {
      if (counts.at(-1) !== t.unread()) counts.push(t.unread())
    })
    // Two or three a second: each its own look at once, not gathered into one a second later.
    for (let i = 0; i < 5; i++) {
      expect((await t.trigger()).status).toBe(201)
      await sleep(400)
    }
    await until(() => t.unread() === before + 5)
    off()
    expect(counts).toEqual([0, 1, 2, 3, 4, 5].map((n) => before + n))
  })

  it('hears of what came between the first reads and the stream’s opening, by one look as it opens', async () => {
    const t = await setup()
    const before = t.unread()
    // Sent after the first reads (setup's) and before any stream: no event of it reaches the kit.
    expect((await t.trigger()).status).toBe(201)
    const read = t.sent.length
    // The usual periods: with the stream open, the next poll is a minute away.
    stops.push(startLive(t.sync, () => ({ interval: undefined })))
    const took = await until(() => t.unread() === before + 1, 3000)
    console.info(`[measure] arrival before the stream opened → count: ${took} ms`)
    expect(t.sync.store.getState().source).toBe('stream')
    // One look: its two counts (nothing here shows arrivals, so no page of new items).
    expect(t.sent.slice(read).filter((r) => r.includes('&limit=1'))).toHaveLength(2)
  })

  it('polls at its usual pace while the stream cannot be had, and drops back to the safety net when it returns', async () => {
    const t = await setup()
    t.setStreamDown(true)
    stops.push(startLive(t.sync, () => ({ interval: 300 })))
    await sleep(2000)
    const whileDown = t.polls()
    expect(whileDown).toBeGreaterThanOrEqual(4)
    const before = t.unread()
    await t.trigger()
    await until(() => t.unread() === before + 1, 2000)

    t.setStreamDown(false)
    // The stream's own backoff brings it back within a few seconds; then polling drops to once a minute.
    await until(() => t.sync.store.getState().source === 'stream', 15_000)
    // The look it opens with (from now: it never opened before), in process within milliseconds.
    await sleep(300)
    const polled = t.polls()
    await sleep(1500)
    expect(t.polls()).toBe(polled)
  }, 30_000)

  it('refused by the proxy, asks for fresh credentials at once and opens with them', async () => {
    const t = await setup()
    t.expire()
    const errors: Error[] = []
    // No polling: only the stream can bring the news.
    stops.push(startLive(t.sync, () => ({ interval: 0, onAuthError: (e) => errors.push(e) })))
    await until(() => t.sync.store.getState().source === 'stream', 3000)
    expect(t.sent.filter((r) => r.endsWith('/events'))).toHaveLength(2)
    expect(t.auth.fresh).toBe(1)
    const before = t.unread()
    await t.trigger()
    await until(() => t.unread() === before + 1, 2000)
  })

  it('signed out, stops asking for the stream and says so, as a look does', async () => {
    const t = await setup()
    t.expire(true)
    const errors: Error[] = []
    stops.push(startLive(t.sync, () => ({ interval: 0, onAuthError: (e) => errors.push(e) })))
    await until(() => errors.length > 0, 3000)
    const streams = () => t.sent.filter((r) => r.endsWith('/events')).length
    expect(streams()).toBe(2)
    await sleep(3000)
    expect(streams()).toBe(2)
    expect(t.sync.store.getState().source).toBe('poll')
    // Signed in again, "Try again" works: the stream opens again.
    t.signIn()
    await (await t.sync.ledger()).retry()
    await until(() => t.sync.store.getState().source === 'stream', 3000)
  }, 10_000)

  it('refused with credentials nothing can refresh (no getHeaders, no onUnauthorized), asks once and says so', async () => {
    const asked: string[] = []
    const refused: (boolean | undefined)[] = []
    const { backend } = createDemo({ secret: SECRET })
    stops.push(
      openStream(
        {
          baseUrl: 'http://demo.test/api/inbox',
          headers: { authorization: 'Bearer not-a-token' },
          fetch: (input, init) => (asked.push(String(input)), backend(new Request(String(input), init))),
        },
        { open: () => {}, closed: (r) => void refused.push(r), event: () => {} },
      ),
    )
    await until(() => refused.length > 0)
    await sleep(300)
    expect(refused).toEqual([true])
    expect(asked).toEqual(['http://demo.test/api/inbox/events'])
  })

  it('signed out before asking (the token route said so), asks for no stream and no token again', async () => {
    const asked: string[] = []
    const refused: (boolean | undefined)[] = []
    let tokens = 0
    const { backend } = createDemo({ secret: SECRET })
    const auth = createTokenAuth({ fetchToken: async () => (tokens++, null) })
    stops.push(
      openStream(
        {
          baseUrl: 'http://demo.test/api/inbox',
          getHeaders: auth.getHeaders,
          onUnauthorized: auth.invalidate,
          fetch: (input, init) => (asked.push(String(input)), backend(new Request(String(input), init))),
        },
        { open: () => {}, closed: (r) => void refused.push(r), event: () => {} },
      ),
    )
    await until(() => refused.length > 0)
    // Its backoff would have asked again after a second.
    await sleep(2500)
    expect(refused).toEqual([true])
    expect(tokens).toBe(1)
    expect(asked).toEqual([])
  })

  it('cuts its backoff short when the network comes back, and lets go at once when stopped while waiting', async () => {
    vi.useFakeTimers()
    const window = new EventTarget()
    vi.stubGlobal('addEventListener', window.addEventListener.bind(window))
    vi.stubGlobal('removeEventListener', window.removeEventListener.bind(window))
    try {
      let tries = 0
      const stop = openStream(
        {
          baseUrl: 'http://demo.test',
          fetch: () => (tries++, Promise.reject(new TypeError('fetch failed'))),
        },
        { open: () => {}, closed: () => {}, event: () => {} },
      )
      stops.push(stop)
      // Offline a long while: the waits have grown to minutes.
      await vi.advanceTimersByTimeAsync(20 * 60_000)
      const offline = tries
      await vi.advanceTimersByTimeAsync(10)
      expect(tries).toBe(offline)
      window.dispatchEvent(new Event('online'))
      await vi.advanceTimersByTimeAsync(10)
      expect(tries).toBe(offline + 1)
      // Stopped while it waits: no timer is left holding it.
      stop()
      await vi.advanceTimersByTimeAsync(10)
      expect(vi.getTimerCount()).toBe(0)
    } finally {
      vi.unstubAllGlobals()
      vi.useRealTimers()
    }
  })

  it('opens the stream again when it goes silent (a connection that died without a word, as after a sleep)', async () => {
    vi.useFakeTimers()
    try {
      const opened: ReadableStreamDefaultController<Uint8Array>[] = []
      const events: string[] = []
      const stop = openStream(
        {
          baseUrl: 'http://demo.test',
          fetch: async () => {
            const body = new ReadableStream<Uint8Array>({ start: (c) => void opened.push(c) })
            opened.at(-1)!.enqueue(new TextEncoder().encode('retry: 1000\n\nid: 1\nevent: ready\ndata: {}\n\n'))
            return new Response(body, { headers: { 'content-type': 'text/event-stream' } })
          },
        },
        { open: () => {}, closed: () => {}, event: (type) => void events.push(type) },
      )
      stops.push(stop)
      await vi.advanceTimersByTimeAsync(10)
      expect(opened).toHaveLength(1)
      expect(events).toEqual(['ready'])
      // Heartbeats (every 25 s from the proxy) keep it.
      for (let i = 0; i < 6; i++) {
        opened[0]!.enqueue(new TextEncoder().encode(': heartbeat\n\n'))
        await vi.advanceTimersByTimeAsync(25_000)
      }
      expect(opened).toHaveLength(1)
      // Then nothing, not even a heartbeat: opened again within a few missed ones.
      await vi.advanceTimersByTimeAsync(120_000)
      expect(opened).toHaveLength(2)
    } finally {
      vi.useRealTimers()
    }
  })
})
