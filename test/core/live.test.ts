// @vitest-environment jsdom
/**
 * The live loop on a bare QueryClient and a fake clock, against the reference service in process:
 * cadence by focus and visibility, backoff through an outage, fresh credentials on a 401, counts with
 * and without totalCount.
 */
import { QueryClient, focusManager, onlineManager } from '@tanstack/react-query'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createInboxClient } from '../../src/api/client'
import { ApiError } from '../../src/api/errors'
import { startLive, type LiveOptions } from '../../src/core/live'
import { countQueryOptions, inboxKeys } from '../../src/core/queries'
import { createInboxSync } from '../../src/core/sync'
import { buildFixture, inApp, messages, TEST_SUBSCRIBER_ID, workflow } from '../support/fixtures'
import { startService } from '../support/service'
import type { ServiceOptions } from '../../server'

let focused = true
let hidden = false
const stops: (() => void)[] = []

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
  focused = true
  hidden = false
  vi.spyOn(document, 'hasFocus').mockImplementation(() => focused)
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') })
})

afterEach(() => {
  for (const stop of stops.splice(0)) stop()
  vi.useRealTimers()
  vi.restoreAllMocks()
  onlineManager.setOnline(true)
})

let tab = 0

/** A provider's bookkeeping and live loop, without React; every request the service gets is listed. */
function start(
  options: LiveOptions & {
    service?: ServiceOptions
    count?: number
    auth?: { invalidate(): void }
    /** Another provider of the same inbox in the same page: its service and channel, a QueryClient of its own. */
    beside?: ReturnType<typeof startService>
  } = {},
) {
  const { service: serviceOptions, count = 3, auth, beside, ...live } = options
  const started =
    beside ??
    startService({
      fixture: buildFixture({
        workflows: [workflow('test-workflow', [inApp('Hello')])],
        messages: messages(TEST_SUBSCRIBER_ID, count),
      }),
      ...serviceOptions,
    })
  const requests: string[] = []
  const client = createInboxClient({
    // One channel per test: tabs of earlier tests are gone.
    baseUrl: started.baseUrl,
    apiKey: started.service.apiKey,
    retry: false,
    ...(auth ? { onUnauthorized: () => auth.invalidate() } : {}),
    fetch: (input, init) => {
      const url = new URL(String(input))
      requests.push(`${init?.method ?? 'GET'} ${url.pathname}${url.search}`)
      return started.fetch(input, init)
    },
  })
  ;(client.options as { baseUrl: string }).baseUrl += `?tab=${beside ? tab : ++tab}`
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const sync = createInboxSync(client, queryClient, TEST_SUBSCRIBER_ID)
  const stop = startLive(sync, () => ({ stream: false, ...live }))
  stops.push(stop)
  return { ...started, started, requests, sync, queryClient, stop }
}

/** Loads both counts as the Bell would on mount. */
async function mountCounts(t: ReturnType<typeof start>) {
  // The ledger's module, which the loop loads on its first look: loading takes real time, which the fake
  // clock does not wait for.
  await t.sync.ledger()
  await Promise.all(
    (['unread', 'unseen'] as const).map((kind) =>
      t.queryClient.fetchQuery({ ...countQueryOptions(t.sync, kind), queryFn: t.sync.countFn(kind) }),
    ),
  )
  // The tab's election (no Web Locks here: over the channel, a beat of waiting).
  await vi.advanceTimersByTimeAsync(200)
  t.requests.length = 0
}

const looks = (requests: string[]) => requests.filter((r) => r.includes('read=false')).length

describe('cadence', () => {
  it('looks every 10 s while focused, every 30 s while visible, never while hidden; at once on focus', async () => {
    const t = start()
    await mountCounts(t)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(looks(t.requests)).toBe(6)
    // A look with nothing new: the two counts, one item each, and nothing else.
    expect(t.requests.slice(0, 2)).toEqual([
      `GET /v1/subscribers/${TEST_SUBSCRIBER_ID}/notifications/feed?read=false&limit=1`,
      `GET /v1/subscribers/${TEST_SUBSCRIBER_ID}/notifications/feed?seen=false&limit=1`,
    ])
    expect(t.requests).toHaveLength(12)

    t.requests.length = 0
    focused = false
    window.dispatchEvent(new Event('blur'))
    await vi.advanceTimersByTimeAsync(90_000)
    expect(looks(t.requests)).toBe(3)

    t.requests.length = 0
    hidden = true
    focusManager.setFocused(false)
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(t.requests).toHaveLength(0)

    hidden = false
    focused = true
    focusManager.setFocused(undefined)
    window.dispatchEvent(new Event('focus'))
    await vi.advanceTimersByTimeAsync(100)
    expect(looks(t.requests)).toBe(1)
  })

  it('takes pollInterval as a fixed period, and 0 as none', async () => {
    const every = start({ interval: 5000 })
    await mountCounts(every)
    await vi.advanceTimersByTimeAsync(30_000)
    expect(looks(every.requests)).toBe(6)
    every.stop()

    const never = start({ interval: 0 })
    await mountCounts(never)
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(never.requests).toHaveLength(0)
  })

  it('does not look while offline, and looks at once on reconnect', async () => {
    const t = start()
    await mountCounts(t)
    onlineManager.setOnline(false)
    await vi.advanceTimersByTimeAsync(5 * 60_000)
    expect(t.requests).toHaveLength(0)
    onlineManager.setOnline(true)
    await vi.advanceTimersByTimeAsync(100)
    expect(looks(t.requests)).toBe(1)
  })
})

describe('failures', () => {
  it('backs off through a 30-minute outage to a handful of requests, and recovers on the first success', async () => {
    const t = start()
    await mountCounts(t)
    const outage = t.service.faults.add({ method: 'GET', path: /feed$/, status: 503 })
    await vi.advanceTimersByTimeAsync(30 * 60_000)
    const during = t.requests.length
    expect(during).toBeGreaterThan(5)
    expect(during).toBeLessThanOrEqual(20)
    const trouble = t.sync.store.getState().trouble
    expect(trouble?.error).toBeInstanceOf(ApiError)
    expect(trouble?.error).toMatchObject({ status: 503, message: 'Injected failure' })
    expect(trouble?.retryAt).toBeGreaterThan(Date.now())
    console.info(`[measure] requests during a 30-minute outage (focused tab, fake clock): ${during}`)

    outage()
    t.requests.length = 0
    await vi.advanceTimersByTimeAsync(5 * 60_000)
    expect(t.sync.store.getState().trouble).toBeNull()
    // Back to every 10 s after the first success.
    t.requests.length = 0
    await vi.advanceTimersByTimeAsync(30_000)
    expect(looks(t.requests)).toBe(3)
  })

  it('on a 401 asks for fresh credentials once and repeats the request; refused again, it stops until focus', async () => {
    const invalidate = vi.fn()
    const onAuthError = vi.fn()
    const t = start({ auth: { invalidate }, onAuthError })
    await mountCounts(t)
    const refused = t.service.faults.add({ method: 'GET', path: /feed$/, status: 401 })
    await vi.advanceTimersByTimeAsync(10_000)
    // The look's first request went twice (fresh credentials in between), then the loop stopped.
    expect(t.requests, t.requests.join('\n')).toHaveLength(2)
    expect(invalidate).toHaveBeenCalledTimes(1)
    expect(onAuthError).toHaveBeenCalledTimes(1)
    expect(onAuthError.mock.calls[0]![0]).toMatchObject({ status: 401 })
    expect(t.sync.store.getState().trouble).toMatchObject({ retryAt: null })
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(t.requests).toHaveLength(2)

    refused()
    t.requests.length = 0
    window.dispatchEvent(new Event('focus'))
    await vi.advanceTimersByTimeAsync(100)
    expect(looks(t.requests)).toBe(1)
    expect(t.sync.store.getState().trouble).toBeNull()
  })
})

describe('counts', () => {
  it('from a service that leaves totalCount out: a page of 100, detected once and remembered', async () => {
    const t = start({ service: { totalCount: false }, count: 120 })
    await mountCounts(t)
    expect(t.queryClient.getQueryData(inboxKeys.count(TEST_SUBSCRIBER_ID, 'unread'))).toMatchObject({
      count: 100,
      capped: true,
    })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(t.requests).toEqual([
      `GET /v1/subscribers/${TEST_SUBSCRIBER_ID}/notifications/feed?read=false&limit=100`,
      `GET /v1/subscribers/${TEST_SUBSCRIBER_ID}/notifications/feed?seen=false&limit=100`,
    ])
  })

  it('exact beyond 99 from totalCount, one item a request', async () => {
    const t = start({ count: 150 })
    await mountCounts(t)
    expect(t.queryClient.getQueryData(inboxKeys.count(TEST_SUBSCRIBER_ID, 'unread'))).toMatchObject({
      count: 150,
      capped: false,
    })
  })
})

describe('arrivals', () => {
  it('tells onNotification once per new notification, with the new items', async () => {
    const onNotification = vi.fn()
    const t = start({ onNotification })
    await mountCounts(t)
    await t.client.trigger({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID })
    await t.client.trigger({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(onNotification).toHaveBeenCalledTimes(1)
    expect(onNotification.mock.calls[0]![0]).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(onNotification).toHaveBeenCalledTimes(1)
    expect(t.sync.store.getState().arrived?.items).toHaveLength(2)
  })

  it('tells one that came before the first look, with no bell reading the unseen count (the app badge alone)', async () => {
    const onNotification = vi.fn()
    const t = start({ onNotification, appBadge: true })
    await t.sync.ledger()
    // What the page reads at mount: the unread count of the badge, and the unseen count onNotification needs.
    await vi.waitFor(() =>
      expect(t.queryClient.getQueryData(countQueryOptions(t.sync, 'unseen').queryKey)).toBeDefined(),
    )
    await vi.advanceTimersByTimeAsync(200)
    await t.client.trigger({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(onNotification).toHaveBeenCalledTimes(1)
    expect(onNotification.mock.calls[0]![0]).toHaveLength(1)
  })

  it('tells the onNotification of another provider of the inbox in the page when the leading one has none, once', async () => {
    for (const handlerFirst of [false, true]) {
      const onNotification = vi.fn()
      const first = start(handlerFirst ? { onNotification } : {})
      const second = start({ beside: first.started, ...(handlerFirst ? {} : { onNotification }) })
      await mountCounts(first)
      await mountCounts(second)
      // Each announces itself (and what it wants) on the channel.
      await vi.advanceTimersByTimeAsync(1000)
      await first.client.trigger({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID })
      await vi.advanceTimersByTimeAsync(10_000)
      await vi.waitFor(() => expect(onNotification, `handler first: ${handlerFirst}`).toHaveBeenCalledTimes(1))
      expect(onNotification.mock.calls[0]![0]).toHaveLength(1)
      await vi.advanceTimersByTimeAsync(20_000)
      expect(onNotification).toHaveBeenCalledTimes(1)
      // Both show it (toasts).
      for (const t of [first, second]) expect(t.sync.store.getState().arrived?.items).toHaveLength(1)
      first.stop()
      second.stop()
    }
  })

  it('reads no unseen count of its own when nothing wants arrivals', async () => {
    const t = start({ appBadge: true })
    await t.sync.ledger()
    await vi.advanceTimersByTimeAsync(200)
    expect(t.requests.filter((r) => r.includes('seen=false'))).toEqual([])
  })
})
