import { useStore } from 'zustand'
import type { InboxSync } from '../core/sync'
import { useIsoLayoutEffect } from '../provider/context'

/**
 * Renders a change of a count or a list in the cache together with every other part showing one, before the
 * browser paints: in React Query's notice, or at once when this part renders first (the sync object's `watch`).
 */
export function useShown(sync: InboxSync): void {
  useStore(sync.store, (s) => s.rev)
  useIsoLayoutEffect(sync.flush)
}
