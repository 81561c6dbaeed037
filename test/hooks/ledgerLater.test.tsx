// @vitest-environment jsdom
/**
 * The hooks reach the ledger (the writes on their way) through src/core/reach.ts: an app of the hooks alone
 * loads it after its first render. A mark made before it is there waits for it; one that cannot have it (the
 * browser offline, so its code is not fetched) fails as any write that never left does, and changes nothing.
 */
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { NetworkError } from '../../src/api/errors'
import { useCounts } from '../../src/hooks/useCounts'
import { useFeed } from '../../src/hooks/useFeed'
import { useMarkAll, useMarkAs } from '../../src/hooks/useMarkAs'
import { useInboxScope } from '../../src/provider/context'
import { feedFixture, settled, setup } from './harness'

let online = true
Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online })
afterEach(() => {
  cleanup()
  online = true
})

describe('the hooks before the ledger is loaded', () => {
  it('a mark that cannot have it fails as a network error and changes nothing; back online it goes through', async () => {
    const h = setup({ fixture: feedFixture(5), provider: { pollInterval: 0 } })
    online = false
    const { result } = renderHook(
      () => ({
        counts: useCounts(),
        mark: useMarkAs(),
        all: useMarkAll('read'),
        sync: useInboxScope('test').sync,
      }),
      { wrapper: h.wrapper },
    )
    await waitFor(() => expect(result.current.counts.unread).toBe(5))
    expect(result.current.sync.slots.ledger, 'nothing has needed the ledger yet').toBeUndefined()
    const [id] = h.serviceState().byId.keys()

    await act(() => result.current.mark.markAs({ ids: id!, markAs: 'read' }))
    expect(result.current.mark.error).toBeInstanceOf(NetworkError)
    expect(result.current.mark.isPending).toBe(false)
    await act(() => result.current.all.markAll())
    expect(result.current.all.error).toBeInstanceOf(NetworkError)
    expect(result.current.all.isPending).toBe(false)
    expect(result.current.counts.unread).toBe(5)
    expect(h.count('mark-as')).toBe(0)

    online = true
    dispatchEvent(new Event('online'))
    act(() => result.current.all.reset())
    expect(result.current.all.error).toBeNull()
    await act(() => result.current.mark.markAs({ ids: id!, markAs: 'read' }))
    expect(result.current.mark.error).toBeNull()
    expect(h.serviceState().unread).toBe(4)
    // No list holds the item, so the count follows once the service's is read again.
    await waitFor(() => expect(result.current.counts.unread).toBe(4))
  })

  it('a list whose ledger cannot be fetched says why, and comes with Try again once back online', async () => {
    const h = setup({ fixture: feedFixture(5), provider: { pollInterval: 0 } })
    online = false
    const { result } = renderHook(() => ({ ...useFeed(), sync: useInboxScope('test').sync }), {
      wrapper: h.wrapper,
    })
    await waitFor(() => expect(result.current.error).toBeInstanceOf(NetworkError))
    expect(result.current.items).toEqual([])
    // Still offline: Try again never rejects, and says why it failed.
    await act(() => result.current.refetch())
    expect(result.current.error).toBeInstanceOf(NetworkError)
    expect(result.current.sync.store.getState().trouble?.error).toBeInstanceOf(NetworkError)
    online = true
    await act(() => result.current.refetch())
    await waitFor(() => expect(result.current.items).toHaveLength(5))
    expect(result.current.error).toBeNull()
  })

  it('a first list fetches the ledger beside its page, and a mark made meanwhile shows once it is there', async () => {
    const h = setup({ fixture: feedFixture(5), provider: { pollInterval: 0 } })
    h.service.faults.add({ path: /notifications\/feed$/, latency: 200, times: 1 })
    const { result } = renderHook(() => ({ feed: useFeed({ read: false }), counts: useCounts(), mark: useMarkAs() }), {
      wrapper: h.wrapper,
    })
    await waitFor(() => expect(result.current.counts.unread).toBe(5))
    const [id] = h.serviceState().byId.keys()
    // Made while the list's page is still on its way: the ledger takes the mark, and the page that comes after it.
    let pending!: Promise<void>
    act(() => {
      pending = result.current.mark.markAs({ ids: id!, markAs: 'read' })
    })
    await waitFor(() => expect(result.current.counts.unread).toBe(4))
    await act(() => pending)
    await waitFor(() => expect(result.current.feed.items).toHaveLength(4))
    await settled(h.queryClient)
    expect(result.current.feed.items.map((i) => i._id)).not.toContain(id)
    expect(result.current.counts.unread).toBe(4)
    expect(h.serviceState().unread).toBe(4)
    expect(result.current.mark.error).toBeNull()
  })
})
