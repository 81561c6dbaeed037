import { useMutation } from '@tanstack/react-query'
import { useCallback, useMemo } from 'react'
import type { PrimaryIntegration } from '../api/types'
import { createIdempotencyKey } from '../core/idempotency'
import { setPrimaryMutationOptions } from '../core/mutations'
import { useInboxContext } from './useInboxContext'

/** What {@link useSetPrimaryIntegration} returns. */
export interface UseSetPrimaryIntegrationResult {
  /** Makes an email or sms integration primary; resolves with the service's answer, rejects on failure. */
  setPrimary: (integrationId: string) => Promise<PrimaryIntegration>
  isPending: boolean
  error: Error | null
  reset: () => void
}

/**
 * Sets the primary integration of a channel, optimistically: in the cached list the other primaries
 * of that channel and environment lose `primary` at once, and everything goes back on failure.
 *
 * @example
 * const { setPrimary } = useSetPrimaryIntegration()
 * <button onClick={() => setPrimary(integration._id!).catch(() => {})}>Make primary</button>
 * @param name - The component or hook named in the error thrown outside `<InboxProvider>`. @default 'useSetPrimaryIntegration'
 */
export function useSetPrimaryIntegration(name = 'useSetPrimaryIntegration'): UseSetPrimaryIntegrationResult {
  const { client, queryClient, subscriberId } = useInboxContext(name)
  const options = useMemo(
    () => setPrimaryMutationOptions({ client, queryClient, subscriberId }),
    [client, queryClient, subscriberId],
  )
  const mutation = useMutation(options, queryClient)
  const { mutateAsync } = mutation
  const setPrimary = useCallback(
    (integrationId: string) => mutateAsync({ integrationId, idempotencyKey: createIdempotencyKey() }),
    [mutateAsync],
  )
  return { setPrimary, isPending: mutation.isPending, error: mutation.error, reset: mutation.reset }
}
