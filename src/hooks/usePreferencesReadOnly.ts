import { useSyncExternalStore } from 'react'
import type { InboxClient } from '../api/types'
import { isPreferencesReadOnly, subscribePreferencesReadOnly } from '../core/preferencesSync'

/**
 * Whether preferences are read-only for this client (its service answered 404/405 to an update);
 * re-renders when that becomes known. `false` on the server.
 */
export function usePreferencesReadOnly(client: InboxClient): boolean {
  return useSyncExternalStore(
    subscribePreferencesReadOnly,
    () => isPreferencesReadOnly(client),
    () => false,
  )
}
