import { useMutation } from '@tanstack/react-query'
import { useCallback, useMemo } from 'react'
import { markAllMutationOptions } from '../core/feedSync'
import { createIdempotencyKey } from '../core/idempotency'
import { useInboxContext } from './useInboxContext'

/** What {@link useMarkAll} returns. */
export interface UseMarkAllResult {
  /** Marks everything; resolves when done, does not reject (read `error`). */
  markAll: () => Promise<void>
  isPending: boolean
  error: Error | null
  reset: () => void
}

/**
 * "Mark all as read" (or seen). What is loaded changes at once (unread lists and the count empty);
 * then it pages through the unread (unseen) feed 100 at a time and marks the ids in batches of at
 * most 100. `read` leaves everything read and seen (so both badges clear); `seen` leaves read alone.
 * On failure the loaded lists go back and are refetched, since some batches may have landed.
 *
 * @param kind - @default 'read'
 * @example
 * const { markAll, isPending } = useMarkAll('read')
 * <button onClick={markAll} disabled={isPending}>Mark all as read</button>
 * @param name - The component or hook named in the error thrown outside `<InboxProvider>`. @default 'useMarkAll'
 */
export function useMarkAll(kind: 'read' | 'seen' = 'read', name = 'useMarkAll'): UseMarkAllResult {
  const { client, queryClient, subscriberId, broadcast } = useInboxContext(name)
  const options = useMemo(
    () => markAllMutationOptions({ client, queryClient, subscriberId, broadcast }, kind),
    [client, queryClient, subscriberId, broadcast, kind],
  )
  const mutation = useMutation(options, queryClient)
  const { mutateAsync } = mutation
  const markAll = useCallback(async () => {
    try {
      await mutateAsync({ idempotencyKey: createIdempotencyKey() })
    } catch {
      // Rolled back already; the error is in `error`.
    }
  }, [mutateAsync])
  return { markAll, isPending: mutation.isPending, error: mutation.error, reset: mutation.reset }
}
