import { useMutation } from '@tanstack/react-query'
import { useCallback, useMemo } from 'react'
import type { JsonObject, TriggerBody, TriggerResult } from '../api/types'
import { createIdempotencyKey } from '../core/idempotency'
import { triggerMutationOptions } from '../core/mutations'
import { useInboxContext } from './useInboxContext'

/** What {@link useTrigger} returns. */
export interface UseTriggerResult<P extends JsonObject = JsonObject> {
  /** Triggers a workflow; resolves with the result (`status` says whether it was processed), rejects on failure. */
  trigger: (body: TriggerBody<P>) => Promise<TriggerResult>
  /** The latest result. */
  data?: TriggerResult
  isPending: boolean
  error: Error | null
  reset: () => void
}

/**
 * Triggers a workflow. When the current subscriber may be a recipient (their id, a subscriber object
 * with it, a topic), the feed and the counts refresh once after the answer.
 *
 * @example
 * const { trigger } = useTrigger<{ orderId: string }>()
 * await trigger({ name: 'order-shipped', to: subscriberId, payload: { orderId: '42' } })
 * @param name - The component or hook named in the error thrown outside `<InboxProvider>`. @default 'useTrigger'
 */
export function useTrigger<P extends JsonObject = JsonObject>(name = 'useTrigger'): UseTriggerResult<P> {
  const { client, queryClient, subscriberId } = useInboxContext(name)
  const options = useMemo(
    () => triggerMutationOptions<P>({ client, queryClient, subscriberId }),
    [client, queryClient, subscriberId],
  )
  const mutation = useMutation(options, queryClient)
  const { mutateAsync } = mutation
  const trigger = useCallback(
    (body: TriggerBody<P>) => mutateAsync({ body, idempotencyKey: createIdempotencyKey() }),
    [mutateAsync],
  )
  return {
    trigger,
    ...(mutation.data !== undefined ? { data: mutation.data } : {}),
    isPending: mutation.isPending,
    error: mutation.error,
    reset: mutation.reset,
  }
}
