import { useQuery } from '@tanstack/react-query'
import { useStore } from 'zustand'
import { countQueryOptions, type CountKind } from '../core/keys'
import { useInboxScope } from '../provider/context'
import { useShown } from './useShown'

/** Options of {@link useCounts}: which counts to load (each costs one small request). */
export interface UseCountsOptions {
  /** @default true */
  unread?: boolean | undefined
  /** @default true */
  unseen?: boolean | undefined
}

/** What {@link useCounts} returns. */
export interface UseCountsResult {
  /** Unread items. Exact when the service sends `totalCount`; else at most 100 (see `unreadCapped`). */
  unread: number
  unseen: number
  /** More exist than counted (only from a service without `totalCount`). Badges show "99+" above 99 either way. */
  unreadCapped: boolean
  unseenCapped: boolean
  isLoading: boolean
  /** Why the counts could not be read, or why looking for news fails (the counts may be out of date). */
  error: Error | null
}

/** One count as shown (the cached one with the writes on their way laid over it), and its state. */
export function useCount(kind: CountKind, enabled = true) {
  const { sync, enabled: active } = useInboxScope('useCounts')
  const writes = useStore(sync.store, (s) => s.writes)
  const trouble = useStore(sync.store, (s) => s.trouble)
  useShown(sync)
  const query = useQuery(
    { ...countQueryOptions(sync, kind), queryFn: sync.countFn(kind), enabled: active && enabled },
    sync.queryClient,
  )
  const data = sync.count(query.data, kind, writes)
  return {
    count: data?.count ?? 0,
    capped: !!data?.capped,
    isLoading: query.isLoading,
    error: query.error ?? trouble?.error ?? null,
  }
}

/**
 * The unread and unseen counts. A mark-as changes them in the same render as the lists; new
 * notifications arrive through the provider's polling.
 *
 * @example
 * const { unseen } = useCounts({ unread: false })
 * return <span aria-hidden>{unseen > 99 ? '99+' : unseen}</span>
 */
export function useCounts(options: UseCountsOptions = {}): UseCountsResult {
  const unread = useCount('unread', options.unread !== false)
  const unseen = useCount('unseen', options.unseen !== false)
  return {
    unread: unread.count,
    unseen: unseen.count,
    unreadCapped: unread.capped,
    unseenCapped: unseen.capped,
    isLoading: unread.isLoading || unseen.isLoading,
    error: unread.error ?? unseen.error,
  }
}
