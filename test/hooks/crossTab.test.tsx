// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { useCounts } from '../../src/hooks/useCounts'
import { useFeed } from '../../src/hooks/useFeed'
import { useMarkAll } from '../../src/hooks/useMarkAs'
import { useMarkAs } from '../../src/hooks/useMarkAs'
import { usePreferences } from '../../src/hooks/usePreferences'
import { useUpdatePreferences } from '../../src/hooks/usePreferences'
import { buildFixture, emailStep, inApp, messages, subscriber, workflow } from '../support/fixtures'
import { settled, setup, type Harness } from './harness'

afterEach(cleanup)

function useTab() {
  return {
    all: useFeed(),
    unread: useFeed({ read: false }),
    read: useFeed({ read: true }),
    counts: useCounts(),
    marks: useMarkAs(),
    markAll: useMarkAll(),
    prefs: usePreferences(),
    update: useUpdatePreferences(),
  }
}

function twoTabs(
  fixture = buildFixture({
    workflows: [workflow('test-workflow', [inApp('Hi'), emailStep()])],
    messages: messages('user-1', 8, (i) => ({ read: i >= 4 })),
  }),
) {
  const a = setup({ fixture })
  const b = setup({ sameServiceAs: a })
  const tabA = renderHook(useTab, { wrapper: a.wrapper })
  const tabB = renderHook(useTab, { wrapper: b.wrapper })
  return { a, b, tabA: tabA.result, tabB: tabB.result }
}

describe('cross-tab', () => {
  it('two providers of one page that share a QueryClient count a mark once, not again from the other', async () => {
    const a = setup({ fixture: buildFixture({ messages: messages('user-1', 8, (i) => ({ read: i >= 4 })) }) })
    // An <Inbox subscriberId> beside a provider of the same inbox: mounted together, they share one cache.
    const b = setup({ sameServiceAs: a, provider: { queryClient: a.queryClient } })
    const tabA = renderHook(useTab, { wrapper: a.wrapper }).result
    const tabB = renderHook(useTab, { wrapper: b.wrapper }).result
    await waitFor(() => expect(tabA.current.counts.unread).toBe(4))
    await settled(a.queryClient)
    const id = tabA.current.unread.items[0]!._id
    await act(() => tabA.current.marks.markAs({ ids: id, markAs: 'read' }))
    await act(() => tabA.current.marks.markAs({ ids: id, markAs: 'unread' }))
    // The messages between the two have come and gone.
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)))
    await settled(a.queryClient)
    expect(a.serviceState().unread).toBe(4)
    for (const tab of [tabA, tabB]) {
      expect(tab.current.counts.unread).toBe(4)
      expect(tab.current.unread.items).toHaveLength(4)
    }
  })

  it('a mark-as in one tab shows in the other without a request there', async () => {
    const { a, b, tabA, tabB } = twoTabs()
    await waitFor(() => expect(tabB.current.prefs.data).toBeDefined())
    await waitFor(() => expect(tabA.current.prefs.data).toBeDefined())
    await settled(a.queryClient)
    await settled(b.queryClient)
    const bBefore = b.requests.length
    const unreadId = tabA.current.unread.items[0]!._id
    const readId = tabA.current.read.items[0]!._id
    await act(() => tabA.current.marks.markAs({ ids: unreadId, markAs: 'read' }))
    await act(() => tabA.current.marks.markAs({ ids: readId, markAs: 'unread' }))
    await waitFor(() => expect(tabB.current.all.items.find((i) => i._id === unreadId)?.read).toBe(true))
    await waitFor(() => expect(tabB.current.unread.items.map((i) => i._id)).toContain(readId))
    expect(tabB.current.unread.items.map((i) => i._id)).not.toContain(unreadId)
    expect(tabB.current.read.items.map((i) => i._id)).toContain(unreadId)
    expect(tabB.current.counts.unread).toBe(4)
    expect(tabB.current.counts.unread).toBe(tabA.current.counts.unread)
    expect(tabB.current.unread.items.map((i) => i._id)).toEqual(tabA.current.unread.items.map((i) => i._id))
    expect(a.serviceState().unread).toBe(4)
    expect(b.requests.length).toBe(bBefore)
  })

  it('mark all and a preference change in one tab show in the other without a request there', async () => {
    const { a, b, tabA, tabB } = twoTabs()
    await waitFor(() => expect(tabB.current.prefs.data).toBeDefined())
    await waitFor(() => expect(tabA.current.prefs.data).toBeDefined())
    await settled(a.queryClient)
    await settled(b.queryClient)
    const bBefore = b.requests.length
    expect(tabB.current.prefs.data!.global.channels.email).toBe(true)
    await act(() => tabA.current.update.update({ channels: { email: false } }))
    await waitFor(() => expect(tabB.current.prefs.data!.global.channels.email).toBe(false))
    expect(tabB.current.prefs.data).toEqual(tabA.current.prefs.data)
    await act(() => tabA.current.markAll.markAll())
    await waitFor(() => expect(tabB.current.counts.unread).toBe(0))
    expect(tabB.current.all.items.every((i) => i.read)).toBe(true)
    // The read list of tab B may lack items it never loaded: marked stale, not refetched.
    expect(b.requests.length).toBe(bBefore)
  })

  it('a mark whose answer was lost, found held by the service, shows in the other tab without a request there', async () => {
    const fixture = buildFixture({
      workflows: [workflow('test-workflow', [inApp('Hi')])],
      messages: messages('user-1', 4),
    })
    // Tab A's marks reach the service, which applies them; their answers are lost on the way back.
    let lose = 0
    const a: Harness = setup({
      fixture,
      provider: { pollInterval: 0 },
      client: {
        fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
          const answer = await a.started.fetch(input, init)
          if (lose > 0 && String(input).endsWith('/mark-as')) {
            lose--
            throw new TypeError('fetch failed')
          }
          return answer
        }) as typeof fetch,
      },
    })
    const b = setup({ sameServiceAs: a, provider: { pollInterval: 0 } })
    const tabA = renderHook(useTab, { wrapper: a.wrapper }).result
    const tabB = renderHook(useTab, { wrapper: b.wrapper }).result
    await waitFor(() => expect(tabB.current.counts.unread).toBe(4))
    await waitFor(() => expect(tabA.current.counts.unread).toBe(4))
    await settled(b.queryClient)
    const bBefore = b.requests.length
    const id = tabA.current.unread.items[0]!._id
    lose = 1
    await act(() => tabA.current.marks.markAs({ ids: id, markAs: 'read' }).catch(() => {}))
    expect(a.serviceState().byId.get(id)!.read).toBe(true)
    // Tab A asks the service again, finds the write held and tells tab B, which never saw it.
    await waitFor(() => expect(tabB.current.all.items.find((i) => i._id === id)?.read).toBe(true), { timeout: 3000 })
    expect(tabB.current.counts.unread).toBe(3)
    expect(tabB.current.unread.items.map((i) => i._id)).not.toContain(id)
    expect(tabA.current.counts.unread).toBe(3)
    expect(b.requests.length).toBe(bBefore)
  })

  it('tabs of another subscriber ignore the change', async () => {
    const fixture = buildFixture({
      subscribers: [subscriber('user-2')],
      messages: [...messages('user-1', 2), ...messages('user-2', 2)],
    })
    const a = setup({ fixture })
    const b = setup({ sameServiceAs: a, provider: { subscriberId: 'user-2' } })
    const tabA = renderHook(useTab, { wrapper: a.wrapper }).result
    const tabB = renderHook(useTab, { wrapper: b.wrapper }).result
    await waitFor(() => expect(tabB.current.counts.unread).toBe(2))
    await waitFor(() => expect(tabA.current.counts.unread).toBe(2))
    await act(() => tabA.current.markAll.markAll())
    await act(() => new Promise((r) => setTimeout(r, 50)))
    expect(tabA.current.counts.unread).toBe(0)
    expect(tabB.current.counts.unread).toBe(2)
  })
})
