/**
 * Query options of every subscriber read, built with React Query's own helpers. React-free and server-safe:
 * the hooks and `prefetchInbox` (inbox-kit/server) build on the same options, so data loaded on a server
 * lands on the keys the browser reads.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type {
  InfiniteData,
  OmitKeyof,
  QueryFunction,
  QueryKey,
  QueryKeyWithDataTag,
  UseInfiniteQueryOptions,
} from '@tanstack/react-query'
import type {
  Criticality,
  CursorPage,
  FeedPage,
  JsonObject,
  Preferences,
  SubscriberSubscriptionsParams,
  TopicSubscription,
} from '../api/types'
import {
  common,
  feedFilters,
  inboxKeys,
  readFeed,
  STALE_PAGES,
  unknownSubscriber,
  type FeedFilters,
  type InboxQueryOptions,
  type Key,
  type QueryDeps,
} from './keys'

export { countQueryOptions, DEFAULT_LIMIT, feedFilters, fetchCount, inboxKeys } from './keys'
export type { CountData, CountKind, FeedFilters, InboxQueryOptions, QueryDeps } from './keys'

/** What `feedQueryOptions` returns: React Query's `infiniteQueryOptions` type, spelled out likewise. */
export type InboxInfiniteQueryOptions<T, K extends QueryKey> = OmitKeyof<
  UseInfiniteQueryOptions<T, Error, InfiniteData<T>, K, number>,
  'queryFn'
> & { queryFn?: QueryFunction<T, K, number> | undefined } & QueryKeyWithDataTag<K, InfiniteData<T>, Error>

/** Per list of pages: how many pages at its end brought no item the pages before them did not. */
const staleEnd = new WeakMap<object, number>()

/** Options of one feed list: an infinite query over pages 0, 1, 2 … while `hasMore`. */
export function feedQueryOptions<P extends object = JsonObject>(
  deps: QueryDeps,
  filters?: Partial<FeedFilters>,
): InboxInfiniteQueryOptions<FeedPage<P>, Key<typeof inboxKeys.feed>> {
  const f = feedFilters(filters)
  return infiniteQueryOptions({
    ...common,
    queryKey: inboxKeys.feed(deps.subscriberId, f),
    queryFn: ({ pageParam }) => readFeed(deps, { ...f, page: pageParam }) as Promise<FeedPage<P>>,
    initialPageParam: 0,
    // More follow when the service says so, until STALE_PAGES pages in a row brought nothing new.
    // React Query asks on every render of the list: the pages are walked once per set of pages, not per render.
    getNextPageParam: (last: FeedPage<P>, all: FeedPage<P>[], param: number) => {
      let stale = staleEnd.get(all)
      if (stale === undefined) {
        const seen = new Set<string>()
        stale = 0
        for (const page of all) {
          const before = seen.size
          for (const item of page.data) seen.add(item._id)
          stale = seen.size > before ? 0 : stale + 1
        }
        staleEnd.set(all, stale)
      }
      return last.hasMore && stale < STALE_PAGES ? param + 1 : undefined
    },
  })
}

/** Options of the preferences of one criticality. */
export function preferencesQueryOptions(
  deps: QueryDeps,
  criticality: Criticality = 'nonCritical',
): InboxQueryOptions<Preferences, Key<typeof inboxKeys.preferences>> {
  return queryOptions({
    ...common,
    queryKey: inboxKeys.preferences(deps.subscriberId, criticality),
    queryFn: () => deps.client.getPreferences(deps.subscriberId, { criticality }),
  })
}

/** Options of one page of the subscriber's topic subscriptions. */
export function subscriptionsQueryOptions(
  deps: QueryDeps,
  params: SubscriberSubscriptionsParams = {},
): InboxQueryOptions<CursorPage<TopicSubscription>, Key<typeof inboxKeys.subscriptions>> {
  return queryOptions({
    ...common,
    queryKey: inboxKeys.subscriptions(deps.subscriberId, params),
    // A subscriber the service does not know yet is subscribed to nothing.
    queryFn: () =>
      deps.client
        .listSubscriberSubscriptions(deps.subscriberId, params)
        .catch((error: Error): CursorPage<TopicSubscription> => {
          if (unknownSubscriber(error)) return { data: [], next: null, previous: null }
          throw error
        }),
  })
}
