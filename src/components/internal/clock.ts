import type { DehydratedState } from '@tanstack/react-query'
import { useContext, useSyncExternalStore } from 'react'
import { InboxContext } from '../../provider/context'

/** How often relative times are refreshed. Labels change at minute granularity at most. */
const TICK_MS = 30_000

const listeners = new Set<() => void>()
let timer: ReturnType<typeof setInterval> | undefined
let current = Date.now()

function subscribe(listener: () => void): () => void {
  // One interval for every mounted row, running while any is: rows subscribe, they do not each start a timer.
  if (!listeners.size) {
    current = Date.now()
    timer = setInterval(() => {
      current = Date.now()
      listeners.forEach((l) => l())
    }, TICK_MS)
  }
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
    if (!listeners.size) clearInterval(timer)
  }
}

// With nothing subscribed (rows drawn again after a while) the time is read anew once it is a tick off:
// `current` was set when the module loaded or the last row went away.
const getSnapshot = () =>
  listeners.size || Math.abs(Date.now() - current) < TICK_MS ? current : (current = Date.now())
/**
 * On the server, and when the browser hydrates what it rendered: when the data of the provider's `initialState`
 * was read (the latest of its queries), the same on both sides whatever their clocks say and however late the
 * page's code comes; without one, the time of the render, to the tick (not when the server loaded this module).
 */
function serverNow(given: DehydratedState | undefined): number {
  let read = 0
  for (const { state } of given?.queries ?? []) if (state.dataUpdatedAt > read) read = state.dataUpdatedAt
  const now = Date.now()
  return read || now - (now % TICK_MS)
}

/** The current time in ms, re-rendering every 30 s while any component uses it. */
export function useNow(): number {
  const given = useContext(InboxContext)?.initialState
  return useSyncExternalStore(subscribe, getSnapshot, () => serverNow(given))
}

const never = () => () => {}

/**
 * True on the server and while the browser hydrates what it rendered: dates are then told in UTC, so that a
 * server in another time zone than the reader's renders the same day groups and times the browser hydrates;
 * the browser tells them in its own zone at once after. (A browser that renders without a server never is.)
 */
export const useUTC = (): boolean =>
  useSyncExternalStore(
    never,
    () => false,
    () => true,
  )

/** Number of live subscriptions to the shared clock (for tests: one timer, however many rows). */
export function clockSubscriberCount(): number {
  return listeners.size
}
