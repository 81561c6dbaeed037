import { forwardRef, useContext, useEffect, useId, useRef, useState } from 'react'
import type { HTMLAttributes, ReactElement } from 'react'
import { useStore } from 'zustand'
import type { FeedItem } from '../../api/types'
import { CLOSE } from '../internal/glyphs'
import { icon } from '../internal/icons'
import { titleAndBody } from '../internal/text'
import { useFocusKeeper } from '../internal/focus'
import { useUI } from '../internal/ui'
import { ToastsAfter, useToaster } from '../internal/uiCore'
import { ledgerOf } from '../../core/ledger'
import { Avatar } from '../NotificationItem/Avatar'

/** Props of {@link Toaster}; the rest lands on its `<section>` (a landmark only while it holds toasts). */
export interface ToasterProps extends Omit<HTMLAttributes<HTMLElement>, 'children'> {
  /** How long each toast stays, in ms, from its arrival; the stack waits while hovered or focused. @default 6000 */
  duration?: number | undefined
  /** Most toasts shown at once; older ones go first. @default 3 */
  max?: number | undefined
  /** Opens a notification (the toast's "Open" button); the toast closes and the item is marked read. */
  onOpen?: ((item: FeedItem) => void) | undefined
  /** Corner of the screen (logical: `end` is the right in LTR). @default 'bottom-end' */
  position?: 'top-start' | 'top-end' | 'bottom-start' | 'bottom-end' | undefined
  /** Drops the kit's visual rules. */
  unstyled?: boolean | undefined
}

interface Toast {
  item: FeedItem
  key: string
}

/**
 * Short-lived cards for notifications that arrive while the app is open — in the focused tab only, once
 * per browser profile. Never taking focus; each goes `duration` after it came, all of them waiting while
 * the stack is hovered or focused; Escape dismisses the focused one. Each arrival is announced once: inside
 * an inbox (`<Inbox toasts>`, a root or a layout) by the inbox's live region ("3 new notifications"), the
 * toasts staying quiet; on its own, politely by the toast list.
 * @example <Toaster onOpen={(item) => router.push(`/inbox/${item._id}`)} />
 */
export const Toaster = forwardRef<HTMLElement, ToasterProps>(function Toaster(
  { duration = 6000, max = 3, onOpen, position = 'bottom-end', unstyled, className, ...rest },
  ref,
): ReactElement {
  const { m, root, c, sync } = useUI('Toaster', unstyled)
  const id = useId()
  const arrived = useStore(sync.store, (s) => s.arrived)
  const [toasts, setToasts] = useState<Toast[]>([])
  const [held, setHeld] = useState(false)
  /** What is left of each toast's time (ms), from when the stack was last held or changed; `duration` until then. */
  const [left] = useState(() => new WeakMap<Toast, number>())
  // Inside an inbox, its live region already says how many arrived: the list speaks only on its own.
  const live = 'data-inbox-root' in root
  // What arrived before: no toast. Under `<Inbox toasts>`, what arrived while this code was on its way is shown.
  const after = useContext(ToastsAfter)
  const seen = useRef(after === undefined ? arrived : after)
  // Another subscriber: none of the previous one's toasts, from the first frame on.
  const [of, setOf] = useState(sync)
  if (of !== sync) (setOf(sync), setToasts([]))
  useToaster(sync)

  useEffect(() => {
    if (!arrived || arrived === seen.current) return
    seen.current = arrived
    if (typeof document !== 'object' || !document.hasFocus()) return
    const fresh = arrived.items.map((item) => ({ item, key: `${item._id}:${arrived.n}` }))
    setToasts((t) => [...fresh, ...t].slice(0, max))
  }, [arrived, max])

  // A stack emptied under the pointer (its last toast dismissed) hears no pointerleave: the next toasts must not
  // arrive held.
  useEffect(() => {
    if (!toasts.length) setHeld(false)
  }, [toasts.length])

  // A timer for each toast, from its arrival; none goes while the reader is on the stack, and each takes up
  // where it was when the reader leaves.
  useEffect(() => {
    if (held) return
    const start = Date.now()
    const timers = toasts.map((toast) =>
      setTimeout(() => setToasts((t) => t.filter((x) => x !== toast)), left.get(toast) ?? duration),
    )
    return () => {
      for (const toast of toasts) left.set(toast, (left.get(toast) ?? duration) + start - Date.now())
      timers.forEach(clearTimeout)
    }
  }, [toasts, held, duration, left])

  // Where focus was before it came to the toasts. When the toast that has it goes (dismissed, pushed out by newer
  // ones), focus moves to the toast now in its place, else the one before it, else back there (focus.ts).
  const from = useRef<HTMLElement | null>(null)
  const [list, setList] = useState<HTMLOListElement | null>(null)
  useFocusKeeper(list, () => (from.current?.isConnected ? from.current : null))
  const close = (toast: Toast) => setToasts((t) => t.filter((x) => x !== toast))
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- pointer and focus within pause the timer
    <section
      ref={ref}
      {...root}
      {...c('inbox-toaster', className)}
      aria-label={toasts.length ? m.toastsLabel : undefined}
      data-position={position}
      onPointerEnter={() => setHeld(true)}
      onPointerLeave={() => setHeld(false)}
      onFocus={(e) => {
        // From outside (not from nowhere: a toast gone under focus, which moved on to another).
        if (e.relatedTarget && !e.currentTarget.contains(e.relatedTarget)) from.current = e.relatedTarget as HTMLElement
        setHeld(true)
      }}
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && setHeld(false)}
      {...rest}
    >
      <ol ref={setList} {...c('inbox-toaster__list')} aria-live={live ? 'polite' : undefined}>
        {toasts.map((toast) => {
          const { item } = toast
          const shown = titleAndBody(item, m.untitled)
          // Each toast's buttons are described by its title: "Open" and "Dismiss" are alike in every toast.
          const title = id + toast.key
          return (
            // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- Escape from a toast's buttons closes it
            <li
              key={toast.key}
              {...c('inbox-toast')}
              onKeyDown={(e) => e.key === 'Escape' && (e.stopPropagation(), close(toast))}
            >
              <Avatar item={item} c={c} />
              <div {...c('inbox-toast__main')}>
                <p {...c('inbox-toast__title')} id={title} dir="auto">
                  {shown.title}
                </p>
                {shown.body && (
                  <p {...c('inbox-toast__body')} dir="auto">
                    {shown.body}
                  </p>
                )}
                {onOpen && (
                  <button
                    type="button"
                    {...c('inbox-button')}
                    data-variant="secondary"
                    aria-describedby={title}
                    onClick={() => {
                      close(toast)
                      void ledgerOf(sync).markAs(item._id, 'read')
                      onOpen(item)
                    }}
                  >
                    {m.toastOpen}
                  </button>
                )}
              </div>
              <button
                type="button"
                {...c('inbox-icon-button')}
                aria-label={m.dismiss}
                aria-describedby={title}
                title={m.dismiss}
                onClick={() => close(toast)}
              >
                {icon(CLOSE, { width: 16, height: 16 })}
              </button>
            </li>
          )
        })}
      </ol>
    </section>
  )
})
