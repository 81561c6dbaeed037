// @vitest-environment jsdom
import { useInfiniteQuery } from '@tanstack/react-query'
import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/react'
import { StrictMode, type ReactNode } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { useCounts } from '../../src/hooks/useCounts'
import { useFeed } from '../../src/hooks/useFeed'
import { useMarkAs } from '../../src/hooks/useMarkAs'
import { useInboxContext } from '../../src/provider/context'
import { InboxProvider } from '../../src/provider/InboxProvider'
import { feedQueryOptions } from '../../src/server'
import { feedFixture, settled, setup, UNREAD, UNSEEN } from './harness'

afterEach(cleanup)

function useInbox(filters: Parameters<typeof useFeed>[0] = {}) {
  return { feed: useFeed(filters), counts: useCounts(), marks: useMarkAs() }
}

describe('useFeed and useCounts', () => {
  it('lists the feed page by page, newest first, and counts unread and unseen from the same endpoint', async () => {
    const h = setup({ fixture: feedFixture(45, (i) => ({ read: i % 3 === 0, seen: i % 3 !== 2 })) })
    const { result } = renderHook(() => useInbox({ limit: 20 }), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.feed.items).toHaveLength(20))
    expect(result.current.feed.hasMore).toBe(true)
    expect(result.current.feed.totalCount).toBe(45)
    expect(result.current.feed.items.map((i) => i.content).slice(0, 3)).toEqual(['Message 0', 'Message 1', 'Message 2'])
    await act(() => result.current.feed.fetchNextPage())
    await act(() => result.current.feed.fetchNextPage())
    await waitFor(() => expect(result.current.feed.items).toHaveLength(45))
    expect(result.current.feed.hasMore).toBe(false)
    expect(h.feedRequests().map((r) => r.search.get('page'))).toContain('2')
    const state = h.serviceState()
    expect(result.current.counts).toMatchObject({
      unread: state.unread,
      unseen: state.unseen,
      unreadCapped: false,
      unseenCapped: false,
    })
    // A count is one page of one item and its totalCount.
    expect(h.feedRequests({ read: 'false' }).map((r) => r.search.get('limit'))).toEqual(['1'])
    expect(h.feedRequests({ seen: 'false' }).map((r) => r.search.get('limit'))).toEqual(['1'])
  })

  it('knows counts beyond 99 exactly from totalCount', async () => {
    const h = setup({ fixture: feedFixture(120) })
    const { result } = renderHook(() => useCounts(), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.isLoading).toBe(false))
    expect(result.current).toMatchObject({ unread: 120, unseen: 120, unreadCapped: false, unseenCapped: false })
  })

  it('filters by payload, typed by an app’s own interface', async () => {
    const h = setup({ fixture: feedFixture(10, (i) => ({ payload: { team: i % 2 ? 'a' : 'b', n: i } })) })
    // An interface, not a type alias: it has no index signature, and is taken all the same.
    interface TeamPayload {
      team: 'a' | 'b'
      n: number
    }
    const { result } = renderHook(() => useFeed<TeamPayload>({ payload: { team: 'a' } }), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.items).toHaveLength(5))
    const teams: ('a' | 'b' | undefined)[] = result.current.items.map((i) => i.payload?.team)
    expect(teams.every((team) => team === 'a')).toBe(true)
  })

  it('takes a payload leaf left undefined (an "all teams" tab) as the service does: absent, so a marked item stays', async () => {
    const h = setup({ fixture: feedFixture(6, (i) => ({ payload: { team: i % 2 ? 'a' : 'b' } })) })
    const team: string | undefined = undefined
    const { result } = renderHook(
      () => ({ teams: useFeed<{ team: string }>({ payload: { team } }), all: useFeed(), marks: useMarkAs() }),
      { wrapper: h.wrapper },
    )
    await waitFor(() => expect(result.current.teams.items).toHaveLength(6))
    await settled(h.queryClient)
    const id = result.current.teams.items[0]!._id
    await act(() => result.current.marks.markAs({ ids: id, markAs: 'read' }))
    await settled(h.queryClient)
    expect(result.current.teams.items).toHaveLength(6)
    expect(result.current.teams.items.find((i) => i._id === id)?.read).toBe(true)
    // The list the service sends for it: the unfiltered one, one cache entry and one request.
    expect(result.current.teams.items).toEqual(result.current.all.items)
    expect(h.feedRequests()).toHaveLength(1)
  })
})

describe('request counts', () => {
  for (const strict of [false, true]) {
    it(`a mount costs one feed request and one per count kind${strict ? ' under StrictMode' : ''}`, async () => {
      const h = setup({ fixture: feedFixture(30, (i) => ({ read: i > 5 })) })
      const wrapper = strict
        ? ({ children }: { children?: ReactNode }) => <StrictMode>{h.wrapper({ children })}</StrictMode>
        : h.wrapper
      const { result } = renderHook(() => useInbox(), { wrapper })
      await waitFor(() => expect(result.current.feed.items.length).toBeGreaterThan(0))
      await settled(h.queryClient)
      expect(h.feedRequests({ read: 'false' })).toHaveLength(1)
      expect(h.feedRequests({ seen: 'false' })).toHaveLength(1)
      expect(h.requests).toHaveLength(3)
      console.info(`[measure] mount${strict ? ' (StrictMode)' : ''}: ${h.requests.length} requests`)
    })
  }

  it("a mount costs three requests under StrictMode with the provider's own QueryClient too", async () => {
    const h = setup({ fixture: feedFixture(5) })
    const wrapper = ({ children }: { children?: ReactNode }) => (
      <StrictMode>
        <InboxProvider subscriberId="user-1" client={h.client} stream={false}>
          {children}
        </InboxProvider>
      </StrictMode>
    )
    const { result } = renderHook(() => ({ inbox: useInbox(), ctx: useInboxContext() }), { wrapper })
    await waitFor(() => expect(result.current.inbox.counts.unread).toBe(5))
    await settled(result.current.ctx.queryClient)
    expect(h.requests).toHaveLength(3)
  })

  it('a mount costs three requests when an app renders the inbox under StrictMode (mount, unmount, mount again)', async () => {
    const h = setup({ fixture: feedFixture(5) })
    function Probe() {
      const { feed, counts } = useInbox()
      return <p>{`${feed.items.length}/${counts.unread}/${counts.unseen}`}</p>
    }
    const { container } = render(
      <StrictMode>
        <InboxProvider subscriberId="user-1" client={h.client} queryClient={h.queryClient} stream={false}>
          <Probe />
        </InboxProvider>
      </StrictMode>,
    )
    await waitFor(() => expect(container.textContent).toBe('5/5/5'))
    await settled(h.queryClient)
    expect(h.requests).toHaveLength(3)
  })

  it('a mark-as costs one request', async () => {
    const h = setup({ fixture: feedFixture(30, (i) => ({ read: i > 5 })) })
    const { result } = renderHook(() => useInbox(), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.counts.unread).toBe(6))
    await settled(h.queryClient)
    const before = h.requests.length
    const id = result.current.feed.items[0]!._id
    await act(() => result.current.marks.markAs({ ids: id, markAs: 'read' }))
    await settled(h.queryClient)
    expect(h.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/subscribers/user-1/messages/mark-as',
    ])
    expect(result.current.counts.unread).toBe(5)
    console.info(`[measure] mark one: ${h.requests.length - before} request(s)`)
  })
})

describe('useMarkAs', () => {
  it('shows the change before the service answers (list, filtered lists and counts in one render)', async () => {
    const h = setup({ fixture: feedFixture(8, (i) => ({ read: i >= 4 })) })
    const renders: { read: boolean | undefined; inUnread: boolean; unread: number; at: number }[] = []
    const { result } = renderHook(
      () => {
        const all = useFeed()
        const unread = useFeed({ read: false })
        const counts = useCounts()
        const marks = useMarkAs()
        const id = all.items[1]?._id
        renders.push({
          read: all.items[1]?.read,
          inUnread: unread.items.some((i) => i._id === id),
          unread: counts.unread,
          at: performance.now(),
        })
        return { all, unread, counts, marks }
      },
      { wrapper: h.wrapper },
    )
    await waitFor(() => expect(result.current.counts.unread).toBe(4))
    await settled(h.queryClient)
    const id = result.current.all.items[1]!._id
    h.service.faults.add({ path: /mark-as$/, latency: 300 })
    const started = performance.now()
    renders.length = 0
    let done = false
    let pending!: Promise<void>
    act(() => {
      pending = result.current.marks.markAs({ ids: id, markAs: 'read' }).then(() => {
        done = true
      })
    })
    await waitFor(() => expect(result.current.all.items[1]!.read).toBe(true))
    expect(done).toBe(false)
    expect(h.serviceState().byId.get(id)?.read).toBe(false)
    expect(result.current.unread.items.some((i) => i._id === id)).toBe(false)
    expect(result.current.counts.unread).toBe(3)
    // No render shows the item read while the counts still count it (or the reverse).
    for (const r of renders)
      expect(r.read === true ? r.unread === 3 && !r.inUnread : r.unread === 4 && r.inUnread).toBe(true)
    // The first render that shows it read (the change is laid over the cache, which keeps the service's answer).
    const changedAt = renders.find((r) => r.read === true)!.at
    console.info(`[measure] optimistic latency with 300 ms service latency: ${(changedAt - started).toFixed(1)} ms`)
    await act(() => pending)
    expect(h.serviceState().byId.get(id)?.read).toBe(true)
  })

  it('changes the DOM before the service answers (measured with 300 ms service latency)', async () => {
    const h = setup({ fixture: feedFixture(3) })
    function Item() {
      const { items } = useFeed()
      const { unread } = useCounts()
      const { markAs } = useMarkAs()
      const first = items[0]
      return first ? (
        <article data-testid="item" data-read={first.read ? '' : undefined}>
          <span data-testid="badge">{unread}</span>
          <button onClick={() => void markAs({ ids: first._id, markAs: 'read' })}>read</button>
        </article>
      ) : null
    }
    render(h.wrapper({ children: <Item /> }))
    await waitFor(() => expect(screen.getByTestId('badge').textContent).toBe('3'))
    await settled(h.queryClient)
    h.service.faults.add({ path: /mark-as$/, latency: 300 })
    const item = screen.getByTestId('item')
    let changedAt = 0
    const watcher = new MutationObserver(() => {
      if (!changedAt && item.hasAttribute('data-read')) changedAt = performance.now()
    })
    watcher.observe(item, { attributes: true, subtree: true, childList: true, characterData: true })
    const button = screen.getByRole('button', { name: 'read' })
    const started = performance.now()
    act(() => button.click())
    await waitFor(() => expect(item.hasAttribute('data-read')).toBe(true))
    expect(screen.getByTestId('badge').textContent).toBe('2')
    expect(h.serviceState().unread).toBe(3)
    watcher.disconnect()
    console.info(
      `[measure] optimistic latency to the DOM with 300 ms service latency: ${(changedAt - started).toFixed(1)} ms`,
    )
    await waitFor(() => expect(h.serviceState().unread).toBe(2), { timeout: 2000 })
  })

  it('rolls back to the exact prior cache on a 500 and exposes the error', async () => {
    const h = setup({ fixture: feedFixture(12, (i) => ({ read: i % 2 === 0 })) })
    const { result } = renderHook(
      () => ({
        all: useFeed(),
        unread: useFeed({ read: false }),
        read: useFeed({ read: true }),
        counts: useCounts(),
        marks: useMarkAs(),
      }),
      { wrapper: h.wrapper },
    )
    await waitFor(() => expect(result.current.read.items).toHaveLength(6))
    await settled(h.queryClient)
    const keys = [{}, { read: false }, { read: true }, UNREAD, UNSEEN]
    const snapshot = keys.map((k) => structuredClone(h.cached(k)))
    h.service.faults.add({ path: /mark-as$/, status: 500, latency: 300, times: 1 })
    const id = result.current.unread.items[0]!._id
    let pending!: Promise<void>
    act(() => {
      pending = result.current.marks.markAs({ ids: id, markAs: 'read' })
    })
    await waitFor(() => expect(result.current.read.items.some((i) => i._id === id)).toBe(true))
    await act(() => pending)
    expect(keys.map((k) => h.cached(k))).toEqual(snapshot)
    expect(result.current.marks.error).toMatchObject({ status: 500 })
    await settled(h.queryClient)
    expect(keys.map((k) => h.cached(k))).toEqual(snapshot)
    act(() => result.current.marks.reset())
    await waitFor(() => expect(result.current.marks.error).toBeNull())
  })

  it('moves items between filtered lists both ways, and the counts equal the lists and the service', async () => {
    const h = setup({ fixture: feedFixture(10, (i) => ({ read: i >= 5, seen: i >= 3 })) })
    const { result } = renderHook(
      () => ({
        all: useFeed(),
        unread: useFeed({ read: false }),
        read: useFeed({ read: true }),
        unseen: useFeed({ seen: false }),
        counts: useCounts(),
        marks: useMarkAs(),
      }),
      { wrapper: h.wrapper },
    )
    await waitFor(() => expect(result.current.read.items).toHaveLength(5))
    await settled(h.queryClient)
    const [a, b, c] = result.current.all.items.map((i) => i._id)
    const f = result.current.all.items[7]!._id
    await act(() => result.current.marks.markAs({ ids: [a!, b!], markAs: 'read' }))
    await act(() => result.current.marks.markAs({ ids: f, markAs: 'unread' }))
    await act(() => result.current.marks.markAs({ ids: c!, markAs: 'unseen' }))
    const cur = result.current
    expect(cur.unread.items.map((i) => i._id)).not.toContain(a)
    expect(cur.read.items.map((i) => i._id)).toContain(a)
    expect(cur.unread.items.map((i) => i._id)).toContain(f)
    expect(cur.read.items.map((i) => i._id)).not.toContain(f)
    // Inserted at its place in the order.
    expect(cur.unread.items.map((i) => i._id)).toEqual(cur.all.items.filter((i) => !i.read).map((i) => i._id))
    expect(cur.unseen.items.map((i) => i._id)).toEqual(cur.all.items.filter((i) => !i.seen).map((i) => i._id))
    const state = h.serviceState()
    expect(cur.counts.unread).toBe(cur.all.items.filter((i) => !i.read).length)
    expect(cur.counts.unseen).toBe(cur.all.items.filter((i) => !i.seen).length)
    expect(cur.counts).toMatchObject({ unread: state.unread, unseen: state.unseen })
    for (const item of cur.all.items) expect(state.byId.get(item._id)).toEqual({ read: item.read, seen: item.seen })
  })

  it('moves the counts with a mark of an item the app listed through feedQueryOptions, and fetches no list again', async () => {
    const h = setup({ fixture: feedFixture(5) })
    const renders: string[] = []
    const { result } = renderHook(
      () => {
        const inbox = useInboxContext()
        useFeed({ read: true }) // somewhere else on the page
        const own = useInfiniteQuery(feedQueryOptions(inbox, { read: false }), inbox.queryClient)
        const items = own.data?.pages.flatMap((p) => p.data) ?? []
        const counts = useCounts()
        renders.push(`${counts.unread} unread, ${items.length} listed`)
        return { items, counts, marks: useMarkAs() }
      },
      { wrapper: h.wrapper },
    )
    await waitFor(() => expect(result.current.items).toHaveLength(5))
    await settled(h.queryClient)
    const before = h.requests.length
    renders.length = 0
    h.service.faults.add({ path: /mark-as$/, latency: 50 })
    let pending!: Promise<void>
    act(() => {
      pending = result.current.marks.markAs({ ids: result.current.items[0]!._id, markAs: 'read' })
    })
    // The app's own list is the cache as the service answered; the count moves with the click, not after a look.
    expect(renders.at(-1)).toBe('4 unread, 5 listed')
    await act(() => pending)
    await settled(h.queryClient)
    expect(renders.at(-1)).toBe('4 unread, 4 listed')
    expect(renders).not.toContain('5 unread, 4 listed')
    expect(h.requests.slice(before).map((r) => r.path)).toEqual([expect.stringMatching(/mark-as$/)])
  })

  it('ends in the state of the last intent when one item is toggled quickly, and each call keeps one idempotency key', async () => {
    const h = setup({ fixture: feedFixture(3) })
    const { result } = renderHook(() => useInbox(), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.counts.unread).toBe(3))
    await settled(h.queryClient)
    const id = result.current.feed.items[0]!._id
    // The first request is slow: without ordering, the second would land first and the first would win.
    h.service.faults.add({ path: /mark-as$/, latency: 120, times: 1 })
    const calls: Promise<void>[] = []
    act(() => {
      calls.push(result.current.marks.markAs({ ids: id, markAs: 'read' }))
      calls.push(result.current.marks.markAs({ ids: id, markAs: 'unread' }))
      calls.push(result.current.marks.markAs({ ids: id, markAs: 'read' }))
      calls.push(result.current.marks.markAs({ ids: id, markAs: 'unread' }))
    })
    await act(() => Promise.all(calls).then(() => undefined))
    await settled(h.queryClient)
    expect(h.serviceState().byId.get(id)?.read).toBe(false)
    expect(result.current.feed.items[0]!.read).toBe(false)
    expect(result.current.counts.unread).toBe(3)
    const marks = h.requests.filter((r) => r.path.endsWith('/mark-as'))
    expect(marks.map((r) => (r.body as { markAs: string }).markAs)).toEqual(['read', 'unread', 'read', 'unread'])
    expect(new Set(marks.map((r) => r.idempotencyKey)).size).toBe(4)
  })

  it('retries a failed request with the same idempotency key', async () => {
    const h = setup({ fixture: feedFixture(3), client: { retry: { retries: 2, baseDelay: 1, maxDelay: 5 } } })
    const { result } = renderHook(() => useInbox(), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.counts.unread).toBe(3))
    h.service.faults.add({ path: /mark-as$/, status: 503, times: 2 })
    await act(() => result.current.marks.markAs({ ids: result.current.feed.items[0]!._id, markAs: 'read' }))
    const marks = h.requests.filter((r) => r.path.endsWith('/mark-as'))
    expect(marks).toHaveLength(3)
    expect(new Set(marks.map((r) => r.idempotencyKey)).size).toBe(1)
    expect(marks[0]!.idempotencyKey).toBeTruthy()
    expect(result.current.marks.error).toBeNull()
    expect(h.serviceState().unread).toBe(2)
  })
})
