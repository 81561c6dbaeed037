import { useSyncExternalStore } from 'react'

/** How often relative times are refreshed. Labels change at minute granularity at most. */
const TICK_MS = 30_000

const listeners = new Set<() => void>()
let timer: ReturnType<typeof setInterval> | null = null
let current = Date.now()

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  if (timer === null) {
    current = Date.now()
    // One interval for every mounted row: rows subscribe, they do not each start a timer.
    timer = setInterval(() => {
      current = Date.now()
      for (const l of listeners) l()
    }, TICK_MS)
  }
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer)
      timer = null
    }
  }
}

function getSnapshot(): number {
  return current
}

/** The current time in ms, re-rendering every 30 s while any component uses it. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot)
}

/** Number of live subscriptions to the shared clock (for tests: one timer, however many rows). */
export function clockSubscriberCount(): number {
  return listeners.size
}
