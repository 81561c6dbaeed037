import type { Part } from './ui'
import { useEffect, useRef, useState } from 'react'
import type { ReactElement, ReactNode } from 'react'
import { useStore } from 'zustand'
import { plural } from '../../i18n'
import { AlertIcon } from './icons'
import { useUI, visuallyHidden } from './ui'

type ClassNames = Part

/** Placeholder rows while something loads; announced once as `label`. */
export function Skeleton({
  c,
  label,
  rows,
  lines,
  avatar = false,
}: {
  c: ClassNames
  label: string
  rows: number
  lines: number
  avatar?: boolean
}): ReactElement {
  return (
    <div {...c('inbox-feed__skeleton')} role="status" aria-busy="true">
      <span style={visuallyHidden}>{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} {...c('inbox-skeleton')} data-shape={avatar ? undefined : 'row'} aria-hidden="true">
          {avatar && <span {...c('inbox-skeleton__avatar')} />}
          <span {...c('inbox-skeleton__lines')}>
            {Array.from({ length: lines }, (_, j) => (
              <span key={j} />
            ))}
          </span>
        </div>
      ))}
    </div>
  )
}

/** A centred state: an icon, a title, an optional text and action; an alert when `tone` is danger. */
export function StateMessage({
  c,
  state,
  icon,
  title,
  body,
  action,
}: {
  c: ClassNames
  state: 'empty' | 'error'
  icon?: ReactNode
  title: ReactNode
  body?: ReactNode
  action?: { label: string; onClick: () => void }
}): ReactElement {
  const error = state === 'error'
  return (
    <div {...c('inbox-state')} data-state={state} role={error ? 'alert' : undefined}>
      <span {...c('inbox-state__icon')} data-tone={error ? 'danger' : undefined}>
        {icon ?? <AlertIcon width={22} height={22} />}
      </span>
      <p {...c('inbox-state__title')}>{title}</p>
      {body && <p {...c('inbox-state__body')}>{body}</p>}
      {action && (
        <button type="button" {...c('inbox-button')} data-variant="secondary" onClick={action.onClick}>
          {action.label}
        </button>
      )}
    </div>
  )
}

/** A dismissable error line (role="alert"). */
export function ErrorBanner({
  c,
  message,
  dismissLabel,
  onDismiss,
}: {
  c: ClassNames
  message: string
  dismissLabel: string
  onDismiss: () => void
}): ReactElement {
  return (
    <div {...c('inbox-banner')} role="alert">
      <AlertIcon width={16} height={16} />
      <span>{message}</span>
      <button type="button" {...c('inbox-button')} data-variant="ghost" onClick={onDismiss}>
        {dismissLabel}
      </button>
    </div>
  )
}

/**
 * The one polite live region of an inbox: it says how many unseen notifications arrived since the last
 * change (when given `unseen`), and that a change could not be saved — once per failure, wherever the
 * item is (its row keeps showing the failure until dismissed).
 */
export function LiveRegion({ unseen }: { unseen?: number | undefined }): ReactElement {
  const { m, locale, sync } = useUI('LiveRegion')
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
