import { notifyManager } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import type { ReactElement, RefObject } from 'react'
import { plural } from '../../i18n'
import { useCoreUI, visuallyHidden } from './uiCore'

/**
 * The one polite live region of an inbox: it says how many notifications arrived since the last change
 * (with `counts`), and that a change could not be saved — once per failure, wherever the item is (its row
 * keeps showing the failure until dismissed) — or turned out to be saved after all.
 *
 * The arrivals are read from the cached unseen count, or the unread one where only that is shown: whatever
 * reads a count keeps it current, and the region adds no read of its own. The count is the one shown, with the
 * reader's own writes on their way, and a change that comes with one of those (an item marked unread) is the
 * reader's doing, not news. What it says is written straight into its element from the cache's and the store's
 * events: nothing renders for it, from mount on.
 */
export function useLiveRegion(counts: boolean): RefObject<HTMLDivElement | null> {
  const { m, locale, sync } = useCoreUI('LiveRegion')
  const node = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const { queryClient, store } = sync
    const read = () => {
      const [unread, unseen] = sync.counts()
      return counts
        ? sync.count(unseen ?? unread, unseen ? 'unseen' : 'unread', store.getState().writes)?.count
        : undefined
    }
    let unseen = read()
    let { told, held, writes } = store.getState()
    const check = () => {
      const now = read()
      const state = store.getState()
      const text =
        state.told > told
          ? m.updateError
          : state.held > held
            ? m.updateHeld
            : now !== undefined && unseen !== undefined && now > unseen && state.writes === writes
              ? plural(m.newNotifications, now - unseen, locale)
              : ''
      unseen = now ?? unseen
      ;({ told, held, writes } = state)
      // A new node each time, so that the same words are announced again.
      if (text && node.current)
        node.current.replaceChildren(Object.assign(document.createElement('span'), { textContent: text }))
    }
    // Told as React Query tells its observers: once a batch of cache writes is done, not between them.
    const offCache = queryClient.getQueryCache().subscribe(notifyManager.batchCalls(check))
    const offStore = store.subscribe(check)
    return () => {
      offCache()
      offStore()
    }
  }, [sync, counts, m, locale])
  return node
}

/** The region's element: polite, atomic, visually hidden. */
export const liveRegionProps = {
  role: 'status',
  'aria-live': 'polite',
  'aria-atomic': 'true',
  style: visuallyHidden,
} as const

/** {@link useLiveRegion} with its element, for the layouts that render it beside their content. */
export function LiveRegion({ counts = false }: { counts?: boolean }): ReactElement {
  return <div ref={useLiveRegion(counts)} {...liveRegionProps} />
}
