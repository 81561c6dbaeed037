// @vitest-environment jsdom
import { act, cleanup, render, renderHook, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { useSubscriberSubscriptions } from '../../src/hooks/useSubscriberSubscriptions'
import { useTopicSubscriptions } from '../../src/admin'
import { buildFixture, subscriber, topic } from '../support/fixtures'
import { InboxProvider } from '../../src/provider/InboxProvider'
import { setup } from './harness'

afterEach(cleanup)

const others = Array.from({ length: 24 }, (_, i) => `sub-${String(i).padStart(2, '0')}`)
const fixture = () =>
  buildFixture({
    subscribers: others.map((id) => subscriber(id)),
    topics: [
      ...Array.from({ length: 23 }, (_, i) => topic(`topic-${String(i).padStart(2, '0')}`, ['user-1'])),
      topic('big', ['user-1', ...others]),
    ],
  })

describe('cursor lists', () => {
  it('pages the subscriber subscriptions forwards and backwards', async () => {
    const h = setup({ fixture: fixture() })
    const { result } = renderHook(() => useSubscriberSubscriptions({ limit: 10 }), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.items).toHaveLength(10))
    const keys = () => result.current.items.map((s) => s.topic.key)
    const first = keys()
    expect(result.current).toMatchObject({ hasPrevious: false, hasNext: true })
    act(() => result.current.next())
    await waitFor(() => expect(keys()).not.toEqual(first))
    const second = keys()
    act(() => result.current.next())
    await waitFor(() => expect(keys()).not.toEqual(second))
    expect(result.current.items).toHaveLength(4)
    expect(result.current).toMatchObject({ hasPrevious: true, hasNext: false })
    const all = new Set([...first, ...second, ...keys()])
    expect(all.size).toBe(24)
    act(() => result.current.previous())
    await waitFor(() => expect(keys()).toEqual(second))
    act(() => result.current.previous())
    await waitFor(() => expect(keys()).toEqual(first))
    expect(result.current.hasPrevious).toBe(false)
  })

  it("shows no topic of the previous subscriber while the next one's topics load, and keeps a page while the next page loads", async () => {
    const h = setup({
      fixture: buildFixture({
        subscribers: [subscriber('user-2')],
        topics: [topic('first-a', ['user-1']), topic('first-b', ['user-1']), topic('second', ['user-2'])],
      }),
    })
    let switchTo!: (id: string) => void
    function App() {
      const [id, setId] = useState('user-1')
      switchTo = setId
      return (
        <InboxProvider subscriberId={id} client={h.client} queryClient={h.queryClient} stream={false}>
          <Topics />
        </InboxProvider>
      )
    }
    const shown: string[] = []
    let topics!: ReturnType<typeof useSubscriberSubscriptions>
    function Topics() {
      topics = useSubscriberSubscriptions({ limit: 1 })
      shown.push(topics.items.map((s) => s.topic.key).join())
      return null
    }
    render(<App />)
    await waitFor(() => expect(shown.at(-1)).toBe('first-b'))
    h.service.faults.add({ path: /subscriptions$/, latency: 50 })
    act(() => topics.next())
    await waitFor(() => expect(shown.at(-1)).toBe('first-a'))
    // The first page stayed while the second loaded.
    expect(shown.slice(shown.indexOf('first-b'))).not.toContain('')
    const switchedAt = shown.length
    act(() => switchTo('user-2'))
    await waitFor(() => expect(shown.at(-1)).toBe('second'))
    expect(shown.slice(switchedAt).filter((keys) => keys.startsWith('first'))).toEqual([])
  })

  it('loads a first page that failed again with refetch', async () => {
    const h = setup({ fixture: fixture() })
    h.service.faults.add({ path: /subscriptions$/, status: 500, times: 1 })
    const { result } = renderHook(() => useSubscriberSubscriptions({ limit: 10 }), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.error).toMatchObject({ status: 500 }))
    expect(result.current).toMatchObject({ items: [], hasNext: false, hasPrevious: false })
    let refetched!: Promise<void>
    act(() => void (refetched = result.current.refetch()))
    await expect(refetched).resolves.toBeUndefined()
    await waitFor(() => expect(result.current.items).toHaveLength(10))
    expect(result.current).toMatchObject({ error: null, hasNext: true, hasPrevious: false })
  })

  it('keeps the page a failed move started from, with its moves: the same move again, back, or refetch', async () => {
    const h = setup({ fixture: fixture() })
    const shown: string[] = []
    const { result } = renderHook(
      () => {
        const list = useSubscriberSubscriptions({ limit: 10 })
        shown.push(list.items.map((s) => s.topic.key).join())
        return list
      },
      { wrapper: h.wrapper },
    )
    const keys = () => result.current.items.map((s) => s.topic.key)
    await waitFor(() => expect(result.current.items).toHaveLength(10))
    const loadedAt = shown.length
    const first = keys()
    // Next fails (a dropped connection): the first page stays, and Next is still there to try again.
    h.service.faults.add({ path: /subscriptions$/, drop: true, times: 1 })
    act(() => result.current.next())
    await waitFor(() => expect(result.current.error).not.toBeNull())
    expect(keys()).toEqual(first)
    expect(result.current).toMatchObject({ hasNext: true, hasPrevious: false, isFetching: false })
    act(() => result.current.next())
    await waitFor(() => expect(result.current.error).toBeNull())
    await waitFor(() => expect(result.current.hasPrevious).toBe(true))
    const second = keys()
    expect(second.some((k) => first.includes(k))).toBe(false)
    // The last page fails (500): the second page stays with both moves; Previous goes back.
    h.service.faults.add({ path: /subscriptions$/, status: 500, times: 1 })
    act(() => result.current.next())
    await waitFor(() => expect(result.current.error).toMatchObject({ status: 500 }))
    expect(keys()).toEqual(second)
    expect(result.current).toMatchObject({ hasNext: true, hasPrevious: true })
    act(() => result.current.previous())
    await waitFor(() => expect(keys()).toEqual(first))
    expect(result.current).toMatchObject({ error: null, hasPrevious: false })
    // And refetch loads the page that failed, while the page before stays in view.
    act(() => result.current.next())
    await waitFor(() => expect(keys()).toEqual(second))
    h.service.faults.add({ path: /subscriptions$/, status: 503, times: 1 })
    act(() => result.current.next())
    await waitFor(() => expect(result.current.error).toMatchObject({ status: 503 }))
    h.service.faults.add({ path: /subscriptions$/, latency: 50, times: 1 })
    const retriedAt = shown.length
    act(() => void result.current.refetch())
    await waitFor(() => expect(result.current.items).toHaveLength(4))
    expect(result.current).toMatchObject({ error: null, hasNext: false, hasPrevious: true })
    expect(new Set([...first, ...second, ...keys()]).size).toBe(24)
    // While it loaded again the second page stayed; and no failure ever emptied the list.
    expect(new Set(shown.slice(retriedAt))).toEqual(new Set([second.join(), keys().join()]))
    expect(shown.slice(loadedAt)).not.toContain('')
  })

  it('keeps the total count of the page a failed move started from', async () => {
    const h = setup({ fixture: fixture() })
    const { result } = renderHook(() => useTopicSubscriptions('big', { limit: 10 }), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.items).toHaveLength(10))
    h.service.faults.add({ path: /subscriptions$/, status: 500, times: 1 })
    act(() => result.current.next())
    await waitFor(() => expect(result.current.error).toMatchObject({ status: 500 }))
    expect(result.current).toMatchObject({ totalCount: 25, hasNext: true })
    expect(result.current.items).toHaveLength(10)
  })

  it('filters the subscriber list by topic key', async () => {
    const h = setup({ fixture: fixture() })
    const { result } = renderHook(() => useSubscriberSubscriptions({ key: 'big' }), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.items).toHaveLength(1))
    expect(result.current.items[0]!.topic.key).toBe('big')
  })

  it('pages a topic with its total count, both ways', async () => {
    const h = setup({ fixture: fixture() })
    const { result } = renderHook(() => useTopicSubscriptions('big', { limit: 10 }), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.items).toHaveLength(10))
    expect(result.current).toMatchObject({ totalCount: 25, totalCountCapped: false, hasNext: true, hasPrevious: false })
    const first = result.current.items.map((s) => s.subscriber.subscriberId)
    act(() => result.current.next())
    await waitFor(() => expect(result.current.hasPrevious).toBe(true))
    act(() => result.current.previous())
    await waitFor(() => expect(result.current.items.map((s) => s.subscriber.subscriberId)).toEqual(first))
    const one = renderHook(() => useTopicSubscriptions('big', { subscriberId: 'sub-03' }), { wrapper: h.wrapper })
    await waitFor(() => expect(one.result.current.totalCount).toBe(1))
    expect(one.result.current.items[0]!.subscriber.subscriberId).toBe('sub-03')
  })

  it('shows the error of an unknown topic', async () => {
    const h = setup({ fixture: fixture() })
    const { result } = renderHook(() => useTopicSubscriptions('missing'), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.error).toMatchObject({ status: 404 }))
    expect(result.current.items).toEqual([])
  })
})
