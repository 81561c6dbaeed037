import { useQuery } from '@tanstack/react-query'
import type { Integration } from '../api/types'
import { activeIntegrationsQueryOptions } from '../core/queries'
import { useInboxContext } from './useInboxContext'
import { useQueryResult } from './useQueryResult'

/** What {@link useActiveIntegrations} returns. */
export interface UseActiveIntegrationsResult {
  /** Every active integration of the organization, all environments and channels. */
  data?: Integration[]
  isLoading: boolean
  error: Error | null
  refetch: () => Promise<void>
}

/**
 * The organization's active integrations (an admin view; needs a key that may list them).
 *
 * @example
 * const { data } = useActiveIntegrations()
 * const primaryEmail = data?.find((i) => i.channel === 'email' && i.primary)
 * @param name - The component or hook named in the error thrown outside `<InboxProvider>`. @default 'useActiveIntegrations'
 */
export function useActiveIntegrations(options: { enabled?: boolean } = {}, name = 'useActiveIntegrations'): UseActiveIntegrationsResult {
  const { client, queryClient, subscriberId, enabled } = useInboxContext(name)
  const query = useQuery(
    { ...activeIntegrationsQueryOptions({ client, subscriberId }), enabled: enabled && options.enabled !== false },
    queryClient,
  )
  return useQueryResult(query)
}
