/**
 * inbox-kit/server: query keys, query options and prefetching, safe to import on a server (a React
 * Server Component, a route loader) and in the browser alike: nothing here touches the DOM or React.
 */
import type { QueryClient } from '@tanstack/react-query'
import type { Criticality, InboxClient, SubscriberClient } from './api/types'
import { devWarn } from './core/keys'
import {
  countQueryOptions,
  feedQueryOptions,
  preferencesQueryOptions,
  type FeedFilters,
  type QueryDeps,
} from './core/queries'

export {
  countQueryOptions,
  feedQueryOptions,
  fetchCount,
  inboxKeys,
  preferencesQueryOptions,
  subscriptionsQueryOptions,
  DEFAULT_LIMIT,
} from './core/queries'
export type { CountData, CountKind, FeedFilters, QueryDeps } from './core/queries'
export type { FeedFilter } from './core/items'
export type { FeedData } from './core/lists'

/** What {@link prefetchInbox} loads. */
export interface PrefetchInboxOptions {
  /** Feed lists to load besides the counts. @default [{}] (the unfiltered feed, 20 a page) */
  feeds?: Partial<FeedFilters>[] | undefined
  /** Also load the unread and unseen counts. @default true */
  counts?: boolean | undefined
  /** Also load the preferences of these criticalities. @default [] */
  preferences?: Criticality[] | undefined
}

/**
 * Loads an inbox into a QueryClient on the server, for `dehydrate(queryClient)` and the provider's
 * `initialState`: the page renders with data and the browser asks for none of it again.
 *
 * @example
 * const queryClient = new QueryClient()
 * await prefetchInbox(queryClient, createInboxClient({ baseUrl, apiKey }), 'user-1')
 * // <InboxProvider subscriberId="user-1" initialState={dehydrate(queryClient)}>…
 */
export async function prefetchInbox(
  queryClient: QueryClient,
  client: SubscriberClient | InboxClient,
  subscriberId: string,
  options: PrefetchInboxOptions = {},
): Promise<void> {
  const { baseUrl, fetch } = client.options
  // Outside a page, fetch has nothing to resolve a relative address against: every request would fail, retried,
  // as "Could not reach the notification service", and the page would render with nothing prefetched.
  if (typeof location === 'undefined' && !fetch && !/^https?:\/\//i.test(baseUrl)) {
    throw new TypeError(
      `prefetchInbox needs a client with an absolute baseUrl on a server (the service's address, say ` +
        `process.env.INBOX_API_URL, with the API key); got ${JSON.stringify(baseUrl)}.`,
    )
  }
  const deps: QueryDeps = { client, subscriberId }
  const feeds = (options.feeds ?? [{}]).map((f) => feedQueryOptions(deps, f))
  const counts = options.counts === false ? [] : (['unread', 'unseen'] as const).map((k) => countQueryOptions(deps, k))
  const preferences = (options.preferences ?? []).map((c) => preferencesQueryOptions(deps, c))
  await Promise.all([
    ...feeds.map((o) => queryClient.prefetchInfiniteQuery(o)),
    ...counts.map((o) => queryClient.prefetchQuery(o)),
    ...preferences.map((o) => queryClient.prefetchQuery(o)),
  ])
  // React Query keeps a failed prefetch to itself: the server's log says it (once per kind of failure), as the page
  // renders without it and the browser asks for it again.
  for (const { queryKey } of [...feeds, ...counts, ...preferences]) {
    const error = queryClient.getQueryState(queryKey)?.error
    if (error)
      devWarn(
        `inbox-kit: prefetchInbox could not load ${JSON.stringify(queryKey.slice(2))} of subscriber "${subscriberId}" ` +
          `(${(error as { status?: number }).status ?? error.name}: ${error.message}); the page renders without it, ` +
          'and the browser asks for it.',
      )
  }
}
