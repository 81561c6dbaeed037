/**
 * One poller per provider. Each tick refetches the two count lists (unread, unseen) when they are in
 * use and refetches the other active lists only when the counts' lists changed, so a poll with
 * nothing new costs two requests whatever the screen shows. Ticks are skipped while the page is
 * hidden or offline, or while a change is on its way; a skipped tick runs as soon as the page is
 * visible (online) again.
 */
import type { QueryClient } from '@tanstack/react-query'
import { feedLedger } from './feedSync'
import { feedSignature, type FeedData } from './optimistic'
import { COUNT_FILTERS, inboxKeys, normalizeFeedFilters } from './queryKeys'

/** The two managers of React Query the poller follows (`focusManager`, `onlineManager`). */
export interface PollingEnvironment {
  focusManager: { isFocused(): boolean; subscribe(listener: (focused: boolean) => void): () => void }
  onlineManager: { isOnline(): boolean; subscribe(listener: (online: boolean) => void): () => void }
}

const probeKeys = [COUNT_FILTERS.unread, COUNT_FILTERS.unseen].map((f) =>
  JSON.stringify(normalizeFeedFilters(f)),
)

/**
 * Starts polling a subscriber's feed lists every `interval` ms; returns the stop function.
 * Also exposes `tick()` for a refresh on demand.
 */
export function startFeedPolling(options: {
  queryClient: QueryClient
  subscriberId: string
  interval: number
  environment: PollingEnvironment
}): { stop(): void; tick(): Promise<void> } {
  const { queryClient, subscriberId, interval, environment } = options
  let missed = false
  let running: Promise<void> | undefined
  let stopped = false

  async function poll(): Promise<void> {
    const active = queryClient
      .getQueryCache()
      .findAll({ queryKey: inboxKeys.feeds(subscriberId), type: 'active' })
    const probes = new Set(
      active.filter((q) => probeKeys.includes(JSON.stringify(q.queryKey[3]))).map((q) => q.queryHash),
    )
    if (probes.size === 0) {
      await queryClient.invalidateQueries({ queryKey: inboxKeys.feeds(subscriberId) })
      return
    }
    const signature = () =>
      active
        .filter((q) => probes.has(q.queryHash))
        .map((q) => feedSignature(q.state.data as FeedData | undefined))
        .join(';')
    const before = signature()
    await queryClient.refetchQueries({ queryKey: inboxKeys.feeds(subscriberId), predicate: (q) => probes.has(q.queryHash) })
    if (stopped || signature() === before) return
    await queryClient.invalidateQueries({ queryKey: inboxKeys.feeds(subscriberId), predicate: (q) => !probes.has(q.queryHash) })
  }

  function tick(): Promise<void> {
    if (stopped) return Promise.resolve()
    if (!environment.focusManager.isFocused() || !environment.onlineManager.isOnline()) {
      missed = true
      return Promise.resolve()
    }
    if (running) return running
    if (feedLedger(queryClient, subscriberId).pending.length > 0) return Promise.resolve()
    missed = false
    running = poll().finally(() => {
      running = undefined
    })
    return running
  }

  const timer = interval > 0 && Number.isFinite(interval) ? setInterval(() => void tick(), interval) : undefined
  const resume = (on: boolean) => {
    if (on && missed) void tick()
  }
  const unsubscribeFocus = environment.focusManager.subscribe(resume)
  const unsubscribeOnline = environment.onlineManager.subscribe(resume)
  return {
    tick,
    stop() {
      stopped = true
      if (timer !== undefined) clearInterval(timer)
      unsubscribeFocus()
      unsubscribeOnline()
    },
  }
}
