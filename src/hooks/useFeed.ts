import { useInfiniteQuery } from '@tanstack/react-query'
import { useCallback, useMemo } from 'react'
import type { FeedItem, JsonObject } from '../api/types'
import { feedItems } from '../core/optimistic'
import { feedQueryOptions } from '../core/queries'
import { DEFAULT_FEED_LIMIT } from '../core/queryKeys'
import { useInboxContext } from './useInboxContext'

/** Options of {@link useFeed}. */
export interface UseFeedOptions<P extends JsonObject = JsonObject> {
  /** `false`: unread only; `true`: read only. @default undefined (both) */
  read?: boolean
  /** `false`: unseen only; `true`: seen only. @default undefined (both) */
  seen?: boolean
  /** Only items whose payload contains this (every leaf equal). */
  payload?: Partial<P> | JsonObject
  /** Items per page, 1–100. @default 20 */
  limit?: number
  /** `false` holds the request (the provider's `enabled` must be true as well). @default true */
  enabled?: boolean
}

/** What {@link useFeed} returns. */
export interface UseFeedResult<P extends JsonObject = JsonObject> {
  /** Items of the pages loaded so far, newest first, each once. */
  items: FeedItem<P>[]
  /** More items exist after the loaded pages. */
  hasMore: boolean
  /** Loads the next page (does nothing while one is loading or when there is none). */
  fetchNextPage: () => Promise<void>
  /** The first page is loading. */
  isLoading: boolean
  isFetchingNextPage: boolean
  /** Any request of this list is out (a poll included). */
  isFetching: boolean
  isError: boolean
  error: Error | null
  /** Loads the list again (every loaded page). */
  refetch: () => Promise<void>
  /** Items matching the filters, as the service counted them (when it says). */
  totalCount?: number
}

/**
 * One feed list: an infinite query over pages 0, 1, 2 … . Lists with the same filters share one
 * cache entry, and every list follows mark-as at once (an item marked read leaves an unread list).
 *
 * @example
 * const { items, hasMore, fetchNextPage, isLoading } = useFeed<{ orderId: string }>({ read: false })
 * @param name - The component or hook named in the error thrown outside `<InboxProvider>`. @default 'useFeed'
 */
export function useFeed<P extends JsonObject = JsonObject>(
  options: UseFeedOptions<P> = {},
  name = 'useFeed',
): UseFeedResult<P> {
  const { client, queryClient, subscriberId, enabled } = useInboxContext(name)
  const { read, seen, payload, limit = DEFAULT_FEED_LIMIT } = options
  const query = useInfiniteQuery(
    {
      ...feedQueryOptions<P>({ client, subscriberId }, { read, seen, payload: payload as JsonObject | undefined, limit }),
      enabled: enabled && options.enabled !== false,
    },
    queryClient,
  )
  const items = useMemo(() => feedItems(query.data), [query.data])
  const { hasNextPage, isFetchingNextPage, fetchNextPage: next, refetch: again } = query
  const fetchNextPage = useCallback(async () => {
    if (hasNextPage && !isFetchingNextPage) await next()
  }, [hasNextPage, isFetchingNextPage, next])
  const refetch = useCallback(async () => {
    await again()
  }, [again])
  const totalCount = query.data?.pages[0]?.totalCount
  return {
    items,
    hasMore: Boolean(hasNextPage),
    fetchNextPage,
    isLoading: query.isLoading,
    isFetchingNextPage,
    isFetching: query.isFetching,
    isError: query.isError,
    error: query.error,
    refetch,
    ...(totalCount !== undefined ? { totalCount } : {}),
  }
}
