import { forwardRef, useEffect, useRef, useState } from 'react'
import type { HTMLAttributes, ReactElement, ReactNode, Ref, RefAttributes } from 'react'
import type { JsonObject } from '../../api/types'
import { InboxProvider } from '../../provider/InboxProvider'
import type { InboxProviderProps } from '../../provider/InboxProvider'
import type { BellRenderProps, CountKind } from '../Bell/Bell'
import type { InboxPanelProps } from './InboxPanel'
import { splitPanelProps } from './panelProps'
import { BellTrigger, InboxRoot, useRoot } from './root'
import { useControllableState } from '../internal/hooks'
import { useUI } from '../internal/ui'
import type { ToasterProps } from '../Toaster/Toaster'
import type { InboxPlacement } from './root'

// The popover and the toasts load apart from the bell: a page where nobody opens the inbox never fetches,
// parses or keeps their code. The popover's is fetched on the first sign of intent (a pointer over the bell,
// focus on it, a press) and when it opens.
const popover = /* @__PURE__ */ loader(() => import('./popover'))
const toaster = /* @__PURE__ */ loader(() => import('../Toaster/Toaster'))

export type { InboxTab } from './InboxTabs'

export type { InboxPlacement } from './root'

/** Props of the inbox UI (without the provider's). */
export interface InboxViewProps<P extends JsonObject = JsonObject>
  extends Omit<HTMLAttributes<HTMLDivElement>, 'children' | 'onChange'>, InboxPanelProps<P> {
  /** Controlled open state of the popover. */
  open?: boolean
  /** Initial open state when uncontrolled. @default false */
  defaultOpen?: boolean
  /** Called with the next open state. */
  onOpenChange?: (open: boolean) => void
  /** @default 'bottom-end' */
  placement?: InboxPlacement
  /** Count on the Bell. @default 'unseen' */
  countKind?: CountKind
  /** Puts the count in `document.title`. @default false */
  titleCount?: boolean
  /** Replaces the Bell's icon and badge. */
  renderBell?: (props: BellRenderProps) => ReactNode
  /** Drops every visual rule: parts keep their classes, `data-part` and state attributes. @default false */
  unstyled?: boolean
  /**
   * Shows a toast for each notification that arrives while the app is open (in the focused tab only);
   * its "Open" opens this inbox. `true`, or the `Toaster`'s props. @default false
   */
  toasts?: boolean | Omit<ToasterProps, 'onOpen'>
}

/** Props of {@link Inbox}: the inbox UI plus, when `subscriberId` is given, those of its own provider. */
export type InboxProps<P extends JsonObject = JsonObject> = InboxViewProps<P> &
  Partial<Omit<InboxProviderProps, 'children'>>

/**
 * The whole inbox in one line: a Bell and a popover with tabs, the feed and the preferences.
 * With `subscriberId` it brings its own `InboxProvider`; without, it uses the one around it.
 * @example <Inbox subscriberId="user-1" baseUrl="/api/inbox" />
 */
export const Inbox = forwardRef(function Inbox<P extends JsonObject = JsonObject>(
  props: InboxProps<P>,
  ref: Ref<HTMLDivElement>,
): ReactElement {
  const provider: Record<string, unknown> = {}
  const view: Record<string, unknown> = { ref }
  for (const [key, value] of Object.entries(props)) {
    if ((PROVIDER_KEYS as readonly string[]).includes(key)) provider[key] = value
    else view[key] = value
  }
  if (props.subscriberId === undefined) return <InboxView {...view} />
  return (
    <InboxProvider {...(provider as unknown as InboxProviderProps)}>
      <InboxView {...view} />
    </InboxProvider>
  )
}) as <P extends JsonObject = JsonObject>(props: InboxProps<P> & RefAttributes<HTMLDivElement>) => ReactElement

const PROVIDER_KEYS = [
  'subscriberId',
  'baseUrl',
  'apiKey',
  'headers',
  'getHeaders',
  'fetch',
  'client',
  'queryClient',
  'pollInterval',
  'auth',
  'onNotification',
  'onAuthError',
  'appBadge',
  'stream',
  'locale',
  'messages',
  'theme',
  'enabled',
  'initialState',
] as const satisfies readonly (keyof InboxProviderProps)[]

const InboxView = forwardRef(function InboxView<P extends JsonObject = JsonObject>(
  {
    open,
    defaultOpen,
    onOpenChange,
    placement,
    countKind,
    titleCount,
    renderBell,
    unstyled,
    toasts,
    ...rest
  }: InboxViewProps<P>,
  ref: Ref<HTMLDivElement>,
): ReactElement {
  const { locale } = useUI('Inbox')
  const [panel, div] = splitPanelProps(rest)
  const [shown, setShown] = useControllableState(open, defaultOpen ?? false, onOpenChange)
  const asked = useRef(false)
  // Once per inbox: the popover's code, then (in idle time) the formatters its rows use.
  const preload = () => {
    if (asked.current) return
    asked.current = true
    popover.load().then(
      (m) =>
        (typeof requestIdleCallback === 'function' ? requestIdleCallback : setTimeout)(() => m.warmFormats(locale)),
      () => (asked.current = false),
    )
  }
  const Toaster = useLoaded(toaster, !!toasts)[0]?.Toaster
  return (
    <InboxRoot ref={ref} open={shown} onOpenChange={setShown} unstyled={unstyled} {...div}>
      <BellTrigger
        countKind={countKind}
        titleCount={titleCount}
        renderBell={renderBell}
        onPointerEnter={preload}
        onPointerDown={preload}
        onFocus={preload}
      />
      {shown && <LazyPopover placement={placement} {...panel} />}
      {toasts && Toaster && <Toaster {...(toasts === true ? {} : toasts)} onOpen={() => setShown(true)} />}
    </InboxRoot>
  )
}) as <P extends JsonObject = JsonObject>(props: InboxViewProps<P> & RefAttributes<HTMLDivElement>) => ReactElement

/** The popover once its code is there (nothing until then), or what went wrong if it could not be fetched. */
function LazyPopover(props: InboxPanelProps & { placement?: InboxPlacement | undefined }): ReactElement | null {
  const { m, c } = useUI('Inbox')
  const { contentId } = useRoot('Inbox')
  const [loaded, failed, retry] = useLoaded(popover, true)
  if (loaded) return <loaded.Popover {...props} />
  return failed ? (
    <div id={contentId} {...c('inbox-popover')} data-placement={props.placement ?? 'bottom-end'} role="alert">
      <div {...c('inbox-state')} data-state="error">
        <p {...c('inbox-state__title')}>{m.errorTitle}</p>
        <button type="button" {...c('inbox-button')} data-variant="secondary" onClick={retry}>
          {m.retry}
        </button>
      </div>
    </div>
  ) : null
}

/** A module fetched on demand; `module` is set once it is there. */
interface Loader<T> {
  load: () => Promise<T>
  module?: T
}

function loader<T>(load: () => Promise<T>): Loader<T> {
  const l: Loader<T> = { load: () => load().then((m) => (l.module = m)) }
  return l
}

/**
 * The module, at once when it is already there; else fetched while `active`, rendering again when it comes.
 * Also whether fetching it failed, and a function that tries again.
 */
function useLoaded<T>(l: Loader<T>, active: boolean): [T | undefined, boolean, () => void] {
  const [state, setState] = useState<{ module?: T; failed?: boolean }>({})
  const module = state.module ?? l.module
  useEffect(() => {
    if (!active || module || state.failed) return
    let live = true
    l.load().then(
      (m) => live && setState({ module: m }),
      () => live && setState({ failed: true }),
    )
    return () => {
      live = false
    }
  }, [l, active, module, state.failed])
  return [module, !!state.failed, () => setState({})]
}
