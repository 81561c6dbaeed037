/**
 * Query options of every read, built from the client and the subscriber. The hooks and the server
 * helper {@link prefetchInbox} use the same builders, so hydrated data lands on the keys the hooks read.
 */
import type { InfiniteData, QueryClient } from '@tanstack/react-query'
import type {
  CountedCursorPage,
  Criticality,
  CursorPage,
  FeedPage,
  InboxClient,
  Integration,
  JsonObject,
  Preferences,
  TopicSubscription,
} from '../api/types'
import { fetchFeedPage } from './feedSync'
import { COUNT_FILTERS, inboxKeys, normalizeFeedFilters, type CursorPosition, type FeedFilters } from './queryKeys'

/** Default of `pollInterval` and of how long fetched data counts as fresh, in ms. */
export const DEFAULT_POLL_INTERVAL = 30_000

/** What every query builder needs. */
export interface QueryDeps {
  client: InboxClient
  subscriberId: string
  /** How long data counts as fresh (no refetch on mount). @default 30000 */
  staleTime?: number
}

// The client retries reads itself; focus and reconnect are handled by the provider's poller.
const common = { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false } as const

/** Options of one feed list: an infinite query over pages 0, 1, 2 … while `hasMore`. */
export function feedQueryOptions<P extends JsonObject = JsonObject>(
  deps: QueryDeps,
  filters: Partial<FeedFilters> = {},
) {
  const f = normalizeFeedFilters(filters)
  return {
    ...common,
    queryKey: inboxKeys.feed(deps.subscriberId, f),
    queryFn: ({ pageParam, signal, client }: { pageParam: number; signal: AbortSignal; client: QueryClient }) =>
      fetchFeedPage<P>({ client: deps.client, queryClient: client, subscriberId: deps.subscriberId }, f, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last: FeedPage<P>, _all: FeedPage<P>[], lastParam: number) =>
      last.hasMore ? lastParam + 1 : undefined,
    staleTime: deps.staleTime ?? DEFAULT_POLL_INTERVAL,
  }
}

/** Options of the unread or unseen count: the feed filtered by `read=false` / `seen=false`, limit 100. */
export function countQueryOptions(deps: QueryDeps, kind: 'unread' | 'unseen') {
  return feedQueryOptions(deps, COUNT_FILTERS[kind])
}

/** Options of the preferences of one criticality. */
export function preferencesQueryOptions(deps: QueryDeps, criticality: Criticality = 'nonCritical') {
  return {
    ...common,
    queryKey: inboxKeys.preferences(deps.subscriberId, criticality),
    queryFn: ({ signal }: { signal: AbortSignal }): Promise<Preferences> =>
      deps.client.getPreferences(deps.subscriberId, { criticality }, { signal }),
    staleTime: deps.staleTime ?? DEFAULT_POLL_INTERVAL,
  }
}

/** Options of one page of the subscriber's topic subscriptions. */
export function subscriberSubscriptionsQueryOptions(
  deps: QueryDeps,
  params: { key?: string; limit?: number } & CursorPosition,
) {
  return {
    ...common,
    queryKey: inboxKeys.subscriberSubscriptions(deps.subscriberId, params),
    queryFn: ({ signal }: { signal: AbortSignal }): Promise<CursorPage<TopicSubscription>> =>
      deps.client.listSubscriberSubscriptions(deps.subscriberId, params, { signal }),
    staleTime: deps.staleTime ?? DEFAULT_POLL_INTERVAL,
  }
}

/** Options of one page of a topic's subscriptions. */
export function topicSubscriptionsQueryOptions(
  deps: QueryDeps,
  topicKey: string,
  params: { subscriberId?: string; limit?: number } & CursorPosition,
) {
  return {
    ...common,
    queryKey: inboxKeys.topicSubscriptions(deps.subscriberId, topicKey, params),
    queryFn: ({ signal }: { signal: AbortSignal }): Promise<CountedCursorPage<TopicSubscription>> =>
      deps.client.listTopicSubscriptions(topicKey, params, { signal }),
    staleTime: deps.staleTime ?? DEFAULT_POLL_INTERVAL,
  }
}

/** Options of the organization's active integrations. */
export function activeIntegrationsQueryOptions(deps: QueryDeps) {
  return {
    ...common,
    queryKey: inboxKeys.activeIntegrations(deps.subscriberId),
    queryFn: ({ signal }: { signal: AbortSignal }): Promise<Integration[]> =>
      deps.client.listActiveIntegrations({ signal }),
    staleTime: deps.staleTime ?? DEFAULT_POLL_INTERVAL,
  }
}

/** What {@link prefetchInbox} loads. */
export interface PrefetchInboxOptions {
  /** Feed lists to load besides the counts. @default [{}] (the unfiltered feed) */
  feeds?: Partial<FeedFilters>[]
  /** Also load the unread and unseen counts. @default true */
  counts?: boolean
  /** Also load the preferences of these criticalities. @default [] */
  preferences?: Criticality[]
}

/**
 * Loads the inbox into a QueryClient on the server, for `dehydrate(queryClient)` and the provider's
 * `initialState`: the page then renders with data and the browser asks for none of it again.
 *
 * @example
 * const queryClient = new QueryClient()
 * await prefetchInbox(queryClient, createInboxClient({ baseUrl, apiKey }), 'user-1')
 * const initialState = dehydrate(queryClient)
 * // <InboxProvider subscriberId="user-1" initialState={initialState}>…
 */
export async function prefetchInbox(
  queryClient: QueryClient,
  client: InboxClient,
  subscriberId: string,
  options: PrefetchInboxOptions = {},
): Promise<void> {
  const deps: QueryDeps = { client, subscriberId }
  const feeds = options.feeds ?? [{}]
  const lists = [...feeds, ...(options.counts === false ? [] : [COUNT_FILTERS.unread, COUNT_FILTERS.unseen])]
  await Promise.all([
    ...lists.map((filters) => queryClient.prefetchInfiniteQuery(feedQueryOptions(deps, filters))),
    ...(options.preferences ?? []).map((c) => queryClient.prefetchQuery(preferencesQueryOptions(deps, c))),
  ])
}

/** The cached data of a feed list. */
export type FeedQueryData<P extends JsonObject = JsonObject> = InfiniteData<FeedPage<P>, unknown>
