import { useInfiniteQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { feedCount } from '../core/optimistic'
import { countQueryOptions } from '../core/queries'
import { useInboxContext } from './useInboxContext'

/** Options of {@link useCounts}: which counts to load (each costs one request). */
export interface UseCountsOptions {
  /** @default true */
  unread?: boolean
  /** @default true */
  unseen?: boolean
}

/** What {@link useCounts} returns. */
export interface UseCountsResult {
  /** Unread items (up to 100 are counted; see `unreadCapped`). */
  unread: number
  unseen: number
  /** More than 99 unread exist: show "99+". */
  unreadCapped: boolean
  unseenCapped: boolean
  isLoading: boolean
  error: Error | null
}

/**
 * The unread and unseen counts. Each is the feed filtered by `read=false` (`seen=false`) with limit
 * 100: the same cache entry as such a list, so a badge and a list can never disagree, and a mark-as
 * moves both in the same render.
 *
 * @example
 * const { unseen, unseenCapped } = useCounts({ unread: false })
 * return <span aria-hidden>{unseenCapped ? '99+' : unseen}</span>
 * @param name - The component or hook named in the error thrown outside `<InboxProvider>`. @default 'useCounts'
 */
export function useCounts(options: UseCountsOptions = {}, name = 'useCounts'): UseCountsResult {
  const { client, queryClient, subscriberId, enabled } = useInboxContext(name)
  const deps = { client, subscriberId }
  const unread = useInfiniteQuery(
    { ...countQueryOptions(deps, 'unread'), enabled: enabled && options.unread !== false },
    queryClient,
  )
  const unseen = useInfiniteQuery(
    { ...countQueryOptions(deps, 'unseen'), enabled: enabled && options.unseen !== false },
    queryClient,
  )
  const u = useMemo(() => feedCount(unread.data), [unread.data])
  const s = useMemo(() => feedCount(unseen.data), [unseen.data])
  return {
    unread: u.count,
    unseen: s.count,
    unreadCapped: u.capped,
    unseenCapped: s.capped,
    isLoading: unread.isLoading || unseen.isLoading,
    error: unread.error ?? unseen.error,
  }
}
