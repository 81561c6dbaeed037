import type { ReactNode } from 'react'
import { InboxAdminProvider } from '../src/admin'
import { createInboxClient } from '../src/client'

// Stands in for the host app's own back office: its backend adds the API key server-side.
const adminClient = createInboxClient({ baseUrl: '/demo-admin' })

/**
 * Runs the kit's admin hooks (triggers, integrations, topic lists) against the demo's admin backend, with the
 * signed-in subscriber and the query cache of the surrounding provider, so that a trigger refreshes the inbox.
 */
export function AdminScope({ children }: { children: ReactNode }) {
  return <InboxAdminProvider client={adminClient}>{children}</InboxAdminProvider>
}
