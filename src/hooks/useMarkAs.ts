import { useMutation } from '@tanstack/react-query'
import { useCallback, useMemo } from 'react'
import type { MarkAs } from '../api/types'
import { markAsMutationOptions } from '../core/feedSync'
import { createIdempotencyKey } from '../core/idempotency'
import { useInboxContext } from './useInboxContext'

/** What {@link useMarkAs} returns. */
export interface UseMarkAsResult {
  /**
   * Marks items read, unread, seen or unseen. Every cached list and the counts change at once; a
   * failure puts them back exactly and sets `error`. Resolves when the service has answered; it does
   * not reject (read `error`).
   */
  markAs: (args: { ids: string | readonly string[]; markAs: MarkAs }) => Promise<void>
  /** The latest call is on its way. */
  isPending: boolean
  /** Why the latest call failed. */
  error: Error | null
  /** Clears `error`. */
  reset: () => void
}

/**
 * Marks notifications, optimistically. Calls on the same item reach the service in the order they
 * were made, so quick toggles end in the state of the last one; each call carries one idempotency key
 * through all its retries; other tabs of the subscriber follow without a request.
 *
 * @example
 * const { markAs } = useMarkAs()
 * <button onClick={() => markAs({ ids: item._id, markAs: item.read ? 'unread' : 'read' })}>…</button>
 * @param name - The component or hook named in the error thrown outside `<InboxProvider>`. @default 'useMarkAs'
 */
export function useMarkAs(name = 'useMarkAs'): UseMarkAsResult {
  const { client, queryClient, subscriberId, broadcast } = useInboxContext(name)
  const options = useMemo(
    () => markAsMutationOptions({ client, queryClient, subscriberId, broadcast }),
    [client, queryClient, subscriberId, broadcast],
  )
  const mutation = useMutation(options, queryClient)
  const { mutateAsync } = mutation
  const markAs = useCallback<UseMarkAsResult['markAs']>(
    async ({ ids, markAs }) => {
      try {
        await mutateAsync({ ids, markAs, idempotencyKey: createIdempotencyKey() })
      } catch {
        // Rolled back already; the error is in `error`.
      }
    },
    [mutateAsync],
  )
  return { markAs, isPending: mutation.isPending, error: mutation.error, reset: mutation.reset }
}
