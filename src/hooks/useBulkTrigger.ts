import { useMutation } from '@tanstack/react-query'
import { useCallback, useMemo } from 'react'
import type { BulkTriggerBody, JsonObject, TriggerResult } from '../api/types'
import { createIdempotencyKey } from '../core/idempotency'
import { bulkTriggerMutationOptions } from '../core/mutations'
import { useInboxContext } from './useInboxContext'

/** What {@link useBulkTrigger} returns. */
export interface UseBulkTriggerResult<P extends JsonObject = JsonObject> {
  /** Triggers 1–100 events; resolves with one result per event in order, rejects when the request fails. */
  bulkTrigger: (body: BulkTriggerBody<P>) => Promise<TriggerResult[]>
  /** The latest results. */
  data?: TriggerResult[]
  isPending: boolean
  error: Error | null
  reset: () => void
}

/**
 * Triggers several events in one request. One event's failure does not stop the others (see each
 * result's `status`); the feed and counts refresh once if any event may reach the current subscriber.
 *
 * @example
 * const { bulkTrigger } = useBulkTrigger()
 * const results = await bulkTrigger({ events: ids.map((to) => ({ name: 'digest', to })) })
 * @param name - The component or hook named in the error thrown outside `<InboxProvider>`. @default 'useBulkTrigger'
 */
export function useBulkTrigger<P extends JsonObject = JsonObject>(name = 'useBulkTrigger'): UseBulkTriggerResult<P> {
  const { client, queryClient, subscriberId } = useInboxContext(name)
  const options = useMemo(
    () => bulkTriggerMutationOptions<P>({ client, queryClient, subscriberId }),
    [client, queryClient, subscriberId],
  )
  const mutation = useMutation(options, queryClient)
  const { mutateAsync } = mutation
  const bulkTrigger = useCallback(
    (body: BulkTriggerBody<P>) => mutateAsync({ body, idempotencyKey: createIdempotencyKey() }),
    [mutateAsync],
  )
  return {
    bulkTrigger,
    ...(mutation.data !== undefined ? { data: mutation.data } : {}),
    isPending: mutation.isPending,
    error: mutation.error,
    reset: mutation.reset,
  }
}
