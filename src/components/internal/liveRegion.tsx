import { notifyManager } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import type { ReactElement } from 'react'
import { useStore } from 'zustand'
import { inboxKeys, type CountData } from '../../core/keys'
import { plural } from '../../i18n'
import { useCoreUI, visuallyHidden } from './uiCore'

/**
 * The one polite live region of an inbox: it says how many notifications arrived since the last change
 * (with `counts`), and that a change could not be saved — once per failure, wherever the item is (its row
 * keeps showing the failure until dismissed).
 *
 * The arrivals are read from the cached unseen count, or the unread one where only that is shown: whatever
 * reads a count keeps it current, and the region adds no read of its own.
 */
export function LiveRegion({ counts = false }: { counts?: boolean }): ReactElement {
  const { m, locale, sync } = useCoreUI('LiveRegion')
  const { queryClient, subscriberId } = sync
  const cache = queryClient.getQueryCache()
  const count = (kind: 'unseen' | 'unread') =>
    queryClient.getQueryData<CountData>(inboxKeys.count(subscriberId, kind))?.count
  const unseen = useSyncExternalStore(
    // Told as React Query tells its observers, so that the region renders in the same commit as the count.
    useCallback((listener: () => void) => cache.subscribe(notifyManager.batchCalls(listener)), [cache]),
    () => (counts ? (count('unseen') ?? count('unread')) : undefined),
    () => undefined,
  )
  const told = useStore(sync.store, (s) => s.told)
  const previous = useRef({ unseen, told })
  const [said, setSaid] = useState<{ text: string; n: number } | null>(null)
  useEffect(() => {
    const before = previous.current
    previous.current = { unseen: unseen ?? before.unseen, told }
    let text = ''
    if (told > before.told) text = m.updateError
    else if (unseen !== undefined && before.unseen !== undefined && unseen > before.unseen)
      text = plural(m.newNotifications, unseen - before.unseen, locale)
    if (text) setSaid((s) => ({ text, n: (s?.n ?? 0) + 1 }))
  }, [unseen, told, m, locale])
  return (
    <div role="status" aria-live="polite" aria-atomic="true" style={visuallyHidden}>
      {/* A new node each time, so that the same words are announced again. */}
      {said && <span key={said.n}>{said.text}</span>}
    </div>
  )
}
