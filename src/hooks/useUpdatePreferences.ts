import { useMutation } from '@tanstack/react-query'
import { useCallback, useMemo } from 'react'
import type { UpdatePreferencesBody } from '../api/types'
import { createIdempotencyKey } from '../core/idempotency'
import { updatePreferencesMutationOptions } from '../core/preferencesSync'
import { useInboxContext } from './useInboxContext'
import { usePreferencesReadOnly } from './usePreferencesReadOnly'

/** What {@link useUpdatePreferences} returns. */
export interface UseUpdatePreferencesResult {
  /**
   * Changes global (no `workflowId`) or one workflow's channels, or the schedule. Shows at once, goes
   * back on failure; resolves when answered and does not reject (read `error`). Does nothing when `readOnly`.
   */
  update: (body: UpdatePreferencesBody) => Promise<void>
  isPending: boolean
  error: Error | null
  /** The service has no update route: toggles should be disabled. */
  readOnly: boolean
  reset: () => void
}

/**
 * Updates preferences optimistically. Updates run one after another, so the last toggle wins; other
 * tabs follow without a request. A 404/405 for the route makes every preferences hook of this
 * client read-only.
 *
 * @example
 * const { update, readOnly } = useUpdatePreferences()
 * <input type="checkbox" role="switch" disabled={readOnly} checked={email}
 *   onChange={(e) => update({ channels: { email: e.target.checked } })} />
 * @param name - The component or hook named in the error thrown outside `<InboxProvider>`. @default 'useUpdatePreferences'
 */
export function useUpdatePreferences(name = 'useUpdatePreferences'): UseUpdatePreferencesResult {
  const { client, queryClient, subscriberId, broadcast } = useInboxContext(name)
  const options = useMemo(
    () => updatePreferencesMutationOptions({ client, queryClient, subscriberId, broadcast }),
    [client, queryClient, subscriberId, broadcast],
  )
  const mutation = useMutation(options, queryClient)
  const readOnly = usePreferencesReadOnly(client)
  const { mutateAsync } = mutation
  const update = useCallback(
    async (body: UpdatePreferencesBody) => {
      if (readOnly) return
      try {
        await mutateAsync({ body, idempotencyKey: createIdempotencyKey() })
      } catch {
        // Rolled back already; the error is in `error`.
      }
    },
    [mutateAsync, readOnly],
  )
  return { update, isPending: mutation.isPending, error: mutation.error, readOnly, reset: mutation.reset }
}
