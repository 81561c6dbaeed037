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
  /** The current page (the previous one stays while the next loads). */
  items: T[]
  hasNext: boolean
  hasPrevious: boolean
  /** To the page after this one. */
  next: () => void
  /** To the page before this one. */
  previous: () => void
  /** Back to the first page. */
  first: () => void
  isLoading: boolean
  /** A page is loading (the first one or another). */
  isFetching: boolean
  error: Error | null
  /** All matching items, where the API counts them (topic lists). */
  totalCount?: number | undefined
  /** `totalCount` stopped counting at its cap. */
  totalCountCapped?: boolean | undefined
}

/**
 * The paging of a cursor list: `after` the page's `next`, `before` its `previous`, back to the first
 * page whenever `resetKey` changes (another subscriber, filter or page size).
 */
export function useCursorList<T, Page extends CursorPage<T>>(
  resetKey: string,
  options: (position: CursorPosition) => { queryKey: QueryKey; queryFn?: unknown },
  enabled: boolean,
  queryClient: QueryClient,
): { page: Page | undefined; result: CursorListResult<T> } {
  const [state, setState] = useState<{ key: string; position: CursorPosition }>({ key: resetKey, position: {} })
  const same = state.key === resetKey
  const position = same ? state.position : {}
  const query = useQuery(
    // The page before stays while the next of the same list loads; never that of another subscriber or filter.
    { ...(options(position) as UseQueryOptions<Page>), placeholderData: same ? keepPreviousData : undefined, enabled },
    queryClient,
  )
  const page = query.data
  const nextCursor = page?.next ?? null
  const previousCursor = page?.previous ?? null
  const next = useCallback(() => {
    if (nextCursor) setState({ key: resetKey, position: { after: nextCursor } })
  }, [nextCursor, resetKey])
  const previous = useCallback(() => {
    if (previousCursor) setState({ key: resetKey, position: { before: previousCursor } })
  }, [previousCursor, resetKey])
  const first = useCallback(() => setState({ key: resetKey, position: {} }), [resetKey])
  return {
    page,
    result: {
      items: page?.data ?? [],
      hasNext: nextCursor !== null,
      hasPrevious: previousCursor !== null,
      next,
      previous,
      first,
      isLoading: query.isLoading,
      isFetching: query.isFetching,
      error: query.error,
    },
  }
}
