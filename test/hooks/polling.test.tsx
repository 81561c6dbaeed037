// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { useCounts } from '../../src/hooks/useCounts'
import { useFeed } from '../../src/hooks/useFeed'
import { useInboxContext } from '../../src/provider/context'
import { feedFixture, settled, setup, sleep } from './harness'

afterEach(cleanup)

const POLL = 80

/**
 * The feed, the unread list and the counts under `h`'s provider, with the unread count and the unread list's
 * length of every render once both have loaded: the two must never disagree.
 */
function renderCounted(h: ReturnType<typeof setup>) {
  const renders: { unread: number; listed: number }[] = []
  const hook = renderHook(
    () => {
      const value = { feed: useFeed(), unread: useFeed({ read: false }), counts: useCounts(), ctx: useInboxContext() }
      if (!value.counts.isLoading && !value.unread.isLoading)
        renders.push({ unread: value.counts.unread, listed: value.unread.items.length })
      return value
    },
    { wrapper: h.wrapper },
  )
  return { ...hook, renders }
}

describe('polling, in React', () => {
  it('a look with nothing new costs the two small count requests; news arrives with the counts and the lists in one render', async () => {
    const h = setup({ fixture: feedFixture(12, (i) => ({ read: i >= 4 })), provider: { pollInterval: POLL } })
    const { result, renders } = renderCounted(h)
    await waitFor(() => expect(result.current.counts.unread).toBe(4))
    await settled(h.queryClient)
    const before = h.requests.length
    await act(() => sleep(POLL * 2.5))
    await settled(h.queryClient)
    const polls = h.requests.slice(before)
    expect(polls.length).toBeGreaterThanOrEqual(2)
    expect(
      polls.every(
        (r) => r.search.get('limit') === '1' && (r.search.get('read') === 'false' || r.search.get('seen') === 'false'),
      ),
    ).toBe(true)
    expect(polls.filter((r) => r.search.get('read') === 'false')).toHaveLength(polls.length / 2)

    await act(async () => {
      expect((await h.client.trigger({ name: 'test-workflow', to: 'user-1' })).status).toBe('processed')
    })
    await waitFor(() => expect(result.current.counts.unread).toBe(5))
    await waitFor(() => expect(result.current.feed.items).toHaveLength(13))
    // No render showed a count beside a list that disagreed with it.
    expect(renders.filter((r) => r.unread !== r.listed)).toEqual([])
  })
})

describe("the provider's refresh", () => {
  it('never rejects: a service that fails is told in the hooks’ error, and cleared by the next refresh that works', async () => {
    const h = setup({ fixture: feedFixture(6, (i) => ({ read: i >= 2 })) })
    const { result } = renderCounted(h)
    await waitFor(() => expect(result.current.counts.unread).toBe(2))
    await settled(h.queryClient)
    const remove = h.started.service.faults.add({ method: 'GET', path: /notifications\/feed$/, status: 503 })
    await act(() => expect(result.current.ctx.refresh()).resolves.toBeUndefined())
    await waitFor(() => expect(result.current.counts.error).toMatchObject({ status: 503 }))
    remove()
    expect((await h.client.trigger({ name: 'test-workflow', to: 'user-1' })).status).toBe('processed')
    await act(() => result.current.ctx.refresh())
    await waitFor(() => expect(result.current.counts.error).toBeNull())
    expect(result.current.counts.unread).toBe(3)
  })
})

describe('a notification during a look', () => {
  it('that comes between the counts and the lists is not shown beside counts that predate it', async () => {
    // The service's answer to the next unread count is held back until a notification has been sent: the
    // look reads the old unread count, then the new unseen count and lists.
    let hold = false
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await h.started.fetch(input, init)
      if (hold && /read=false&limit=1(&|$)/.test(String(input))) {
        hold = false
        expect((await h.client.trigger({ name: 'test-workflow', to: 'user-1' })).status).toBe('processed')
      }
      return response
    }) as typeof globalThis.fetch
    const h = setup({ fixture: feedFixture(12, (i) => ({ read: i >= 4, seen: i >= 4 })), client: { fetch } })
    const { result, renders } = renderCounted(h)
    await waitFor(() => expect(result.current.counts.unread).toBe(4))
    await settled(h.queryClient)
    hold = true
    await act(() => result.current.ctx.refresh())
    await settled(h.queryClient)
    expect(hold).toBe(false)
    expect(result.current.unread.items).toHaveLength(5)
    expect(result.current.counts.unread).toBe(5)
    expect(renders.filter((r) => r.unread !== r.listed)).toEqual([])
  })
})

describe('a look that finds news with many pages loaded', () => {
  it("fetches them again 100 items a request, cut into the list's pages, and the list goes on where they end", async () => {
    const h = setup({ fixture: feedFixture(300) })
    const { result } = renderHook(() => ({ feed: useFeed(), counts: useCounts(), ctx: useInboxContext() }), {
      wrapper: h.wrapper,
    })
    await waitFor(() => expect(result.current.counts.unread).toBe(300))
    // The reader scrolled through 12 pages of 20.
    for (let page = 1; page < 12; page++) {
      await waitFor(() => expect(result.current.feed.hasMore).toBe(true))
      await act(() => result.current.feed.fetchNextPage())
    }
    await settled(h.queryClient)
    expect(result.current.feed.items).toHaveLength(240)
    await act(async () => {
      expect((await h.client.trigger({ name: 'test-workflow', to: 'user-1' })).status).toBe('processed')
    })
    const before = h.requests.length
    await act(() => result.current.ctx.refresh())
    await settled(h.queryClient)
    const lists = h.requests.slice(before).filter((r) => r.search.get('limit') !== '1')
    expect(lists.map((r) => `${r.search.get('limit')}:${r.search.get('page')}`)).toEqual(['100:0', '100:1', '100:2'])
    // The newest 240 as the service holds them, in its order, each once; the next page follows on.
    const order = (n: number) =>
      h.service.state
        .messages('user-1')
        .filter((m) => m.channel === 'in_app')
        .sort((a, b) => (a._id < b._id ? 1 : -1))
        .slice(0, n)
        .map((m) => m._id)
    expect(result.current.feed.items.map((i) => i._id)).toEqual(order(240))
    expect(result.current.counts.unread).toBe(301)
    await act(() => result.current.feed.fetchNextPage())
    expect(result.current.feed.items.map((i) => i._id)).toEqual(order(260))
  })

  it('asks page by page a service that sends fewer items than asked while saying more follow', async () => {
    // A service whose pages hold 20 at most, whatever the limit.
    const fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      h.started.fetch(String(input).replace(/limit=100\b/, 'limit=20'), init)) as typeof globalThis.fetch
    const h = setup({ fixture: feedFixture(100), client: { fetch } })
    const { result } = renderHook(() => ({ feed: useFeed(), counts: useCounts(), ctx: useInboxContext() }), {
      wrapper: h.wrapper,
    })
    await waitFor(() => expect(result.current.counts.unread).toBe(100))
    for (let page = 1; page < 3; page++) {
      await waitFor(() => expect(result.current.feed.hasMore).toBe(true))
      await act(() => result.current.feed.fetchNextPage())
    }
    await settled(h.queryClient)
    const shown = result.current.feed.items.map((i) => i._id)
    expect(shown).toHaveLength(60)
    await act(() => result.current.ctx.refresh())
    await settled(h.queryClient)
    expect(result.current.feed.items.map((i) => i._id)).toEqual(shown)
    expect(result.current.feed.hasMore).toBe(true)
  })
})

describe('the pace of looks', () => {
  it('keeps to one look a period while the tab reports changes during slow looks', async () => {
    const period = 150
    const latency = 60
    const h = setup({ fixture: feedFixture(6, () => ({})), latency, provider: { pollInterval: period } })
    const { result } = renderHook(() => useCounts(), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.unread).toBe(6))
    await settled(h.queryClient)
    const before = h.feedRequests({ read: 'false' }).length
    // Focus comes and goes every 20 ms: each change tells the leader, which plans its next look again.
    const flap = setInterval(() => window.dispatchEvent(new Event('blur')), 20)
    const start = Date.now()
    await act(() => sleep(1500))
    clearInterval(flap)
    const looks = h.feedRequests({ read: 'false' }).length - before
    // The wait can run long on a busy machine; the bound follows the time that really passed.
    const elapsed = Date.now() - start
    // A look is two count requests, one after the other, and the next starts a period after it ended:
    // looks start at least 150 + 2 × 60 ms apart. (A change told during a look made another at once.)
    expect(looks).toBeGreaterThanOrEqual(3)
    expect(looks).toBeLessThanOrEqual(Math.floor(elapsed / (period + 2 * latency)) + 1)
  })
})
