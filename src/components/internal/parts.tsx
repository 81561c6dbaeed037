import { onlineManager } from '@tanstack/react-query'
import type { Part } from './ui'
import { useEffect, useState, useSyncExternalStore } from 'react'
import type { ButtonHTMLAttributes, Key, MouseEvent, ReactElement, ReactNode, Ref } from 'react'
import { useStore } from 'zustand'
import { formatDateTime, formatRelativeTime } from '../../core/format'
import { useUTC } from './clock'
import { ledgerOf } from '../../core/ledger'
import { troubleKind } from '../../core/trouble'
import type { TroubleKind } from '../../core/trouble'
import { format } from '../../i18n'
import { ALERT } from './glyphs'
import { icon } from './icons'
import { useUI, visuallyHidden } from './ui'

type ClassNames = Part

/**
 * A text button of the kit, `variant` its `data-variant`. A function rather than a component, as `icon` is,
 * so that a button adds no component to the row that shows it.
 */
export function button(
  c: ClassNames,
  variant: string,
  onClick: (event: MouseEvent<HTMLButtonElement>) => void,
  label: ReactNode,
  expanded?: boolean,
  key?: Key,
): ReactElement {
  return (
    <button
      key={key}
      type="button"
      {...c('inbox-button')}
      data-variant={variant}
      aria-expanded={expanded}
      onClick={onClick}
    >
      {label}
    </button>
  )
}

/** An icon button of the kit: `label` is its name and its tooltip; `props` go on the `<button>`. */
export function iconButton(
  c: ClassNames,
  label: string,
  glyph: ReactNode,
  onClick: () => void,
  props?: ButtonHTMLAttributes<HTMLButtonElement> & { ref?: Ref<HTMLButtonElement> },
): ReactElement {
  return (
    // Named by its title alone: an aria-label beside it would have the name said again as the description.
    <button type="button" {...c('inbox-icon-button')} title={label} onClick={onClick} {...props}>
      {glyph}
    </button>
  )
}

/** When an item was created: relative ("5 min ago") with the full date and time as its title. */
export function ItemTime({
  at,
  now,
  locale,
  c,
}: {
  at: string | null | undefined
  now: number
  locale: string
  c: ClassNames
}): ReactElement {
  const utc = useUTC()
  return (
    <time {...c('inbox-item__time')} dateTime={at ?? undefined} title={formatDateTime(at, locale, utc)}>
      {formatRelativeTime(at, now, locale, utc)}
    </time>
  )
}

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
  avatar?: boolean | undefined
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
  icon: glyph,
  title,
  body,
  action,
  kind,
}: {
  c: ClassNames
  state: 'empty' | 'error'
  icon?: ReactNode | undefined
  title: ReactNode
  body?: ReactNode | undefined
  action?: { label: string; onClick: () => void } | undefined
  /** What kind of failure, for styling (`data-kind`). */
  kind?: string | undefined
}): ReactElement {
  const error = state === 'error'
  return (
    <div {...c('inbox-state')} data-state={state} data-kind={kind} role={error ? 'alert' : undefined}>
      <span {...c('inbox-state__icon')} data-tone={error ? 'danger' : undefined}>
        {glyph ?? icon(ALERT, { width: 22, height: 22 })}
      </span>
      <p {...c('inbox-state__title')}>{title}</p>
      {body && <p {...c('inbox-state__body')}>{body}</p>}
      {action && button(c, 'secondary', action.onClick, action.label)}
    </div>
  )
}

/** An error line (role="alert") with its button. */
export const banner = (c: ClassNames, text: ReactNode, action: ReactNode, kind?: string) => (
  <div {...c('inbox-banner')} role="alert" data-kind={kind}>
    {icon(ALERT, { width: 16, height: 16 })}
    <span>{text}</span>
    {action}
  </div>
)

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
  return banner(c, message, button(c, 'ghost', onDismiss, dismissLabel))
}

const subscribeOnline = (listener: () => void) => onlineManager.subscribe(listener)
const isOnline = () => onlineManager.isOnline()

/** Whole seconds until `at` (0 when past or absent), counted down once a second while it matters. */
function useSecondsUntil(at: number | null | undefined): number {
  const left = () => (at ? Math.max(0, Math.ceil((at - Date.now()) / 1000)) : 0)
  const [seconds, setSeconds] = useState(left)
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- starts the count again when `at` changes
    setSeconds(left())
    if (!at) return
    const timer = setInterval(() => setSeconds(left()), 1000)
    return () => clearInterval(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `left` reads `at`
  }, [at])
  return seconds
}

/**
 * Why the inbox cannot show news, in words a reader can act on — signed out, no access, not found,
 * the service down (with the seconds to the next try), offline, an unreadable answer — and a button
 * that tries again at once: as a centred state where nothing can be shown, as a banner above a list.
 */
export function TroubleNotice({
  error,
  c,
  banner: asBanner,
}: {
  error: Error
  c: ClassNames
  banner?: boolean | undefined
}): ReactElement {
  const { m, sync } = useUI('TroubleNotice')
  const retryAt = useStore(sync.store, (s) => s.trouble?.retryAt)
  const online = useSyncExternalStore(subscribeOnline, isOnline, () => true)
  const kind = online ? troubleKind(error) : 'offline'
  const unavailable = kind === 'unavailable'
  const seconds = useSecondsUntil(unavailable ? retryAt : null)
  // Each kind's words are the message `trouble` + its name (`troubleSignedOut` …).
  // The seconds are for the eye: in the alert they would be said again at every tick.
  const text = (
    <>
      {m[`trouble${kind[0]!.toUpperCase()}${kind.slice(1)}` as `trouble${Capitalize<TroubleKind>}`]}
      {unavailable && !!seconds && <span aria-hidden="true">{' ' + format(m.retryingIn, { count: seconds })}</span>}
    </>
  )
  const retry = () =>
    void ledgerOf(sync)
      .retry()
      .catch(() => {})
  return asBanner ? (
    banner(c, text, kind !== 'offline' && button(c, 'ghost', retry, m.retryNow), kind)
  ) : (
    <StateMessage
      c={c}
      state="error"
      title={m.errorTitle}
      body={text}
      action={{ label: m.retry, onClick: retry }}
      kind={kind}
    />
  )
}
