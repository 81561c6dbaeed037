import type { ReactElement, ReactNode } from 'react'
import { AlertIcon } from './icons'
import { visuallyHidden } from './ui'

type ClassNames = (name: string) => string | undefined

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
    <div className={c('inbox-feed__skeleton')} role="status" aria-busy="true">
      <span style={visuallyHidden}>{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className={c('inbox-skeleton')} data-shape={avatar ? undefined : 'row'} aria-hidden="true">
          {avatar && <span className={c('inbox-skeleton__avatar')} />}
          <span className={c('inbox-skeleton__lines')}>
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
    <div className={c('inbox-state')} data-state={state} role={error ? 'alert' : undefined}>
      <span className={c('inbox-state__icon')} data-tone={error ? 'danger' : undefined}>
        {icon ?? <AlertIcon width={22} height={22} />}
      </span>
      <p className={c('inbox-state__title')}>{title}</p>
      {body && <p className={c('inbox-state__body')}>{body}</p>}
      {action && (
        <button type="button" className={c('inbox-button')} data-variant="secondary" onClick={action.onClick}>
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
    <div className={c('inbox-banner')} role="alert">
      <AlertIcon width={16} height={16} />
      <span>{message}</span>
      <button type="button" className={c('inbox-button')} data-variant="ghost" onClick={onDismiss}>
        {dismissLabel}
      </button>
    </div>
  )
}
