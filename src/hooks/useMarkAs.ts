import { useCallback, useMemo, useState } from 'react'
import { useStore } from 'zustand'
import type { MarkAs } from '../api/types'
import type { Ledger } from '../core/ledger'
import { withLedger } from '../core/reach'
import { useInboxScope } from '../provider/context'

/** What {@link useMarkAs} returns. */
export interface UseMarkAsResult {
  /**
   * Marks items read, unread, seen or unseen. Every list and both counts change at once; a failure
   * puts back what the service is known to hold and sets `error`. Resolves once the service answered;
   * never rejects (read `error`).
   */
  markAs: (args: { ids: string | readonly string[]; markAs: MarkAs }) => Promise<void>
  /** Changes of this hook on their way. */
  isPending: boolean
  /**
   * Why a change of this hook failed since the latest one was made; cleared when the next is made, and once no
   * item of it is failed any more (the service was found to hold it after all, or its failure was dismissed).
   */
  error: Error | null
  /** Clears `error`. */
  reset: () => void
  /**
   * Each item whose last change failed, made here or anywhere else under the provider (a row of the kit, another
   * `useMarkAs`), with why: for a row of your own to say so. Kept until dismissed, or until a later change of the
   * item succeeds or the service is found to hold the change after all.
   */
  failed: ReadonlyMap<string, Error>
  /** Forgets an item's failure (its message was dismissed). */
  dismiss: (id: string) => void
}

/**
 * Marks notifications, optimistically. Changes of one item reach the service in the order they were
 * made, so quick toggles end in the last state; each carries one idempotency key through its retries;
 * the subscriber's other tabs follow without a request. The provider keeps each item's failed change
 * until it is dismissed, so a row can tell it even if it was not on screen when it failed.
 *
 * @example
 * const { markAs } = useMarkAs()
 * <button onClick={() => markAs({ ids: item._id, markAs: item.read ? 'unread' : 'read' })}>…</button>
 */
export function useMarkAs(): UseMarkAsResult {
  const { sync } = useInboxScope('useMarkAs')
  const [state, setState] = useState({ pending: 0, error: null as Error | null, ids: null as readonly string[] | null })
  const failures = useStore(sync.store, (s) => s.failures)
  const markAs = useCallback<UseMarkAsResult['markAs']>(
    async ({ ids, markAs }) => {
      // A new change clears the last one's failure, as a new "mark all" or preference update does theirs.
      setState((s) => ({ pending: s.pending + 1, error: null, ids: null }))
      // The ledger resolves with a write's failure; it rejects only when its code could not be fetched.
      const error = await withLedger(sync, (l) => l.markAs(ids, markAs)).then(
        (e) => e ?? null,
        (e: Error) => e,
      )
      // The items whose failure the ledger keeps; none when its code could not be fetched.
      const { failures } = sync.store.getState()
      const kept = error && (typeof ids === 'string' ? [ids] : ids).filter((id) => failures.has(id))
      setState((s) => (error ? { pending: s.pending - 1, error, ids: kept || null } : { ...s, pending: s.pending - 1 }))
    },
    [sync],
  )
  const reset = useCallback(() => setState((s) => ({ ...s, error: null })), [])
  const failed = useMemo(() => new Map([...failures].map(([id, f]) => [id, f.error])), [failures])
  // Only the ledger keeps failures: without it there is none to forget.
  const dismiss = useCallback((id: string) => (sync.slots.ledger as Ledger | undefined)?.dismiss(id), [sync])
  // Told while an item of it is still failed; a failure the ledger did not keep stays until the next change.
  const told = !state.ids?.length || state.ids.some((id) => failures.has(id))
  return { markAs, isPending: state.pending > 0, error: told ? state.error : null, reset, failed, dismiss }
}

/** What {@link useMarkAll} returns. */
export interface UseMarkAllResult {
  /** Marks everything; resolves when done, never rejects (read `error`). */
  markAll: () => Promise<void>
  isPending: boolean
  error: Error | null
  reset: () => void
}

/**
 * "Mark all as read" (or seen). What is shown changes at once (unread lists and the count empty);
 * then it pages through the unread (unseen) feed 100 at a time and marks the ids in batches of at
 * most 100. `read` leaves everything read and seen (both badges clear); `seen` leaves read alone.
 * On failure what is shown goes back to what the service holds, fetched again.
 *
 * @param kind - @default 'read'
 * @example
 * const { markAll, isPending } = useMarkAll('read')
 * <button onClick={markAll} disabled={isPending}>Mark all as read</button>
 */
export function useMarkAll(kind: 'read' | 'seen' = 'read'): UseMarkAllResult {
  const { sync } = useInboxScope('useMarkAll')
  const isPending = useStore(sync.store, (s) => s.writes.some((w) => !w.ids && w.markAs === kind))
  const error = useStore(sync.store, (s) => s.markAllError)
  const markAll = useCallback(
    () =>
      withLedger(sync, (l) => l.markAll(kind)).then(
        () => {},
        // The ledger's code could not be fetched (offline): told as a failed "mark all".
        (markAllError: Error) => sync.store.setState({ markAllError }),
      ),
    [sync, kind],
  )
  const reset = useCallback(() => sync.store.setState({ markAllError: null }), [sync])
  return { markAll, isPending, error, reset }
}
