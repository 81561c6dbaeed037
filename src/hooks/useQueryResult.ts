import type { UseQueryResult } from '@tanstack/react-query'
import { useCallback } from 'react'

/** The part of a query result the kit's read hooks return: data when there is some, and a void refetch. */
export function useQueryResult<T>(query: UseQueryResult<T, Error>): {
  data?: T
  isLoading: boolean
  error: Error | null
  refetch: () => Promise<void>
} {
  const { refetch: again } = query
  const refetch = useCallback(async () => {
    await again()
  }, [again])
  return {
    ...(query.data !== undefined ? { data: query.data } : {}),
    isLoading: query.isLoading,
    error: query.error,
    refetch,
  }
}
