import type { ReactNode } from 'react'
import { createInboxClient, InboxProvider, useInboxContext } from '../../src'

// Stands in for the host app's own back office: its backend adds the API key server-side.
const adminClient = createInboxClient({ baseUrl: '/demo-admin' })

/**
 * Runs the kit's hooks for admin operations (triggers, integrations, topic lists) against the demo's admin
 * backend, sharing the signed-in subscriber and the query cache of the surrounding provider, so that a
 * trigger refreshes the inbox at once.
 */
export function AdminScope({ children }: { children: ReactNode }) {
  const { subscriberId, queryClient, locale, theme } = useInboxContext('AdminScope')
  return (
    <InboxProvider
      subscriberId={subscriberId}
      client={adminClient}
      queryClient={queryClient}
      locale={locale}
      theme={theme}
      pollInterval={0}
    >
      {children}
    </InboxProvider>
  )
}
