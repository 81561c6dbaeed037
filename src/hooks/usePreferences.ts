import { useQuery } from '@tanstack/react-query'
import { useCallback, useMemo } from 'react'
import { useStore } from 'zustand'
import type { Criticality, Preferences, UpdatePreferencesBody } from '../api/types'
import { prefsOf } from '../core/prefs'
import { preferencesQueryOptions } from '../core/queries'
import { useInboxScope } from '../provider/context'

/** Options of {@link usePreferences}. */
export interface UsePreferencesOptions {
  /** Which workflows to list. @default 'nonCritical' */
  criticality?: Criticality | undefined
  /** @default true */
  enabled?: boolean | undefined
}

/** What {@link usePreferences} returns. */
export interface UsePreferencesResult {
  /** The preferences, with updates on their way applied. */
  data?: Preferences | undefined
  isLoading: boolean
  error: Error | null
  refetch: () => Promise<void>
  /** The service has no update route (it answered 404/405 to one): show the preferences without toggles. */
  readOnly: boolean
}

/**
 * The subscriber's preferences: global channels and schedule, and each workflow's channels. For a subscriber the
 * service does not know yet (nothing was ever sent to them), `error` is its 404, an `ApiError` whose `status` is
 * 404 and whose message starts "Subscriber": there are no settings to show yet (`PreferencesPanel` says so
 * instead of an error).
 *
 * @example
 * const { data, readOnly } = usePreferences()
 * data?.workflows.map((w) => <Row key={w.workflow.identifier} workflow={w} disabled={readOnly} />)
 */
export function usePreferences(options: UsePreferencesOptions = {}): UsePreferencesResult {
  const { sync, enabled } = useInboxScope('usePreferences')
  const { criticality = 'nonCritical' } = options
  const prefs = prefsOf(sync)
  const query = useQuery(
    { ...preferencesQueryOptions(sync, criticality), enabled: enabled && options.enabled !== false },
    sync.queryClient,
  )
  const { updates, readOnly } = useStore(prefs.store)
  const data = useMemo(() => prefs.view(query.data, criticality, updates), [prefs, query.data, criticality, updates])
  const { refetch: again } = query
  const refetch = useCallback(() => again().then(() => {}), [again])
  return { ...(data ? { data } : {}), isLoading: query.isLoading, error: query.error, refetch, readOnly }
}

/** What {@link useUpdatePreferences} returns. */
export interface UseUpdatePreferencesResult {
  /**
   * Changes global (no `workflowId`) or one workflow's channels, or the schedule. Shows at once, goes
   * back on failure; resolves when answered and never rejects (read `error`). Does nothing when `readOnly`.
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
 * tabs follow without a request. A 404/405 for the route makes the provider's preferences read-only.
 *
 * @example
 * const { update, readOnly } = useUpdatePreferences()
 * <input type="checkbox" role="switch" disabled={readOnly} checked={email}
 *   onChange={(e) => update({ channels: { email: e.target.checked } })} />
 */
export function useUpdatePreferences(): UseUpdatePreferencesResult {
  const { sync } = useInboxScope('useUpdatePreferences')
  const prefs = prefsOf(sync)
  const { updates, readOnly, error } = useStore(prefs.store)
  const update = useCallback(
    async (body: UpdatePreferencesBody) => {
      if (!prefs.store.getState().readOnly) await prefs.update(body)
    },
    [prefs],
  )
  const reset = useCallback(() => prefs.store.setState({ error: null }), [prefs])
  return { update, isPending: updates.length > 0, error, readOnly, reset }
}
