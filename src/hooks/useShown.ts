import { hashKey, type QueryKey } from '@tanstack/react-query'
import { useEffect, useLayoutEffect } from 'react'
import { useStore } from 'zustand'
import type { InboxSync } from '../core/sync'

/** `useLayoutEffect` in the browser, `useEffect` on the server (where layout effects warn). */
const useIsoLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect

/**
 * Renders a change of this count's or list's answer in the cache together with every other part showing it,
 * before the browser paints, and has them render what changed when this part renders first (the sync object's
 * `watch`).
 */
export function useShown(sync: InboxSync, queryKey: QueryKey): void {
  const hash = hashKey(queryKey)
  useStore(sync.store, (s) => s.revs[hash])
  useIsoLayoutEffect(sync.flush)
}
