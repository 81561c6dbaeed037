// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError, NetworkError, ResponseShapeError } from '../../src/api/errors'
import { createTokenAuth } from '../../src/auth/tokenAuth'
import { useActiveIntegrations } from '../../src/admin'
import { useCounts } from '../../src/hooks/useCounts'
import { useFeed } from '../../src/hooks/useFeed'
import { useMarkAll } from '../../src/hooks/useMarkAs'
import { useMarkAs } from '../../src/hooks/useMarkAs'
import { usePreferences } from '../../src/hooks/usePreferences'
import { useSubscriberSubscriptions } from '../../src/hooks/useSubscriberSubscriptions'
import { useTopicSubscriptions } from '../../src/admin'
import { useUpdatePreferences } from '../../src/hooks/usePreferences'
import { buildFixture, messages, topic } from '../support/fixtures'
import { setup } from './harness'

afterEach(cleanup)

const fixture = () => buildFixture({ topics: [topic('news', ['user-1'])], messages: messages('user-1', 3) })

describe('error states of the reads', () => {
  interface ReadState {
    error: Error | null
    isLoading: boolean
    refetch?: () => Promise<void>
  }
  const reads: { name: string; path: RegExp; useRead: () => ReadState }[] = [
    { name: 'useFeed', path: /notifications\/feed$/, useRead: () => useFeed() },
    { name: 'useCounts', path: /notifications\/feed$/, useRead: () => useCounts() },
    { name: 'usePreferences', path: /preferences$/, useRead: () => usePreferences() },
    {
      name: 'useSubscriberSubscriptions',
      path: /subscribers\/user-1\/subscriptions$/,
      useRead: () => useSubscriberSubscriptions(),
    },
    {
      name: 'useTopicSubscriptions',
      path: /topics\/news\/subscriptions$/,
      useRead: () => useTopicSubscriptions('news'),
    },
    { name: 'useActiveIntegrations', path: /integrations\/active$/, useRead: () => useActiveIntegrations() },
  ]
  for (const { name, path, useRead } of reads) {
    it(`${name}: a 500 lands in error, and a retry recovers`, async () => {
      const h = setup({ fixture: fixture() })
      const remove = h.service.faults.add({ method: 'GET', path, status: 500 })
      const { result } = renderHook(useRead, { wrapper: h.wrapper })
      await waitFor(() => expect(result.current.error).toBeInstanceOf(ApiError))
      expect(result.current.error).toMatchObject({ status: 500 })
      expect(result.current.isLoading).toBe(false)
      remove()
      const { refetch } = result.current
      if (refetch) {
        await act(() => refetch())
        await waitFor(() => expect(result.current.error).toBeNull())
      }
    })
  }

  it('onAuthError: reads refused as signed out at mount tell the app at once, once, with polling off too', async () => {
    const onAuthError = vi.fn()
    const onUnauthorized = vi.fn()
    const h = setup({ fixture: fixture(), provider: { onAuthError, pollInterval: 0 }, client: { onUnauthorized } })
    h.service.faults.add({ method: 'GET', path: /./, status: 401 })
    const { result } = renderHook(() => [useFeed(), useCounts()] as const, { wrapper: h.wrapper })
    await waitFor(() => expect(onAuthError).toHaveBeenCalledTimes(1))
    expect(onAuthError.mock.calls[0]![0]).toMatchObject({ status: 401 })
    // After fresh credentials were asked for, for each of the three reads.
    expect(onUnauthorized).toHaveBeenCalledTimes(3)
    await waitFor(() => expect(result.current[1].error).toMatchObject({ status: 401 }))
    expect(result.current[0].error).toMatchObject({ status: 401 })
    expect(onAuthError).toHaveBeenCalledTimes(1)
  })

  it('onAuthError: a token helper whose fetchToken gives null (the token route said signed out) is signed out', async () => {
    const onAuthError = vi.fn()
    let asked = 0
    const auth = createTokenAuth({ fetchToken: async () => (asked++, null) })
    const h = setup({
      fixture: fixture(),
      provider: { onAuthError, pollInterval: 200 },
      client: { getHeaders: auth.getHeaders, onUnauthorized: auth.invalidate },
    })
    const { result } = renderHook(() => [useFeed(), useCounts()] as const, { wrapper: h.wrapper })
    await waitFor(() => expect(onAuthError).toHaveBeenCalledTimes(1))
    expect(onAuthError.mock.calls[0]![0]).toMatchObject({
      status: 401,
      message: 'Signed out: fetchToken gave no token.',
    })
    await waitFor(() => expect(result.current[0].error).toMatchObject({ status: 401 }))
    // No request reached the service, and the inbox stops asking for a token while signed out.
    expect(h.requests).toEqual([])
    const before = asked
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(asked).toBe(before)
    expect(onAuthError).toHaveBeenCalledTimes(1)
  })

  it('useFeed: a dropped connection and a body of the wrong shape are errors too', async () => {
    const h = setup({ fixture: fixture() })
    h.service.faults.add({ method: 'GET', path: /feed$/, drop: true, times: 1 })
    const { result } = renderHook(() => useFeed(), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.error).toBeInstanceOf(NetworkError))
    expect(result.current.isError).toBe(true)
    h.service.faults.add({ method: 'GET', path: /feed$/, body: { data: 'nope', hasMore: 1 }, times: 1 })
    await act(() => result.current.refetch())
    await waitFor(() => expect(result.current.error).toBeInstanceOf(ResponseShapeError))
    await act(() => result.current.refetch())
    await waitFor(() => expect(result.current.items).toHaveLength(3))
    expect(result.current.error).toBeNull()
  })

  it('useFeed: refetch while the service is down resolves and says why in error, until one works', async () => {
    const h = setup({ fixture: fixture(), provider: { pollInterval: 0 } })
    const { result } = renderHook(() => ({ feed: useFeed(), counts: useCounts() }), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.feed.items).toHaveLength(3))
    const remove = h.service.faults.add({ method: 'GET', path: /feed$/, status: 503 })
    await act(() => result.current.feed.refetch())
    expect(result.current.feed.error).toMatchObject({ status: 503 })
    expect(result.current.counts.error).toMatchObject({ status: 503 })
    expect(result.current.feed.items).toHaveLength(3)
    remove()
    await act(() => result.current.feed.refetch())
    expect(result.current.feed.error).toBeNull()
    expect(result.current.counts.error).toBeNull()
  })

  it('useFeed: a failed next page keeps the loaded items', async () => {
    const h = setup({ fixture: buildFixture({ messages: messages('user-1', 30) }) })
    const { result } = renderHook(() => useFeed({ limit: 10 }), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.items).toHaveLength(10))
    h.service.faults.add({ method: 'GET', path: /feed$/, status: 503, times: 1 })
    await act(() => result.current.fetchNextPage())
    await waitFor(() => expect(result.current.error).toMatchObject({ status: 503 }))
    expect(result.current.items).toHaveLength(10)
    expect(result.current.hasMore).toBe(true)
  })
})

describe('error states of the writes', () => {
  it('useMarkAs, useMarkAll and useUpdatePreferences expose the error and do not reject', async () => {
    const h = setup({ fixture: fixture() })
    const { result } = renderHook(
      () => ({
        feed: useFeed(),
        marks: useMarkAs(),
        all: useMarkAll(),
        update: useUpdatePreferences(),
        prefs: usePreferences(),
      }),
      { wrapper: h.wrapper },
    )
    await waitFor(() => expect(result.current.feed.items).toHaveLength(3))
    await waitFor(() => expect(result.current.prefs.data).toBeDefined())
    h.service.faults.add({ method: 'POST', status: 500 })
    h.service.faults.add({ method: 'PATCH', drop: true })
    await act(() => result.current.marks.markAs({ ids: result.current.feed.items[0]!._id, markAs: 'read' }))
    await act(() => result.current.all.markAll())
    await act(() => result.current.update.update({ channels: { in_app: false } }))
    await waitFor(() => expect(result.current.marks.error).toMatchObject({ status: 500 }))
    await waitFor(() => expect(result.current.all.error).toMatchObject({ status: 500 }))
    await waitFor(() => expect(result.current.update.error).toBeInstanceOf(NetworkError))
    expect(result.current.update.readOnly).toBe(false)
    expect(result.current.feed.items.every((i) => !i.read)).toBe(true)
    expect(result.current.prefs.data!.global.channels.in_app).toBe(true)
  })

  it('a change made after a failed one clears its error, as with mark all and preference updates', async () => {
    const h = setup({ fixture: fixture() })
    const { result } = renderHook(() => ({ feed: useFeed(), marks: useMarkAs(), all: useMarkAll() }), {
      wrapper: h.wrapper,
    })
    await waitFor(() => expect(result.current.feed.items).toHaveLength(3))
    const [a, b] = result.current.feed.items
    h.service.faults.add({ method: 'POST', status: 500, times: 2 })
    await act(() => result.current.marks.markAs({ ids: a!._id, markAs: 'read' }))
    await act(() => result.current.all.markAll())
    expect(result.current.marks.error).toMatchObject({ status: 500 })
    expect(result.current.all.error).toMatchObject({ status: 500 })
    await act(() => result.current.marks.markAs({ ids: b!._id, markAs: 'read' }))
    await act(() => result.current.all.markAll())
    expect(h.serviceState().unread).toBe(0)
    expect(result.current.marks.error).toBeNull()
    expect(result.current.all.error).toBeNull()
  })

  it('useMarkAs tells each failed item, whichever hook changed it, until dismissed or changed again', async () => {
    const h = setup({ fixture: fixture() })
    const { result } = renderHook(() => ({ feed: useFeed(), mine: useMarkAs(), other: useMarkAs() }), {
      wrapper: h.wrapper,
    })
    await waitFor(() => expect(result.current.feed.items).toHaveLength(3))
    const [a, b] = result.current.feed.items
    expect(result.current.mine.failed.size).toBe(0)
    const remove = h.service.faults.add({ method: 'POST', status: 500 })
    await act(() => result.current.other.markAs({ ids: [a!._id, b!._id], markAs: 'read' }))
    // Told here too, though another hook made the change; with the service's own status.
    expect([...result.current.mine.failed.keys()].sort()).toEqual([a!._id, b!._id].sort())
    expect(result.current.mine.failed.get(a!._id)).toMatchObject({ status: 500 })
    expect(result.current.mine.error).toBeNull()
    act(() => result.current.mine.dismiss(a!._id))
    expect([...result.current.mine.failed.keys()]).toEqual([b!._id])
    expect([...result.current.other.failed.keys()]).toEqual([b!._id])
    // A later change of the item that succeeds clears its failure.
    remove()
    await act(() => result.current.mine.markAs({ ids: b!._id, markAs: 'read' }))
    expect(result.current.mine.failed.size).toBe(0)
    expect(h.serviceState().unread).toBe(2)
  })

  it('useMarkAs clears its error once the service is found to hold the change after all', async () => {
    // Every mark reaches the service; no answer comes back.
    const h = setup({ fixture: fixture() })
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await h.started.fetch(input, init)
      if (String(input).endsWith('/messages/mark-as')) throw new TypeError('Failed to fetch')
      return response
    }) as typeof globalThis.fetch
    const lost = setup({ sameServiceAs: h, client: { fetch } })
    const told: (Error | null)[] = []
    const { result } = renderHook(
      () => {
        const value = { feed: useFeed(), marks: useMarkAs() }
        told.push(value.marks.error)
        return value
      },
      { wrapper: lost.wrapper },
    )
    await waitFor(() => expect(result.current.feed.items).toHaveLength(3))
    const [a] = result.current.feed.items
    await act(() => result.current.marks.markAs({ ids: a!._id, markAs: 'read' }))
    // Told as failed (the answer never came), until…
    expect(told.some((e) => e instanceof NetworkError)).toBe(true)
    // …the read owed after a write of unknown outcome finds it applied.
    await waitFor(() => expect(result.current.feed.items.find((i) => i._id === a!._id)?.read).toBe(true), {
      timeout: 5000,
    })
    expect(result.current.marks.error).toBeNull()
  })
})
