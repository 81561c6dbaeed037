import {
  keepPreviousData,
  useQuery,
  type QueryClient,
  type QueryKey,
  type UseQueryOptions,
} from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import type { CursorPage } from '../api/types'

/** Where a cursor list stands. */
export interface CursorPosition {
  after?: string | undefined
  before?: string | undefined
}

/** A page of a cursor-paginated list with moves both ways. */
export interface CursorListResult<T> {
  /**
   * The current page. The page before stays while the next loads, and when the next fails to load (with
   * `error` saying why), so that the moves from it stay usable.
   */
  items: T[]
  hasNext: boolean
  hasPrevious: boolean
  /** To the page after this one: after a `next()` that failed, it tries that page again. */
  next: () => void
  /** To the page before this one: after a `previous()` that failed, it tries that page again. */
  previous: () => void
  /** Back to the first page (tried again after a `first()` that failed). */
  first: () => void
  /**
   * Loads the page again: the one that failed to load, or the one shown. Never rejects: when it fails, `error`
   * says why.
   */
  refetch: () => Promise<void>
  isLoading: boolean
  /** A page is loading (the first one or another). */
  isFetching: boolean
  /**
   * Why the page asked for last could not be loaded: an `ApiError`, a `NetworkError`, a `TimeoutError` or a
   * `ResponseShapeError` (from `inbox-kit/client`). `items` are then those of the page before, if any.
   */
  error: Error | null
  /** All matching items, where the API counts them (topic lists). */
  totalCount?: number | undefined
  /** `totalCount` stopped counting at its cap. */
  totalCountCapped?: boolean | undefined
}

const START: CursorPosition = {}
const samePosition = (a: CursorPosition, b: CursorPosition) => a.after === b.after && a.before === b.before

/**
 * The paging of a cursor list: `after` the page's `next`, `before` its `previous`, back to the first
 * page whenever `resetKey` changes (another subscriber, filter or page size). A move that fails leaves the
 * page it started from in view, with its moves, so that the reader can go back or try again.
 */
export function useCursorList<T, Page extends CursorPage<T>>(
  resetKey: string,
  options: (position: CursorPosition) => { queryKey: QueryKey; queryFn?: unknown },
  enabled: boolean,
  queryClient: QueryClient,
): { page: Page | undefined; result: CursorListResult<T> } {
  // `from`: where the reader was when they moved to `position`, the page kept in view until that one loads.
  const [state, setState] = useState<{ key: string; position: CursorPosition; from?: CursorPosition | undefined }>({
    key: resetKey,
    position: START,
  })
  const same = state.key === resetKey
  const position = same ? state.position : START
  const from = same ? state.from : undefined
  const query = useQuery(
    // The page before stays while the next of the same list loads; never that of another subscriber or filter.
    { ...(options(position) as UseQueryOptions<Page>), placeholderData: same ? keepPreviousData : undefined, enabled },
    queryClient,
  )
  // Holds the page moved from in the cache (an observer that never fetches), to show it again if the move fails.
  const before = useQuery({ ...(options(from ?? position) as UseQueryOptions<Page>), enabled: false }, queryClient)
  const failed = query.isError && !query.data && from !== undefined && before.data !== undefined
  const page = failed ? before.data : query.data
  const shown = (failed || query.isPlaceholderData) && from ? from : position
  const nextCursor = page?.next ?? null
  const previousCursor = page?.previous ?? null
  const { isError, refetch: again } = query
  const refetch = useCallback(() => (enabled ? again().then(() => {}) : Promise.resolve()), [again, enabled])
  const move = useCallback(
    (to: CursorPosition) => {
      // The move that failed, asked for again: its page is loaded again.
      if (samePosition(to, position)) {
        if (isError) void refetch()
      } else setState({ key: resetKey, position: to, from: shown })
    },
    [isError, position, refetch, resetKey, shown],
  )
  const next = useCallback(() => {
    if (nextCursor) move({ after: nextCursor })
  }, [move, nextCursor])
  const previous = useCallback(() => {
    if (previousCursor) move({ before: previousCursor })
  }, [move, previousCursor])
  const first = useCallback(() => move(START), [move])
  return {
    page,
    result: {
      items: page?.data ?? [],
      hasNext: nextCursor !== null,
      hasPrevious: previousCursor !== null,
      next,
      previous,
      first,
      refetch,
      isLoading: query.isLoading,
      isFetching: query.isFetching,
      error: query.error,
    },
  }
}
