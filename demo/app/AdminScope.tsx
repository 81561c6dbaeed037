import { useMemo } from 'react'
import type { ReactNode } from 'react'
import { createInboxClient, InboxProvider, useInboxContext } from '../../src'
import { ADMIN_PATH } from './routes'
import { useDemoAuth } from './session'

/**
 * Runs the kit's hooks for admin operations (triggers, integrations, topic lists) against the demo's admin
 * backend, which stands in for the host app's own back office (it adds the API key server-side), with the
 * signed-in session, sharing the subscriber and the query cache of the surrounding provider, so that a
 * trigger refreshes the inbox at once.
 */
export function AdminScope({ children }: { children: ReactNode }) {
  const { subscriberId, queryClient, locale, theme } = useInboxContext('AdminScope')
  const auth = useDemoAuth()
  const client = useMemo(() => createInboxClient({ baseUrl: ADMIN_PATH, getHeaders: auth.getHeaders }), [auth])
  return (
    <InboxProvider
      subscriberId={subscriberId}
      client={client}
      queryClient={queryClient}
      locale={locale}
      theme={theme}
      pollInterval={0}
    >
      {children}
    </InboxProvider>
  )
}
