// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { useCounts } from '../../src/hooks/useCounts'
import { useFeed } from '../../src/hooks/useFeed'
import { feedFixture, settled, setup, setVisibility, sleep } from './harness'

afterEach(() => {
  cleanup()
  setVisibility('visible')
})

const POLL = 60

describe('polling', () => {
  it('a poll with nothing new costs the two count requests; a change refreshes the other lists', async () => {
    const h = setup({ fixture: feedFixture(12, (i) => ({ read: i >= 4 })), provider: { pollInterval: POLL } })
    const { result } = renderHook(() => ({ feed: useFeed(), counts: useCounts() }), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.counts.unread).toBe(4))
    await settled(h.queryClient)
    const before = h.requests.length
    await act(() => sleep(POLL * 1.5))
    await settled(h.queryClient)
    const poll = h.requests.slice(before)
    expect(poll.length).toBeGreaterThanOrEqual(2)
    expect(poll.length % 2).toBe(0)
    expect(poll.every((r) => r.search.get('read') === 'false' || r.search.get('seen') === 'false')).toBe(true)
    const polls = poll.filter((r) => r.search.get('read') === 'false').length
    console.info(`[measure] poll with nothing new: ${poll.length / polls} requests per poll`)

    // Something new: the counts change, and the feed list is refetched too.
    await act(async () => {
      const res = await h.client.trigger({ name: 'test-workflow', to: 'user-1' })
      expect(res.status).toBe('processed')
    })
    await waitFor(() => expect(result.current.counts.unread).toBe(5))
    await waitFor(() => expect(result.current.feed.items).toHaveLength(13))
  })

  it('stops while the page is hidden and catches up when it is visible again', async () => {
    const h = setup({ fixture: feedFixture(3), provider: { pollInterval: POLL } })
    const { result } = renderHook(() => ({ feed: useFeed(), counts: useCounts() }), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.counts.unread).toBe(3))
    await settled(h.queryClient)
    act(() => setVisibility('hidden'))
    const hiddenAt = h.requests.length
    await act(() => sleep(POLL * 5))
    expect(h.requests.length).toBe(hiddenAt)
    await act(async () => {
      await h.client.trigger({ name: 'test-workflow', to: 'user-1' })
    })
    const afterTrigger = h.requests.length
    act(() => setVisibility('visible'))
    await waitFor(() => expect(result.current.counts.unread).toBe(4))
    await waitFor(() => expect(result.current.feed.items).toHaveLength(4))
    expect(h.requests.length).toBeGreaterThan(afterTrigger)
  })

  it('does not poll when pollInterval is 0', async () => {
    const h = setup({ fixture: feedFixture(3), provider: { pollInterval: 0 } })
    const { result } = renderHook(() => useCounts(), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.unread).toBe(3))
    await settled(h.queryClient)
    const before = h.requests.length
    await act(() => sleep(150))
    expect(h.requests.length).toBe(before)
  })

  it('catches up when the network comes back', async () => {
    const h = setup({ fixture: feedFixture(3), provider: { pollInterval: POLL } })
    const { result } = renderHook(() => useCounts(), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.unread).toBe(3))
    await settled(h.queryClient)
    const { onlineManager } = await import('@tanstack/react-query')
    act(() => onlineManager.setOnline(false))
    const before = h.requests.length
    await act(() => sleep(POLL * 3))
    expect(h.requests.length).toBe(before)
    await act(async () => {
      await h.client.trigger({ name: 'test-workflow', to: 'user-1' })
    })
    act(() => onlineManager.setOnline(true))
    await waitFor(() => expect(result.current.unread).toBe(4))
  })
})
