import { forwardRef, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import type { HTMLAttributes, ReactElement, ReactNode, Ref, RefAttributes, RefObject } from 'react'
import type { JsonObject } from '../../api/types'
import { devWarn } from '../../core/keys'
import { InboxLook, InboxProvider } from '../../provider/InboxProvider'
import type { InboxProviderProps } from '../../provider/InboxProvider'
import type { BellRenderProps, CountKind } from '../Bell/Bell'
import type { InboxPanelProps } from './InboxPanel'
import { PANEL_KEYS } from './panelProps'
import { Bell } from '../Bell/Bell'
import { renderRoot, triggerProps, useRoot, useRootState } from './root'
import { ToastsAfter, useCoreUI, useToaster } from '../internal/uiCore'
import { loader, useLoaded } from '../internal/lazy'
import type { ToasterProps } from '../Toaster/Toaster'
import type { InboxPlacement } from './root'
import type { PopoverProps } from './popover'

// The popover and the toasts load apart from the bell: a page where nobody opens the inbox never fetches,
// parses or keeps their code. The popover's is fetched on the first sign of intent (a pointer over the bell,
// focus on it, a press) and when it opens.
const popover = /* @__PURE__ */ loader(() => import('./popover'))
const toaster = /* @__PURE__ */ loader(() => import('../Toaster/Toaster'))

export type { InboxTab } from './InboxTabs'

export type { InboxPlacement } from './root'

/** Props of the inbox UI (without the provider's). */
export interface InboxViewProps<P extends object = JsonObject>
  extends Omit<HTMLAttributes<HTMLDivElement>, 'children' | 'onChange'>, InboxPanelProps<P> {
  /** Controlled open state of the popover. */
  open?: boolean | undefined
  /** Initial open state when uncontrolled. @default false */
  defaultOpen?: boolean | undefined
  /** Called with the next open state. */
  onOpenChange?: ((open: boolean) => void) | undefined
  /** @default 'bottom-end' */
  placement?: InboxPlacement | undefined
  /**
   * Renders the popover at the end of `document.body` (or into the element given), placed at the bell, so that
   * an `overflow: hidden` ancestor (a clipped app bar, a scrolling sidebar) does not cut it off. @default false
   */
  portal?: boolean | Element | undefined
  /** Count on the Bell. @default 'unseen' */
  countKind?: CountKind | undefined
  /** Puts the count in `document.title`. @default false */
  titleCount?: boolean | undefined
  /** Replaces the Bell's icon and badge. */
  renderBell?: ((props: BellRenderProps) => ReactNode) | undefined
  /** Drops every visual rule: parts keep their classes, `data-part` and state attributes. @default false */
  unstyled?: boolean | undefined
  /**
   * Shows a toast for each notification that arrives while the app is open (in the focused tab only);
   * its "Open" opens this inbox. `true`, or the `Toaster`'s props. @default false
   */
  toasts?: boolean | Omit<ToasterProps, 'onOpen'> | undefined
}

/** Props of {@link Inbox}: the inbox UI plus, when `subscriberId` is given, those of its own provider. */
export type InboxProps<P extends object = JsonObject> = InboxViewProps<P> &
  Partial<Omit<InboxProviderProps, 'children'>>

/**
 * The whole inbox in one line: a Bell and a popover with tabs, the feed and the preferences.
 * With `subscriberId` it brings its own `InboxProvider`; without, it uses the one around it.
 * @example <Inbox subscriberId="user-1" baseUrl="/api/inbox" />
 */
export const Inbox = forwardRef(function Inbox<P extends object = JsonObject>(
  props: InboxProps<P>,
  ref: Ref<HTMLDivElement>,
): ReactElement {
  // One pass: the provider's props, the panel's, and the rest (the view's, and its root element's).
  const provider: Record<string, unknown> = {}
  const panel: Record<string, unknown> = {}
  const view: Record<string, unknown> = { ref, panel }
  for (const key in props)
    (PROVIDER_KEYS.has(key) ? provider : PANEL_KEYS.has(key) ? panel : view)[key] = props[key as keyof typeof props]
  const ui = <InboxView {...(view as unknown as Parameters<typeof InboxView>[0])} />
  if (props.subscriberId !== undefined)
    return <InboxProvider {...(provider as unknown as InboxProviderProps)}>{ui}</InboxProvider>
  // Inside the app's provider: its look and language may be this inbox's own; the rest is the provider's.
  const { theme, messages, locale, ...ignored } = provider as Partial<InboxProviderProps>
  try {
    // Checked in development only: a production build drops the check with its message.
    if (process.env.NODE_ENV !== 'production') {
      const extra = Object.keys(ignored).filter((key) => ignored[key as keyof typeof ignored] !== undefined)
      if (extra.length)
        devWarn(
          `inbox-kit: <Inbox> without a subscriberId uses the <InboxProvider> around it, which ignores ${extra.map((k) => `\`${k}\``).join(', ')} given to <Inbox>: give them to the provider (or a subscriberId to <Inbox>).`,
        )
    }
  } catch {
    // Unbundled: no development warnings.
  }
  return theme || messages || locale ? <InboxLook {...{ theme, messages, locale }}>{ui}</InboxLook> : ui
}) as <P extends object = JsonObject>(props: InboxProps<P> & RefAttributes<HTMLDivElement>) => ReactElement

const PROVIDER_KEYS = new Set<string>([
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
] satisfies (keyof InboxProviderProps)[])

/** The root, the bell and, once wanted, the popover and the toasts: {@link InboxRoot} and its parts, flat. */
const InboxView = forwardRef(function InboxView(
  {
    open,
    defaultOpen,
    onOpenChange,
    placement,
    portal,
    countKind,
    titleCount,
    renderBell,
    unstyled,
    toasts,
    panel,
    ...div
  }: Omit<InboxViewProps, keyof InboxPanelProps> & { panel: InboxPanelProps },
  ref: Ref<HTMLDivElement>,
): ReactElement {
  const root = useRootState(open, defaultOpen ?? false, onOpenChange, unstyled, 'Inbox')
  const { ctx, locale, sync, enabled } = root
  const warmed = useRef(false)
  // On each sign of intent: the popover's code, and the list it opens on unless cached; once per inbox (in idle
  // time) the formatters its rows use.
  const preload = () =>
    void popover.load().then(
      (m) => {
        if (enabled) m.prefetchFeed(sync, panel.limit)
        if (warmed.current) return
        warmed.current = true
        ;(typeof requestIdleCallback === 'function' ? requestIdleCallback : setTimeout)(() => m.warmFormats(locale))
      },
      () => {},
    )
  return renderRoot(
    root,
    { ref, ...div },
    <Bell
      key="bell"
      {...triggerProps(ctx, ctx.trigger as RefObject<HTMLButtonElement | null>, undefined)}
      open={ctx.open}
      countKind={countKind}
      titleCount={titleCount}
      renderBell={renderBell}
      onPointerEnter={preload}
      onPointerDown={preload}
      onFocus={preload}
    />,
    ctx.open && <LazyPopover key="popover" placement={placement} portal={portal} {...panel} />,
    toasts && <LazyToaster key="toasts" {...(toasts === true ? {} : toasts)} onOpen={() => ctx.setOpen(true)} />,
  )
})

/** The popover once its code is there (nothing until then), or what went wrong if it could not be fetched. */
function LazyPopover(props: PopoverProps): ReactElement | null {
  const { m, c } = useCoreUI('Inbox')
  const { contentId, close } = useRoot('Inbox')
  const [loaded, failed, retry, offline] = useLoaded(popover)
  if (loaded) return <loaded.Popover {...props} />
  // Offline, it opens by itself once the network is back: nothing to try again.
  return failed ? (
    <div id={contentId} {...c('inbox-popover')} data-placement={props.placement ?? 'bottom-end'} role="alert">
      <div {...c('inbox-state')} data-state={offline ? 'offline' : 'error'}>
        <p {...c('inbox-state__title')}>{offline ? m.troubleOffline : m.errorTitle}</p>
        {!offline && (
          <button
            type="button"
            {...c('inbox-button')}
            data-variant="secondary"
            onClick={retry}
            // Closed with Escape as the popover is, focus back on the bell.
            onKeyDown={(event) => event.key === 'Escape' && close(true)}
          >
            {m.retry}
          </button>
        )}
      </div>
    </div>
  ) : null
}

/**
 * The toaster once its code is there, at the end of the body with the inbox's theme and direction: in place, an
 * app's header with a transform, a filter or `backdrop-filter` around the bell held its fixed corner.
 */
function LazyToaster(props: ToasterProps): ReactElement | null {
  const Toaster = useLoaded(toaster)[0]?.Toaster
  const { attrs } = useRoot('Inbox')
  const { sync } = useCoreUI('Inbox')
  // A toaster from the first render: arrivals are fetched from now on, and those that come before the code are
  // handed over to it.
  const [after, setAfter] = useState(() => sync.store.getState().arrived)
  const [of, setOf] = useState(sync)
  if (of !== sync) (setOf(sync), setAfter(sync.store.getState().arrived))
  useToaster(sync)
  return Toaster
    ? createPortal(
        <div {...attrs}>
          <ToastsAfter.Provider value={after}>
            <Toaster {...props} />
          </ToastsAfter.Provider>
        </div>,
        document.body,
      )
    : null
}
