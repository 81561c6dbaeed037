import { useInfiniteQuery } from '@tanstack/react-query'
import { useCallback, useMemo } from 'react'
import { useStore } from 'zustand'
import type { FeedItem, JsonObject } from '../api/types'
import type { Ledger } from '../core/ledger'
import { itemsOf, marked } from '../core/items'
import type { FeedData } from '../core/lists'
import { feedFilters, feedQueryOptions } from '../core/queries'
import { pageFn, withLedger } from '../core/reach'
import { useInboxScope } from '../provider/context'
import { useShown } from './useShown'

/** Options of {@link useFeed}. */
export interface UseFeedOptions<P extends object = JsonObject> {
  /** `false`: unread only; `true`: read only. @default undefined (both) */
  read?: boolean | undefined
  /** `false`: unseen only; `true`: seen only. @default undefined (both) */
  seen?: boolean | undefined
  /** Only items whose payload contains this (every leaf equal). */
  payload?: Partial<P> | JsonObject | undefined
  /** Items per page, 1–100. @default 20 */
  limit?: number | undefined
  /** `false` holds the request (the provider's `enabled` must be true as well). @default true */
  enabled?: boolean | undefined
}

/** What {@link useFeed} returns. */
export interface UseFeedResult<P extends object = JsonObject> {
  /** Items of the pages loaded so far, newest first, each once, with changes on their way applied. */
  items: FeedItem<P>[]
  /** More items exist after the loaded pages. */
  hasMore: boolean
  /** Loads the next page (does nothing while one is loading or when there is none). */
  fetchNextPage: () => Promise<void>
  /** The first page is loading. */
  isLoading: boolean
  isFetchingNextPage: boolean
  /** Any request of this list is out. */
  isFetching: boolean
  isError: boolean
  /**
   * Why the list (or its next page) could not be loaded, or why looking for news fails (the list shown
   * may then be out of date): an `ApiError` with the service's `status` and `message`, a `NetworkError`,
   * a `TimeoutError` or a `ResponseShapeError` (from `inbox-kit/client`).
   */
  error: Error | null
  /**
   * Loads the counts, every list and whatever failed again, shows them together, and ends any backoff.
   * Never rejects: when it fails, `error` says why.
   */
  refetch: () => Promise<void>
  /** Items matching the filters, as the service counted them (when it says). */
  totalCount?: number | undefined
}

/**
 * One feed list: an infinite query over pages 0, 1, 2 … . Lists with the same filters share one
 * cache entry, and every list follows a mark-as in the same render (an item marked read leaves an
 * unread list and the counts change with it).
 *
 * @example
 * const { items, hasMore, fetchNextPage, isLoading } = useFeed<{ orderId: string }>({ read: false })
 */
export function useFeed<P extends object = JsonObject>(options: UseFeedOptions<P> = {}): UseFeedResult<P> {
  const { sync, enabled } = useInboxScope('useFeed')
  const { read, seen, payload, limit } = options
  const key = JSON.stringify([read, seen, payload, limit])
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for the filters' content
  const f = useMemo(() => feedFilters({ read, seen, payload, limit }), [key])
  const query = useInfiniteQuery(
    {
      ...feedQueryOptions<P>(sync, f),
      queryFn: pageFn(sync, f) as never,
      enabled: enabled && options.enabled !== false,
    },
    sync.queryClient,
  )
  const writes = useStore(sync.store, (s) => s.writes)
  const trouble = useStore(sync.store, (s) => s.trouble)
  useShown(sync)
  // Writes on their way are laid over the list; with none (the ledger may not be loaded yet) it is as cached.
  const data = useMemo(
    () =>
      writes.length
        ? (sync.slots.ledger as Ledger).list(query.data as FeedData<P> | undefined, f, writes)
        : (query.data as FeedData<P> | undefined),
    [sync, query.data, f, writes],
  )
  const items = useMemo(() => itemsOf(data), [data])
  const { hasNextPage, isFetchingNextPage, fetchNextPage: next } = query
  const fetchNextPage = useCallback(async () => {
    if (hasNextPage && !isFetchingNextPage) await next()
  }, [hasNextPage, isFetchingNextPage, next])
  const refetch = useCallback(
    () =>
      withLedger(sync, (l) => l.retry()).catch((error: Error) => {
        sync.store.setState((s) => ({ trouble: { error, retryAt: s.trouble?.retryAt ?? null } }))
      }),
    [sync],
  )
  const totalCount = data?.pages[0]?.totalCount
  // A "mark all" on its way empties an unread (or unseen) list at the service too: there is no more to load.
  const emptied = writes.some((w) => {
    const after = !w.ids && marked({ read: false, seen: false }, w.markAs)
    return after && ((f.read === false && after.read) || (f.seen === false && after.seen))
  })
  return {
    items,
    hasMore: !!hasNextPage && !emptied,
    fetchNextPage,
    isLoading: query.isLoading,
    isFetchingNextPage,
    isFetching: query.isFetching,
    isError: query.isError,
    error: query.error ?? trouble?.error ?? null,
    refetch,
    ...(totalCount === undefined ? {} : { totalCount }),
  }
}
