// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { InboxAdminProvider, useActiveIntegrations, useBulkTrigger, useTopicSubscriptions } from '../../src/admin'
import { useCounts } from '../../src/hooks/useCounts'
import { useFeed } from '../../src/hooks/useFeed'
import { useTrigger } from '../../src/admin'
import { buildFixture, inApp, messages, subscriber, topic, workflow } from '../support/fixtures'
import { startService } from '../support/service'
import { settled, setup } from './harness'

afterEach(cleanup)

const fixture = () =>
  buildFixture({
    workflows: [workflow('hello', [inApp('Hello {{payload.name}}')])],
    subscribers: [subscriber('user-2')],
    topics: [topic('team', ['user-1', 'user-2'])],
    messages: messages('user-1', 2, {}, 'hello'),
  })

function useSender() {
  return { feed: useFeed(), counts: useCounts(), trigger: useTrigger<{ name: string }>(), bulk: useBulkTrigger() }
}

async function mount() {
  const h = setup({ fixture: fixture() })
  const { result } = renderHook(useSender, { wrapper: h.wrapper })
  await waitFor(() => expect(result.current.counts.unread).toBe(2))
  await settled(h.queryClient)
  return { h, result }
}

describe('useTrigger and useBulkTrigger', () => {
  it('refreshes the feed and counts once when the subscriber is a recipient', async () => {
    const { h, result } = await mount()
    const before = h.feedRequests().length
    let answer: unknown
    await act(async () => {
      answer = await result.current.trigger.trigger({ name: 'hello', to: 'user-1', payload: { name: 'Ada' } })
    })
    expect(answer).toMatchObject({ acknowledged: true, status: 'processed' })
    await settled(h.queryClient)
    // One refetch per active list: the feed, the unread count and the unseen count.
    expect(h.feedRequests().length - before).toBe(3)
    expect(result.current.counts.unread).toBe(3)
    expect(result.current.feed.items[0]!.content).toBe('Hello Ada')
    await waitFor(() => expect(result.current.trigger.data).toMatchObject({ status: 'processed' }))
  })

  it('does not refresh for another recipient, and does for a topic', async () => {
    const { h, result } = await mount()
    const before = h.feedRequests().length
    await act(async () => {
      await result.current.trigger.trigger({ name: 'hello', to: { subscriberId: 'user-2' }, payload: { name: 'B' } })
    })
    await settled(h.queryClient)
    expect(h.feedRequests().length).toBe(before)
    await act(async () => {
      await result.current.trigger.trigger({
        name: 'hello',
        to: { type: 'Topic', topicKey: 'team' },
        payload: { name: 'T' },
      })
    })
    await settled(h.queryClient)
    expect(h.feedRequests().length - before).toBe(3)
    expect(result.current.counts.unread).toBe(3)
  })

  it('bulk: results per event in order, one refresh for the whole request', async () => {
    const { h, result } = await mount()
    const before = h.feedRequests().length
    let results: unknown
    await act(async () => {
      results = await result.current.bulk.bulkTrigger({
        events: [
          { name: 'hello', to: 'user-1', payload: { name: 'one' } },
          { name: 'missing', to: 'user-1' },
          { name: 'hello', to: ['user-1', 'user-2'], payload: { name: 'two' } },
        ],
      })
    })
    expect(results).toMatchObject([
      { status: 'processed' },
      { status: 'error', error: ['workflow_not_found'] },
      { status: 'processed' },
    ])
    await settled(h.queryClient)
    expect(h.feedRequests().length - before).toBe(3)
    expect(result.current.counts.unread).toBe(4)
  })

  it('rejects and exposes the error of a failed trigger', async () => {
    const { h, result } = await mount()
    await act(() =>
      expect(result.current.trigger.trigger({ name: 'nope', to: 'user-1' })).rejects.toMatchObject({ status: 422 }),
    )
    await waitFor(() => expect(result.current.trigger.error).toMatchObject({ status: 422 }))
    h.service.faults.add({ path: /trigger\/bulk$/, status: 500 })
    await act(() =>
      expect(result.current.bulk.bulkTrigger({ events: [{ name: 'hello', to: 'user-1' }] })).rejects.toMatchObject({
        status: 500,
      }),
    )
    await waitFor(() => expect(result.current.bulk.error).toMatchObject({ status: 500 }))
  })
})

describe('the admin hooks on a back-office page of their own', () => {
  it('work under <InboxAdminProvider> alone, with no inbox around them', async () => {
    const { client } = startService({ fixture: fixture() })
    const { result } = renderHook(
      () => ({ trigger: useTrigger<{ name: string }>(), integrations: useActiveIntegrations() }),
      { wrapper: ({ children }) => <InboxAdminProvider client={client}>{children}</InboxAdminProvider> },
    )
    await waitFor(() => expect(result.current.integrations.data).toBeDefined())
    let answer: unknown
    await act(async () => {
      answer = await result.current.trigger.trigger({ name: 'hello', to: 'user-2', payload: { name: 'Ada' } })
    })
    expect(answer).toMatchObject({ acknowledged: true, status: 'processed' })
    const feed = await client.getFeed('user-2')
    expect(feed.data[0]!.content).toBe('Hello Ada')
  })

  it('show a failed read at once, as the client answered it, with no retries of their own on top', async () => {
    const { client, service } = startService({ fixture: fixture() })
    service.faults.add({ path: /integrations\/active$/, status: 403 })
    let requests = 0
    const counting = {
      ...client,
      listActiveIntegrations: (...args: Parameters<typeof client.listActiveIntegrations>) => (
        requests++,
        client.listActiveIntegrations(...args)
      ),
    }
    const { result } = renderHook(
      () => ({ integrations: useActiveIntegrations(), topic: useTopicSubscriptions('no-such-topic') }),
      { wrapper: ({ children }) => <InboxAdminProvider client={counting}>{children}</InboxAdminProvider> },
    )
    await waitFor(() => expect(result.current.integrations.error).toMatchObject({ status: 403 }), { timeout: 800 })
    expect(result.current.integrations.isLoading).toBe(false)
    await waitFor(() => expect(result.current.topic.error).toMatchObject({ status: 404 }), { timeout: 800 })
    expect(requests).toBe(1)
  })

  it('say where they belong when neither provider is there', () => {
    expect(() => renderHook(() => useTrigger())).toThrow(
      '`useTrigger` must be used within `<InboxAdminProvider>` or `<InboxProvider>`',
    )
  })
})
