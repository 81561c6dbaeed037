import { forwardRef, useCallback, useEffect, useId, useImperativeHandle, useMemo, useRef, useState } from 'react'
import type { HTMLAttributes, KeyboardEvent, ReactElement, ReactNode, Ref, RefAttributes } from 'react'
import { useStore } from 'zustand'
import type { FeedItem, JsonObject } from '../../api/types'
import { useCounts } from '../../hooks/useCounts'
import { useMarkAll } from '../../hooks/useMarkAs'
import { formatCount } from '../../core/format'
import { plural } from '../../i18n'
import { InboxProvider } from '../../provider/InboxProvider'
import type { InboxProviderProps } from '../../provider/InboxProvider'
import { Bell } from '../Bell/Bell'
import type { BellRenderProps, CountKind } from '../Bell/Bell'
import { Feed } from '../Feed/Feed'
import type { FeedProps } from '../Feed/Feed'
import type { ViewportRect } from '../Feed/useVirtualRows'
import { cx } from '../internal/events'
import { trapTab } from '../internal/focus'
import { BackIcon, CheckAllIcon, CloseIcon, SettingsIcon } from '../internal/icons'
import { ErrorBanner, LiveRegion } from '../internal/parts'
import { useControllableState } from '../internal/hooks'
import { UIContext, useUI, visuallyHidden } from '../internal/ui'
import type { ActionHandler, ItemHelpers, NavigateHandler } from '../NotificationItem/NotificationItem'
import { PreferencesPanel } from '../PreferencesPanel/PreferencesPanel'
import { Toaster, type ToasterProps } from '../Toaster/Toaster'
import { InboxTabs, tabElementId } from './InboxTabs'
import type { InboxTab } from './InboxTabs'

export type { InboxTab } from './InboxTabs'

/** Where the popover opens relative to the Bell (logical: `end` is the right in LTR, the left in RTL). */
export type InboxPlacement = 'bottom-end' | 'bottom-start' | 'top-end' | 'top-start'

/** Props of the inbox UI (without the provider's). */
export interface InboxViewProps<P extends JsonObject = JsonObject>
  extends Omit<HTMLAttributes<HTMLDivElement>, 'children' | 'onChange'> {
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
  /** Marks the items in view as seen while the popover is open. @default true */
  markSeenOnOpen?: boolean
  /** Tabs after "All" and "Unread", each a feed filter. */
  tabs?: InboxTab[]
  /** Shows the settings button and the preferences view. @default true */
  showPreferences?: boolean
  /** Replaces each item's content (click, keyboard and read stay wired). */
  renderItem?: (item: FeedItem<P>, helpers: ItemHelpers) => ReactNode
  /** Replaces the Bell's icon and badge. */
  renderBell?: (props: BellRenderProps) => ReactNode
  /** Replaces the empty state. */
  renderEmpty?: () => ReactNode
  /** See {@link NavigateHandler}. */
  onNavigate?: NavigateHandler<P>
  /** See {@link ActionHandler}. */
  onAction?: ActionHandler<P>
  /** Runs first when an item is clicked; `preventDefault()` keeps it unread. */
  onItemClick?: FeedProps<P>['onItemClick']
  /** Feed page size. @default 20 */
  limit?: number
  /** Viewport size of the feed until it has a layout (server render, tests). */
  feedInitialRect?: ViewportRect
  /** Drops every visual rule: only structure, state attributes and class names remain. @default false */
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
  if (props.subscriberId === undefined) return <InboxView {...(view as InboxViewProps)} />
  return (
    <InboxProvider {...(provider as unknown as InboxProviderProps)}>
      <InboxView {...(view as InboxViewProps)} />
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

const InboxView = forwardRef(function InboxView<P extends JsonObject = JsonObject>({
  open: openProp,
  defaultOpen = false,
  onOpenChange,
  placement = 'bottom-end',
  countKind = 'unseen',
  titleCount = false,
  markSeenOnOpen = true,
  tabs: extraTabs,
  showPreferences = true,
  renderItem,
  renderBell,
  renderEmpty,
  onNavigate,
  onAction,
  onItemClick,
  limit,
  feedInitialRect,
  unstyled = false,
  toasts,
  className,
  ...rest
}: InboxViewProps<P>, ref: Ref<HTMLDivElement>): ReactElement {
  const { m, locale, root, c, child: scope, sync } = useUI('Inbox', unstyled)
  // Per instance: two inboxes under one provider open and close on their own.
  const [open, setOpen] = useControllableState(openProp, defaultOpen, onOpenChange)
  const [view, setView] = useState<'feed' | 'preferences'>('feed')
  const [tab, setTab] = useState('all')
  const bellRef = useRef<HTMLButtonElement>(null)
  const rootRef = useRef<HTMLDivElement>(null)
  useImperativeHandle(ref, () => rootRef.current!, [])
  const dialogRef = useRef<HTMLDivElement>(null)
  const id = useId()
  const titleId = `${id}-title`
  const panelId = `${id}-panel`

  const counts = useCounts()
  const unreadLabel = counts.unread > 0 ? formatCount(counts.unread, locale, 99, counts.unreadCapped) : undefined
  const tabs = useMemo<InboxTab[]>(
    () => [
      { id: 'all', label: m.tabAll, filter: {} },
      { id: 'unread', label: m.tabUnread, filter: { read: false }, count: unreadLabel },
      ...(extraTabs ?? []),
    ],
    [m.tabAll, m.tabUnread, extraTabs, unreadLabel],
  )
  const activeTab = tabs.find((t) => t.id === tab) ?? tabs[0]!

  const close = useCallback(
    (refocus: boolean) => {
      setOpen(false)
      setView('feed')
      if (refocus) bellRef.current?.focus()
    },
    [setOpen, setView],
  )

  // Focus moves into the dialog when it opens.
  useEffect(() => {
    if (open) dialogRef.current?.focus()
  }, [open])

  // Outside pointer closes; focus stays where the pointer put it when that is focusable.
  useEffect(() => {
    if (!open) return
    const doc = rootRef.current?.ownerDocument ?? document
    const onPointerDown = (event: PointerEvent | MouseEvent) => {
      const target = event.target as Element | null
      if (!target || rootRef.current?.contains(target)) return
      const focusable = !!target.closest?.('a[href], button, input, select, textarea, [tabindex]')
      close(!focusable)
    }
    doc.addEventListener('mousedown', onPointerDown, true)
    return () => doc.removeEventListener('mousedown', onPointerDown, true)
  }, [open, close])

  const onDialogKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      close(true)
      return
    }
    if (dialogRef.current) trapTab(dialogRef.current, event)
  }

  const markAll = useMarkAll('read')


  return (
    <UIContext.Provider value={scope}>
      <div
        ref={rootRef}
        {...root}
        className={cx('inbox', className)}
        data-state={open ? 'open' : 'closed'}
        {...rest}
      >
        <Bell
          ref={bellRef}
          countKind={countKind}
          titleCount={titleCount}
          open={open}
          renderBell={renderBell}
          aria-controls={open ? id : undefined}
          onClick={() => (open ? close(false) : setOpen(true))}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && open) close(true)
          }}
        />
        {open && (
          <div
            ref={dialogRef}
            id={id}
            role="dialog"
            aria-modal="true"
            aria-labelledby={titleId}
            tabIndex={-1}
            className={c('inbox-popover')}
            data-placement={placement}
            data-state="open"
            data-view={view}
            onKeyDown={onDialogKeyDown}
          >
            <div className={c('inbox-header')}>
              {view === 'preferences' && (
                <button
                  type="button"
                  className={c('inbox-icon-button')}
                  aria-label={m.backToFeed}
                  title={m.backToFeed}
                  onClick={() => setView('feed')}
                >
                  <BackIcon width={18} height={18} />
                </button>
              )}
              <h2 id={titleId} className={c('inbox-header__title')}>
                {view === 'preferences' ? m.preferencesTitle : m.inboxTitle}
              </h2>
              {view === 'feed' && (
                <div className={c('inbox-header__actions')}>
                  <button
                    type="button"
                    className={c('inbox-icon-button')}
                    aria-label={m.markAllAsRead}
                    title={m.markAllAsRead}
                    disabled={markAll.isPending || (counts.unread ?? 0) === 0}
                    onClick={() => void markAll.markAll()}
                  >
                    <CheckAllIcon width={18} height={18} />
                  </button>
                  {showPreferences && (
                    <button
                      type="button"
                      className={c('inbox-icon-button')}
                      aria-label={m.openPreferences}
                      title={m.openPreferences}
                      onClick={() => setView('preferences')}
                    >
                      <SettingsIcon width={18} height={18} />
                    </button>
                  )}
                </div>
              )}
              <button
                type="button"
                className={c('inbox-icon-button')}
                data-inbox-close=""
                aria-label={m.close}
                title={m.close}
                onClick={() => close(true)}
              >
                <CloseIcon width={18} height={18} />
              </button>
            </div>
            {markAll.error && view === 'feed' && (
              <ErrorBanner c={c} message={m.markAllError} dismissLabel={m.dismiss} onDismiss={markAll.reset} />
            )}
            {view === 'feed' ? (
              <>
                <InboxTabs
                  tabs={tabs}
                  value={activeTab.id}
                  onChange={setTab}
                  label={m.tabsLabel}
                  panelId={panelId}
                  idBase={id}
                  c={c}
                />
                <div
                  id={panelId}
                  role="tabpanel"
                  aria-labelledby={tabElementId(id, activeTab.id)}
                  className={c('inbox-popover__panel')}
                >
                  <Feed<P>
                    key={activeTab.id}
                    filter={activeTab.filter}
                    emptyVariant={activeTab.id === 'unread' ? 'unread' : 'all'}
                    limit={limit}
                    markSeenOnView={markSeenOnOpen}
                    renderItem={renderItem}
                    renderEmpty={renderEmpty}
                    onNavigate={onNavigate}
                    onAction={onAction}
                    onItemClick={onItemClick}
                    initialRect={feedInitialRect}
                  />
                </div>
              </>
            ) : (
              <div className={c('inbox-popover__panel')} data-scroll="">
                <PreferencesPanel />
              </div>
            )}
          </div>
        )}
        <LiveRegion unseen={counts.isLoading ? undefined : counts.unseen} />
        {toasts && <Toaster {...(toasts === true ? {} : toasts)} onOpen={() => setOpen(true)} />}
      </div>
    </UIContext.Provider>
  )
}) as <P extends JsonObject = JsonObject>(props: InboxViewProps<P> & RefAttributes<HTMLDivElement>) => ReactElement

