// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query'
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import {
  InboxAdminProvider,
  useActiveIntegrations,
  useBulkTrigger,
  useSetPrimaryIntegration,
  useTopicSubscriptions,
} from '../../src/admin'
import { createInboxClient } from '../../src/api/client'
import { NetworkError } from '../../src/api/errors'
import { useCounts } from '../../src/hooks/useCounts'
import { useFeed } from '../../src/hooks/useFeed'
import { useTrigger } from '../../src/admin'
import { buildFixture, inApp, integration, messages, subscriber, topic, workflow } from '../support/fixtures'
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

describe('idempotency keys of the admin writes', () => {
  /**
   * The admin hooks alone over the reference service, with the client's retries off. `loseAnswers(n)` lets the
   * next n writes reach the service and be applied, then rejects them as a dropped connection does: the answer
   * is lost on the way back. `writes` notes each write's key and whether the service replayed it.
   */
  function backOffice(queryClient?: QueryClient) {
    const started = startService({
      fixture: buildFixture({
        workflows: [workflow('hello', [inApp('Hello {{payload.name}}')])],
        subscribers: [subscriber('user-2')],
        integrations: [integration('email', 'mail-a', { primary: true }), integration('email', 'mail-b')],
      }),
    })
    const writes: { path: string; key: string | null; replayed: boolean }[] = []
    let lost = 0
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      const response = await started.fetch(request)
      if (request.method === 'GET') return response
      writes.push({
        path: new URL(request.url).pathname,
        key: request.headers.get('idempotency-key'),
        replayed: response.headers.get('idempotency-replay') === 'true',
      })
      if (lost > 0 && lost--) throw new TypeError('fetch failed')
      return response
    }) as typeof globalThis.fetch
    const client = createInboxClient({ baseUrl: started.baseUrl, apiKey: started.service.apiKey, fetch, retry: false })
    const { result } = renderHook(
      () => ({ trigger: useTrigger<{ name: string }>(), bulk: useBulkTrigger(), primary: useSetPrimaryIntegration() }),
      {
        wrapper: ({ children }) => (
          <InboxAdminProvider client={client} queryClient={queryClient}>
            {children}
          </InboxAdminProvider>
        ),
      },
    )
    const delivered = async () => (await started.service.settle(), started.service.state.messages('user-2').length)
    return { result, writes, delivered, service: started.service, loseAnswers: (n: number) => (lost = n) }
  }

  const hello = { name: 'hello', to: 'user-2', payload: { name: 'Ada' } }

  it('the same key sent twice triggers once: the service answers the second with the first result', async () => {
    const { result, writes, delivered, service } = backOffice()
    const first = await act(() => result.current.trigger.trigger(hello, { idempotencyKey: 'order-42-shipped' }))
    const again = await act(() => result.current.trigger.trigger(hello, { idempotencyKey: 'order-42-shipped' }))
    expect(first).toMatchObject({ status: 'processed' })
    expect(again).toEqual(first)
    expect(await delivered()).toBe(1)

    const events = { events: [hello, { ...hello, payload: { name: 'Bo' } }] }
    const bulk = await act(() => result.current.bulk.bulkTrigger(events, { idempotencyKey: 'digest-monday' }))
    expect(await act(() => result.current.bulk.bulkTrigger(events, { idempotencyKey: 'digest-monday' }))).toEqual(bulk)
    expect(await delivered()).toBe(3)

    const target = service.state.integrations().find((i) => i.identifier === 'mail-b')!._id
    await act(() => result.current.primary.setPrimary(target, { idempotencyKey: 'mail-b-primary' }))
    expect(writes.map((w) => [w.key, w.replayed])).toEqual([
      ['order-42-shipped', false],
      ['order-42-shipped', true],
      ['digest-monday', false],
      ['digest-monday', true],
      ['mail-b-primary', false],
    ])
  })

  it('each call without a key makes its own, so two calls are two notifications', async () => {
    const { result, writes, delivered } = backOffice()
    await act(() => result.current.trigger.trigger(hello))
    await act(() => result.current.trigger.trigger(hello))
    expect(await delivered()).toBe(2)
    expect(writes[0]!.key).toMatch(/^[0-9a-f-]{36}$/)
    expect(writes[1]!.key).not.toBe(writes[0]!.key)
  })

  it("a try again after a dropped connection, with the screen's key, does not send twice", async () => {
    const { result, writes, delivered, loseAnswers } = backOffice()
    loseAnswers(1)
    await act(() =>
      expect(result.current.trigger.trigger(hello, { idempotencyKey: 'form-7' })).rejects.toBeInstanceOf(NetworkError),
    )
    // The service took it: the notification is there, only its answer was lost.
    expect(await delivered()).toBe(1)
    const answer = await act(() => result.current.trigger.trigger(hello, { idempotencyKey: 'form-7' }))
    expect(answer).toMatchObject({ acknowledged: true, status: 'processed' })
    expect(await delivered()).toBe(1)
    expect(writes.map((w) => w.replayed)).toEqual([false, true])
  })

  it("React Query's own retries of a call keep its key: a lost answer is replayed, not sent again", async () => {
    const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: 2, retryDelay: 0 } } })
    const { result, writes, delivered, loseAnswers } = backOffice(queryClient)
    loseAnswers(1)
    const answer = await act(() => result.current.trigger.trigger(hello))
    expect(answer).toMatchObject({ status: 'processed' })
    loseAnswers(1)
    const results = await act(() => result.current.bulk.bulkTrigger({ events: [hello] }))
    expect(results).toMatchObject([{ status: 'processed' }])
    expect(await delivered()).toBe(2)
    expect(writes.map((w) => w.replayed)).toEqual([false, true, false, true])
    expect(writes[1]!.key).toBe(writes[0]!.key)
    expect(writes[3]!.key).toBe(writes[2]!.key)
    expect(writes[2]!.key).not.toBe(writes[0]!.key)
  })
})
