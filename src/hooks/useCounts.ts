import { useQuery } from '@tanstack/react-query'
import { useStore } from 'zustand'
import { countQueryOptions, type CountKind } from '../core/queries'
import { useInboxScope } from '../provider/context'

/** Options of {@link useCounts}: which counts to load (each costs one small request). */
export interface UseCountsOptions {
  /** @default true */
  unread?: boolean
  /** @default true */
  unseen?: boolean
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

/**
 * The unread and unseen counts. A mark-as changes them in the same render as the lists; new
 * notifications arrive through the provider's polling.
 *
 * @example
 * const { unseen } = useCounts({ unread: false })
 * return <span aria-hidden>{unseen > 99 ? '99+' : unseen}</span>
 */
export function useCounts(options: UseCountsOptions = {}): UseCountsResult {
  const { sync, enabled } = useInboxScope('useCounts')
  const writes = useStore(sync.store, (s) => s.writes)
  const trouble = useStore(sync.store, (s) => s.trouble)
  const read = (kind: CountKind) =>
    // eslint-disable-next-line react-hooks/rules-of-hooks -- called twice, in the same order, on every render
    useQuery(
      { ...countQueryOptions(sync, kind), queryFn: sync.countFn(kind), enabled: enabled && options[kind] !== false },
      sync.queryClient,
    )
  const unread = read('unread')
  const unseen = read('unseen')
  const u = sync.count(unread.data, 'unread', writes)
  const s = sync.count(unseen.data, 'unseen', writes)
  return {
    unread: u?.count ?? 0,
    unseen: s?.count ?? 0,
    unreadCapped: !!u?.capped,
    unseenCapped: !!s?.capped,
    isLoading: unread.isLoading || unseen.isLoading,
    error: unread.error ?? unseen.error ?? trouble?.error ?? null,
  }
}
