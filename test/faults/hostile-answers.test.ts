/**
 * A service that answers in ways the API does not allow, through a wrapper around the reference service's
 * fetch handler that rewrites its bodies: the kit must end what it does, never ask for ever.
 */
import { InfiniteQueryObserver, QueryClient } from '@tanstack/react-query'
import { describe, expect, it, vi } from 'vitest'
import { createService } from '../../server'
import { createInboxClient } from '../../src/api/client'
import { feedQueryOptions, fetchCount } from '../../src/core/queries'
import { createInboxSync } from '../../src/core/sync'
import { buildFixture, messages, TEST_SUBSCRIBER_ID } from '../support/fixtures'
import { BASE_URL } from '../support/service'

/** Past this many requests the wrapper refuses, so that a kit that would ask for ever fails instead of hanging. */
const CAP = 50

/**
 * The kit's bookkeeping on a fresh service whose GET answers go through `rewrite` (the parsed body and the
 * request's URL in, the body to send out).
 */
function start(count: number, rewrite: (body: Record<string, unknown>, url: URL) => unknown) {
  const service = createService({ fixture: buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, count) }) })
  const requests: string[] = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(new URL(String(input), BASE_URL), init)
    const url = new URL(request.url)
    requests.push(`${request.method} ${url.pathname}${url.search}`)
    if (requests.length > CAP) throw new TypeError('fetch failed')
    const response = await service.fetch(request)
    if (!response.ok || request.method !== 'GET') return response
    const body = rewrite((await response.json()) as Record<string, unknown>, url)
    return Response.json(body)
  }) as typeof globalThis.fetch
  const client = createInboxClient({ baseUrl: BASE_URL, apiKey: service.apiKey, fetch, retry: false })
  const sync = createInboxSync(client, new QueryClient(), TEST_SUBSCRIBER_ID)
  return { service, requests, sync, client }
}

/** Every page of a feed answered as its page 0, with `hasMore: true`: a service that ignores `page`. */
function ignoringPage() {
  const first = new Map<string, unknown>()
  return (body: Record<string, unknown>, url: URL) => {
    const key = [...url.searchParams].filter(([name]) => name !== 'page').join()
    if (url.searchParams.get('page') === '0') first.set(key, body)
    return { ...(first.get(key) as object), hasMore: true }
  }
}

describe('a service whose pages do not end', () => {
  it('"mark all" stops after pages that bring no new item, as a list does, and marks each item once', async () => {
    const t = start(5, ignoringPage())
    const ledger = await t.sync.ledger()
    expect(await ledger.markAll('read')).toBeUndefined()
    expect(t.requests.length).toBeLessThan(10)
    expect(t.requests.filter((r) => r.startsWith('POST'))).toHaveLength(1)
    expect(t.service.state.messages(TEST_SUBSCRIBER_ID).every((m) => m.read && m.seen)).toBe(true)
  })

  it('a list says no more follow after three pages in a row that bring no new item, so the feed stops asking', async () => {
    const t = start(5, ignoringPage())
    const options = feedQueryOptions(t.sync)
    // Up to ten pages, as a reader at the end of the list would have them fetched one after another.
    const data = await t.sync.queryClient.fetchInfiniteQuery({ ...options, pages: 10 })
    expect(data.pages.map((p) => p.data.length)).toEqual([5, 5, 5, 5])
    expect(new InfiniteQueryObserver(t.sync.queryClient, options).getCurrentResult().hasNextPage).toBe(false)
  })

  it('a page of news that came between two reads (the next page all seen before) is not taken for the end', async () => {
    const t = start(25, (body) => body)
    const observer = new InfiniteQueryObserver(t.sync.queryClient, feedQueryOptions(t.sync, { limit: 10 }))
    const unsubscribe = observer.subscribe(() => {})
    try {
      await vi.waitFor(() => expect(observer.getCurrentResult().data?.pages).toHaveLength(1))
      // Ten arrive: the service's page 1 is now what page 0 was.
      const event = { name: 'test-workflow', to: TEST_SUBSCRIBER_ID, payload: {} }
      await t.client.bulkTrigger({ events: Array.from({ length: 10 }, () => event) })
      for (let i = 0; observer.getCurrentResult().hasNextPage && i < 10; i++) await observer.fetchNextPage()
      const ids = new Set(observer.getCurrentResult().data!.pages.flatMap((p) => p.data.map((item) => item._id)))
      // Every item the service held before the news is reached.
      expect(t.service.state.messages(TEST_SUBSCRIBER_ID).filter((m) => !ids.has(m._id))).toHaveLength(10)
    } finally {
      unsubscribe()
    }
  })

  it('a page that is the continuation still leads to the next one', async () => {
    const t = start(25, (body) => body)
    const data = await t.sync.queryClient.fetchInfiniteQuery({ ...feedQueryOptions(t.sync, { limit: 10 }), pages: 10 })
    expect(data.pages.map((p) => p.data.length)).toEqual([10, 10, 5])
  })
})

describe('a service whose counts are no counts', () => {
  it.each([
    [2.5, 2],
    [-3, 0],
    [1e308, 1e308],
  ])('a totalCount of %s is counted as %s', async (totalCount, count) => {
    const t = start(3, (body, url) => (url.searchParams.get('limit') === '1' ? { ...body, totalCount } : body))
    expect(await fetchCount(t.sync, 'unread')).toMatchObject({ count, capped: false })
  })
})
