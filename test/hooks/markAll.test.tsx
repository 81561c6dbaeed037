// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { useCounts } from '../../src/hooks/useCounts'
import { useFeed } from '../../src/hooks/useFeed'
import { useMarkAll } from '../../src/hooks/useMarkAs'
import { TEST_SUBSCRIBER_ID } from '../support/fixtures'
import { feedFixture, settled, setup, UNREAD } from './harness'

afterEach(cleanup)

describe('useMarkAll', () => {
  it('marks 250 unread in batches of at most 100, emptying the count at once', async () => {
    const h = setup({ fixture: feedFixture(260, (i) => ({ read: i >= 250 })) })
    const { result } = renderHook(
      () => ({ feed: useFeed(), unread: useFeed({ read: false }), counts: useCounts(), all: useMarkAll('read') }),
      { wrapper: h.wrapper },
    )
    await waitFor(() => expect(result.current.counts.unread).toBe(250))
    await settled(h.queryClient)
    const before = h.requests.length
    h.service.faults.add({ path: /mark-as$/, latency: 300, times: 1 })
    let pending!: Promise<void>
    act(() => {
      pending = result.current.all.markAll()
    })
    await waitFor(() => expect(result.current.counts).toMatchObject({ unread: 0, unreadCapped: false }))
    expect(h.serviceState().unread).toBe(250)
    expect(result.current.unread.items).toHaveLength(0)
    // Nor is there more of it to load: a "More" button would load pages the service is emptying.
    expect(result.current.unread.hasMore).toBe(false)
    expect(result.current.feed.hasMore).toBe(true)
    expect(result.current.feed.items.every((i) => i.read && i.seen)).toBe(true)
    await act(() => pending)
    await settled(h.queryClient)
    const calls = h.requests.slice(before)
    const marks = calls.filter((r) => r.path.endsWith('/mark-as'))
    const sizes = marks.map((r) => (r.body as { messageId: string[] }).messageId.length)
    expect(sizes).toEqual([100, 100, 50])
    expect(marks.every((r) => (r.body as { markAs: string }).markAs === 'read')).toBe(true)
    expect(new Set(marks.map((r) => r.idempotencyKey)).size).toBe(3)
    expect(h.serviceState().unread).toBe(0)
    expect(result.current.counts.unread).toBe(0)
    expect(result.current.all.error).toBeNull()
    console.info(
      `[measure] mark all of 250: ${calls.length} requests (${calls.length - marks.length} GET, ${marks.length} POST)`,
    )
  })

  it('with many pages loaded, fetches no list again once every item is marked; a list of read items it does', async () => {
    const h = setup({ fixture: feedFixture(300, (i) => ({ read: i % 2 === 0, seen: i % 2 === 0 })) })
    const { result } = renderHook(() => ({ feed: useFeed(), counts: useCounts(), all: useMarkAll('read') }), {
      wrapper: h.wrapper,
    })
    await waitFor(() => expect(result.current.counts.unread).toBe(150))
    // The reader scrolled through 10 pages of 20, each shown before the next is asked for.
    await waitFor(() => expect(result.current.feed.items).toHaveLength(20))
    for (let shown = 40; shown <= 200; shown += 20) {
      await waitFor(() => expect(result.current.feed.hasMore).toBe(true))
      await act(() => result.current.feed.fetchNextPage())
      await waitFor(() => expect(result.current.feed.items).toHaveLength(shown))
    }
    await settled(h.queryClient)
    const before = h.requests.length
    await act(() => result.current.all.markAll())
    await settled(h.queryClient)
    expect(result.current.counts).toMatchObject({ unread: 0, unseen: 0 })
    expect(result.current.feed.items.every((i) => i.read && i.seen)).toBe(true)
    // The unread feed paged 100 at a time, the marks 100 at a time: not the 10 pages of the list again.
    const calls = h.requests.slice(before).map((r) => `${r.method} ${r.search.get('limit') ?? ''}`)
    expect(calls.filter((c) => c === 'GET 20')).toEqual([])
    expect(calls).toEqual(['GET 100', 'GET 100', 'POST ', 'POST ', 'GET 100'])

    // A list of read items may lack items never loaded here: it is fetched again.
    const read = renderHook(() => useFeed({ read: true }), { wrapper: h.wrapper })
    await waitFor(() => expect(read.result.current.items).toHaveLength(20))
    expect((await h.client.trigger({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID })).status).toBe('processed')
    await act(() => result.current.all.markAll())
    await settled(h.queryClient)
    expect(h.feedRequests({ read: 'true' })).toHaveLength(2)
  })

  it('marks all read: unread items read, and read but unseen items seen, so both counts clear', async () => {
    const h = setup({ fixture: feedFixture(12, (i) => ({ read: i >= 4, seen: i >= 8 })) })
    const { result } = renderHook(
      () => ({ counts: useCounts(), unseen: useFeed({ seen: false }), all: useMarkAll('read') }),
      {
        wrapper: h.wrapper,
      },
    )
    await waitFor(() => expect(result.current.counts).toMatchObject({ unread: 4, unseen: 8 }))
    await settled(h.queryClient)
    const before = h.requests.length
    await act(() => result.current.all.markAll())
    await settled(h.queryClient)
    expect(result.current.counts).toMatchObject({ unread: 0, unseen: 0 })
    expect(result.current.unseen.items).toEqual([])
    expect(h.serviceState()).toMatchObject({ unread: 0, unseen: 0 })
    const marks = h.requests
      .slice(before)
      .filter((r) => r.path.endsWith('/mark-as'))
      .map((r) => r.body)
    expect(marks).toMatchObject([{ markAs: 'read' }, { markAs: 'seen' }])
    expect((marks[1] as { messageId: string[] }).messageId).toHaveLength(4)
  })

  it('marks all seen without touching read', async () => {
    const h = setup({ fixture: feedFixture(30, (i) => ({ read: i >= 20, seen: i >= 10 })) })
    const { result } = renderHook(() => ({ counts: useCounts(), all: useMarkAll('seen') }), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.counts.unseen).toBe(10))
    await act(() => result.current.all.markAll())
    await settled(h.queryClient)
    expect(result.current.counts).toMatchObject({ unseen: 0, unread: 20 })
    expect(h.serviceState()).toMatchObject({ unseen: 0, unread: 20 })
  })

  it('on a failed batch shows again what the service was known to hold, then what it holds', async () => {
    const h = setup({ fixture: feedFixture(150) })
    const { result } = renderHook(
      () => ({ counts: useCounts(), unread: useFeed({ read: false, limit: 100 }), all: useMarkAll() }),
      {
        wrapper: h.wrapper,
      },
    )
    await waitFor(() => expect(result.current.counts.unread).toBe(150))
    await settled(h.queryClient)
    const snapshot = structuredClone(h.cached(UNREAD))
    // The first batch lands, the second fails; reads are slowed so the refetch after it is still out when checked.
    h.service.faults.add({ method: 'GET', path: /feed$/, latency: 150 })
    h.service.faults.add({ path: /mark-as$/, latency: 20, times: 1 })
    h.service.faults.add({ path: /mark-as$/, status: 500 })
    let pending!: Promise<void>
    act(() => {
      pending = result.current.all.markAll()
    })
    await waitFor(() => expect(result.current.counts.unread).toBe(0))
    expect(result.current.unread.items).toHaveLength(0)
    expect(result.current.unread.hasMore).toBe(false)
    await act(() => pending)
    // The failed change is dropped: what the service held before, while the refetch is out.
    expect(result.current.counts.unread).toBe(150)
    expect(result.current.unread.items).toHaveLength(100)
    expect(result.current.unread.hasMore).toBe(true)
    expect(h.cached(UNREAD)).toEqual(snapshot)
    await waitFor(() => expect(result.current.all.error).toMatchObject({ status: 500 }))
    h.service.faults.clear()
    await settled(h.queryClient)
    expect(h.serviceState().unread).toBe(50)
    expect(result.current.counts).toMatchObject({ unread: 50, unreadCapped: false })
    expect(result.current.unread.items).toHaveLength(50)
  })
})
