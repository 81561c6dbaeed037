// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { useSubscriberSubscriptions } from '../../src/hooks/useSubscriberSubscriptions'
import { useTopicSubscriptions } from '../../src/admin'
import { buildFixture, subscriber, topic } from '../support/fixtures'
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
