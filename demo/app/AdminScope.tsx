import { useMemo } from 'react'
import type { ReactNode } from 'react'
import { InboxAdminProvider } from '../../src/admin'
import { createInboxClient } from '../../src/client'
import { ADMIN_PATH } from './routes'
import { useDemoAuth } from './session'

/**
 * Runs the kit's admin hooks (triggers, integrations, topic lists) against the demo's admin backend, which
 * stands in for the host app's own back office (it adds the API key server-side), with the signed-in
 * session, and the subscriber and query cache of the surrounding provider, so that a trigger refreshes the
 * inbox at once.
 */
export function AdminScope({ children }: { children: ReactNode }) {
  const auth = useDemoAuth()
  const client = useMemo(() => createInboxClient({ baseUrl: ADMIN_PATH, getHeaders: auth.getHeaders }), [auth])
  return <InboxAdminProvider client={client}>{children}</InboxAdminProvider>
}
