/**
 * Query keys, and the counts' reads and options: what the bell needs from its first render. React-free and
 * server-safe. The lists' and preferences' options are in queries.ts.
 */
import { queryOptions } from '@tanstack/react-query'
import type { OmitKeyof, QueryFunction, QueryKey, QueryKeyWithDataTag, UseQueryOptions } from '@tanstack/react-query'
import type { Criticality, FeedPage, FeedParams, InboxClient, JsonObject, RequestOptions } from '../api/types'
import type { FeedFilter } from './items'

/**
 * Pages in a row that bring no item the pages before them did not, after which paging ends though the service
 * says more follow: one that ignores `page` is not asked for ever, while a page of news that came between two
 * reads (pushing the next page's items down onto it) is not taken for the end.
 */
export const STALE_PAGES = 3

/** The filters of one feed list and its page size (1–100). Lists with equal filters share one cache entry. */
export interface FeedFilters extends FeedFilter {
  limit: number
}

/** The count kinds: unread (`read=false`) and unseen (`seen=false`) items. */
export type CountKind = 'unread' | 'unseen'

/** A count as cached. */
export interface CountData {
  /** Items counted. Exact when the service sends `totalCount`; else at most 100 (see `capped`). */
  count: number
  /** More exist than `count` (only when the service does not send `totalCount`). */
  capped: boolean
  /** Changes whenever the service's answer does (a new item, another device's change). */
  sig: string
  /**
   * When the newest item counted was created; null when none was; absent when unknown (the count was changed
   * by a write since). A list showing a newer item of the count's kind was read after the count.
   */
  newest?: string | null | undefined
}

/** What the option builders need. */
export interface QueryDeps {
  client: Pick<InboxClient, 'getFeed' | 'getPreferences' | 'listSubscriberSubscriptions'>
  subscriberId: string
}

/**
 * Warns once per message. Callers call it only under `process.env.NODE_ENV !== 'production'`, inside a `try` (see
 * `readFeed`): bundlers write the mode in, so that a production build drops the call and its message; unbundled,
 * there is no `process`, and no warning.
 */
export function devWarn(message: string): void {
  if (said.has(message)) return
  said.add(message)
  console.warn(message)
}
const said = new Set<string>()

/** A 404 saying the service has no such subscriber (not one of a missing route). */
export const unknownSubscriber = (error: unknown): boolean =>
  (error as { status?: number } | null)?.status === 404 && /^subscriber\b.*not found/i.test((error as Error).message)

/**
 * A page of the feed; for a subscriber the service does not know yet (no notification was ever sent to them: it
 * answers 404 "Subscriber … not found"), an empty one, as their inbox is. A 404 of a missing route (a wrong
 * `baseUrl`) stays an error. In development, says so.
 */
export function readFeed(deps: QueryDeps, params: FeedParams, opts?: RequestOptions): Promise<FeedPage> {
  return deps.client.getFeed(deps.subscriberId, params, opts).catch((error: Error) => {
    if (!unknownSubscriber(error)) throw error
    try {
      if (process.env.NODE_ENV !== 'production')
        devWarn(
          `inbox-kit: subscriber "${deps.subscriberId}" does not exist on the service yet, so the inbox shows it empty until its first notification; if it should exist, check \`subscriberId\`.`,
        )
    } catch {
      // Unbundled: no development warnings.
    }
    return { data: [], hasMore: false, page: params.page ?? 0, pageSize: params.limit ?? 10, totalCount: 0 }
  })
}

/** Page size of a feed list when none is given. */
export const DEFAULT_LIMIT = 20

/** Filters with the default page size and absent keys left out, so that equal lists get equal keys. */
export function feedFilters(f: Partial<FeedFilters> = {}): FeedFilters {
  const out: FeedFilters = { limit: f.limit ?? DEFAULT_LIMIT }
  if (typeof f.read === 'boolean') out.read = f.read
  if (typeof f.seen === 'boolean') out.seen = f.seen
  // The payload as it is sent: JSON drops a leaf left `undefined` (`{ team: undefined }`, an "all teams" tab),
  // so the service matches every item, and so must the lists here when they take in a change.
  const payload = f.payload && (JSON.parse(JSON.stringify(f.payload)) as JsonObject)
  if (payload && Object.keys(payload).length) out.payload = payload
  return out
}

/** The filter a count reads. */
export const countFilter = (kind: CountKind): FeedFilter => (kind === 'unread' ? { read: false } : { seen: false })

/**
 * Every query key of the kit. All start `['inbox', subscriberId]`, so that one subscriber's cache
 * can be dropped, cancelled or refetched as a whole.
 */
export const inboxKeys = {
  all: (subscriberId: string) => ['inbox', subscriberId] as const,
  /** Every feed list of a subscriber, whatever its filters. */
  feeds: (subscriberId: string) => ['inbox', subscriberId, 'feed'] as const,
  feed: (subscriberId: string, filters?: Partial<FeedFilters>) =>
    ['inbox', subscriberId, 'feed', feedFilters(filters)] as const,
  count: (subscriberId: string, kind: CountKind) => ['inbox', subscriberId, 'count', kind] as const,
  preferences: (subscriberId: string, criticality: Criticality = 'nonCritical') =>
    ['inbox', subscriberId, 'preferences', criticality] as const,
  subscriptions: (subscriberId: string, params: object = {}) =>
    ['inbox', subscriberId, 'subscriptions', params] as const,
}

/**
 * What the option factories return: React Query's `queryOptions` type, spelled out through
 * `@tanstack/react-query` so that the published types name no package an app may not have installed
 * (its core, under pnpm's strict layout).
 */
export type InboxQueryOptions<T, K extends QueryKey> = OmitKeyof<UseQueryOptions<T, Error, T, K>, 'queryFn'> & {
  queryFn?: QueryFunction<T, K, never> | undefined
} & QueryKeyWithDataTag<K, T, Error>

export type Key<F extends (...args: never[]) => QueryKey> = ReturnType<F>

// Polling and the provider decide when to look again: nothing refetches on its own. The queryFns leave
// React Query's signal alone: a read outlives an unmount (StrictMode's included) and is cached, instead
// of being cancelled and asked again.
export const common = { staleTime: Infinity, retry: false } as const

/**
 * Whether a count read for a look differs from the cached one: by its number, or by its signature where the
 * cached one's is known (a count changed by a write has none until read again). The live loop's looks of the
 * bell alone (src/core/live.ts) and the ledger's (src/core/fold.ts) tell news so.
 */
export const countChanged = (old: CountData | undefined, c: CountData): boolean =>
  !old || c.count !== old.count || c.capped !== old.capped || (old.sig !== '' && c.sig !== old.sig)

/**
 * Reads a count: one `limit=1` page and its `totalCount`; from a service that leaves `totalCount`
 * out, a page of up to 100 items (so "99+" can be told from 99). `method` remembers which works.
 */
export async function fetchCount(
  deps: QueryDeps,
  kind: CountKind,
  method: { total?: boolean } = {},
  opts?: { retry?: false },
): Promise<CountData> {
  const read = (limit: number) => readFeed(deps, { ...countFilter(kind), limit }, opts)
  const newest = (page: FeedPage) => (page.data.length ? page.data[0]!.createdAt : null)
  if (method.total !== false) {
    const page = await read(1)
    method.total = typeof page.totalCount === 'number'
    if (method.total)
      return {
        // A whole number of items, whatever a misbehaving service says ("2.5 unread", a request for 0.5 arrivals).
        count: Math.max(0, Math.floor(page.totalCount!)),
        capped: false,
        sig: `${page.totalCount} ${page.data[0]?._id}`,
        newest: newest(page),
      }
  }
  const page = await read(100)
  return {
    count: page.data.length,
    capped: page.hasMore,
    sig: page.data.map((i) => i._id).join() + page.hasMore,
    newest: newest(page),
  }
}

/** Options of the unread or unseen count. */
export function countQueryOptions(
  deps: QueryDeps,
  kind: CountKind,
): InboxQueryOptions<CountData, Key<typeof inboxKeys.count>> {
  return queryOptions({
    ...common,
    queryKey: inboxKeys.count(deps.subscriberId, kind),
    queryFn: () => fetchCount(deps, kind),
  })
}
