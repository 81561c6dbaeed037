import { forwardRef, useEffect, useRef } from 'react'
import type { ButtonHTMLAttributes, ReactElement, ReactNode } from 'react'
import { devWarn } from '../../core/keys'
import { useCount } from '../../hooks/useCounts'
import { format, formatCount, plural } from '../../i18n'
import { BELL_MARKUP } from '../internal/icons'
import { useCoreUI } from '../internal/uiCore'

/** Which count the Bell shows. */
export type CountKind = 'unseen' | 'unread'

/** What a custom bell renderer gets. */
export interface BellRenderProps {
  count: number
  /** The count as shown: "3", "99+". */
  label: string
  capped: boolean
  open: boolean
}

/** Props of {@link Bell}; the rest lands on the `<button>`. */
export interface BellProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  /** Count shown in the badge and the button's name. @default 'unseen' */
  countKind?: CountKind | undefined
  /** Whether the popover the Bell controls is open (sets `aria-expanded`). @default false */
  open?: boolean | undefined
  /** Puts the count in `document.title`, e.g. "(3) My app". @default false */
  titleCount?: boolean | undefined
  /** Replaces the icon and badge; the button, its name and its state stay. */
  renderBell?: ((props: BellRenderProps) => ReactNode) | undefined
  /** Drops the kit's visual rules (when used outside an `<Inbox>`). */
  unstyled?: boolean | undefined
}

/**
 * The notification bell: a real `<button>` whose accessible name includes the count
 * ("Notifications, 3 unseen"), with a visual badge hidden from assistive technology.
 * @example <Bell countKind="unread" onClick={() => setOpen(true)} />
 */
export const Bell = forwardRef<HTMLButtonElement, BellProps>(function Bell(
  { countKind = 'unseen', open = false, titleCount = false, renderBell, unstyled, className, ...rest },
  ref,
): ReactElement {
  const { m, locale, root, c } = useCoreUI('Bell', unstyled)
  const { count, capped, error } = useCount(countKind)
  useStylesheetCheck()
  const label = formatCount(count, locale, 99, capped)
  // Counts that cannot be read are said so, in the name and an attribute, rather than shown as none.
  const unavailable = !!error
  const name = unavailable
    ? m.bellUnavailable
    : count > 0
      ? // The plural form of the number shown: "99+" is said as 99 is.
        plural(
          countKind === 'unread' ? m.bellLabelUnread : m.bellLabelUnseen,
          capped || count > 99 ? 99 : count,
          locale,
          {},
          label,
        )
      : m.bellLabel

  return (
    <button
      ref={ref}
      type="button"
      {...root}
      {...c('inbox-bell', className)}
      aria-haspopup="dialog"
      aria-expanded={open}
      aria-label={name}
      data-state={open ? 'open' : 'closed'}
      data-count={count}
      data-unavailable={unavailable ? '' : undefined}
      {...rest}
    >
      {titleCount && <TitleCount count={count} label={label} template={m.documentTitleCount} />}
      {/* Side by side, not in a fragment: one element fewer to mount. The icon is parsed markup (see BELL_MARKUP). */}
      {renderBell ? renderBell({ count, label, capped, open }) : <span dangerouslySetInnerHTML={BELL_MARKUP} />}
      {!renderBell && (count > 0 || unavailable) && (
        <span {...c('inbox-bell__badge')} aria-hidden="true">
          {unavailable ? '!' : label}
        </span>
      )}
    </button>
  )
})

/** Puts the count in `document.title` while mounted, and gives the title back when it goes. */
function TitleCount({ count, label, template }: { count: number; label: string; template: string }): null {
  const base = useRef<string | null>(null)
  useEffect(() => {
    if (typeof document === 'undefined') return
    if (base.current === null) base.current = document.title
    document.title = count > 0 ? format(template, { count: label, title: base.current }) : base.current
  }, [count, label, template])
  useEffect(
    () => () => {
      if (base.current !== null && typeof document !== 'undefined') document.title = base.current
    },
    [],
  )
  return null
}

/**
 * In development, a styled inbox on a page without the kit's stylesheet (its tokens unset a moment after mount)
 * is said so once: the bell is then a bare button, the popover part of the page's flow.
 */
function useStylesheetCheck(): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    try {
      // jsdom applies no stylesheet: tests of an app would hear of it each time.
      if (process.env.NODE_ENV !== 'production' && !/jsdom/.test(navigator.userAgent))
        timer = setTimeout(() => {
          const styled = document.querySelector('[data-inbox-root]:not([data-inbox-unstyled])')
          if (styled && !getComputedStyle(styled).getPropertyValue('--inbox-font-size'))
            devWarn(
              "inbox-kit: the kit's stylesheet is not on the page: import 'inbox-kit/styles.css' once in your app, or give the components `unstyled` and style them yourself.",
            )
        }, 1000)
    } catch {
      // Unbundled: no development warnings.
    }
    return () => clearTimeout(timer)
  }, [])
}
