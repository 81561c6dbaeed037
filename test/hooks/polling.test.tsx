// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { useCounts } from '../../src/hooks/useCounts'
import { useFeed } from '../../src/hooks/useFeed'
import { feedFixture, settled, setup, sleep } from './harness'

afterEach(cleanup)

const POLL = 80

describe('polling, in React', () => {
  it('a look with nothing new costs the two small count requests; news arrives with the counts and the lists in one render', async () => {
    const h = setup({ fixture: feedFixture(12, (i) => ({ read: i >= 4 })), provider: { pollInterval: POLL } })
    const renders: { unread: number; listed: number }[] = []
    const { result } = renderHook(
      () => {
        const value = { feed: useFeed(), unread: useFeed({ read: false }), counts: useCounts() }
        if (!value.counts.isLoading && !value.unread.isLoading)
          renders.push({ unread: value.counts.unread, listed: value.unread.items.length })
        return value
      },
      { wrapper: h.wrapper },
    )
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
