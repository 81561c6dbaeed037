import { useQuery } from '@tanstack/react-query'
import type { Criticality, Preferences } from '../api/types'
import { preferencesQueryOptions } from '../core/queries'
import { useInboxContext } from './useInboxContext'
import { useQueryResult } from './useQueryResult'
import { usePreferencesReadOnly } from './usePreferencesReadOnly'

/** Options of {@link usePreferences}. */
export interface UsePreferencesOptions {
  /** Which workflows to list. @default 'nonCritical' */
  criticality?: Criticality
  /** @default true */
  enabled?: boolean
}

/** What {@link usePreferences} returns. */
export interface UsePreferencesResult {
  data?: Preferences
  isLoading: boolean
  error: Error | null
  refetch: () => Promise<void>
  /** The service has no update route (it answered 404/405 to one): show the preferences without toggles. */
  readOnly: boolean
}

/**
 * The subscriber's preferences: global channels and schedule, and each workflow's channels.
 *
 * @example
 * const { data, readOnly } = usePreferences()
 * data?.workflows.map((w) => <Row key={w.workflow.identifier} workflow={w} disabled={readOnly} />)
 * @param name - The component or hook named in the error thrown outside `<InboxProvider>`. @default 'usePreferences'
 */
export function usePreferences(options: UsePreferencesOptions = {}, name = 'usePreferences'): UsePreferencesResult {
  const { client, queryClient, subscriberId, enabled } = useInboxContext(name)
  const query = useQuery(
    {
      ...preferencesQueryOptions({ client, subscriberId }, options.criticality),
      enabled: enabled && options.enabled !== false,
    },
    queryClient,
  )
  const readOnly = usePreferencesReadOnly(client)
  return { ...useQueryResult(query), readOnly }
}
