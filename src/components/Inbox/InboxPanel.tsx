import { useEffect, useId, useMemo, useRef, useState } from 'react'
import type { KeyboardEvent, ReactElement, ReactNode } from 'react'
import type { FeedItem, JsonObject } from '../../api/types'
import { formatCount } from '../../i18n'
import { useCounts } from '../../hooks/useCounts'
import { useMarkAll } from '../../hooks/useMarkAs'
import { Feed } from '../Feed/Feed'
import type { FeedProps } from '../Feed/Feed'
import type { ViewportRect } from '../Feed/useVirtualRows'
import { BACK, CHECK_ALL, SETTINGS } from '../internal/glyphs'
import { icon, type IconProps } from '../internal/icons'
import { ErrorBanner, iconButton, Skeleton, StateMessage } from '../internal/parts'
import { useFocusKeeper } from '../internal/focus'
import { loader, useLoaded } from '../internal/lazy'
import { useUI } from '../internal/ui'

import type { ActionHandler, ItemHelpers, NavigateHandler } from '../NotificationItem/NotificationItem'
import type { InboxTab } from './InboxTabs'
import { InboxClose, InboxHeader, useInRoot } from './parts'

const settingsCode = /* @__PURE__ */ loader(() => import('../PreferencesPanel/PreferencesPanel'))
const preload = () => void settingsCode.load().catch(() => {})

/** What the feed and settings views of every inbox shape (popover, inline, page) take. */
export interface InboxPanelProps<P extends object = JsonObject> {
  /** Marks the items in view as seen. @default true */
  markSeenOnOpen?: boolean | undefined
  /** Tabs after "All" and "Unread", each a feed filter. */
  tabs?: InboxTab[] | undefined
  /** Shows the settings button and the settings view. @default true */
  showPreferences?: boolean | undefined
  /**
   * More of the settings view, below the preferences: `<TopicSubscriptions />` lists the subscriber's topics
   * there (an inbox without it does not load its code).
   * @example <Inbox settings={<TopicSubscriptions />} />
   */
  settings?: ReactNode | undefined
  /** Replaces each item's content (click, keyboard and read stay wired). */
  renderItem?: ((item: FeedItem<P>, helpers: ItemHelpers) => ReactNode) | undefined
  /** Renders an item's body (its `content` when it has a subject), e.g. as Markdown; text by default. */
  renderBody?: FeedProps<P>['renderBody'] | undefined
  /** Replaces the empty state. */
  renderEmpty?: (() => ReactNode) | undefined
  /** Groups the feed: by `'day'`, a payload key, or a function giving each item's thread key. @default 'day' */
  groupBy?: FeedProps<P>['groupBy'] | undefined
  /** See {@link NavigateHandler}. */
  onNavigate?: NavigateHandler<P> | undefined
  /** See {@link ActionHandler}. */
  onAction?: ActionHandler<P> | undefined
  /** Runs first when an item is clicked, its link too; `preventDefault()` keeps it unread and the link not followed. */
  onItemClick?: FeedProps<P>['onItemClick'] | undefined
  /** Feed page size. @default 20 */
  limit?: number | undefined
  /** Viewport size of the feed until it has a layout (server render, tests). */
  feedInitialRect?: ViewportRect | undefined
}

/**
 * The header, tabs and feed of an inbox, with its settings view one button away. Shared by the popover and
 * the layouts; `select` makes items selectable (the page layout).
 */
export function InboxPanel<P extends object = JsonObject>({
  markSeenOnOpen = true,
  tabs: extraTabs,
  showPreferences = true,
  settings,
  feedInitialRect,
  // The rest are the feed's own props (the shapes pass only the panel's: see panelProps.ts).
  ...feedProps
}: InboxPanelProps<P> & Pick<FeedProps<P>, 'selectedId' | 'onSelect'>): ReactElement {
  const { m, locale, c } = useUI('Inbox')
  const [view, setView] = useState<'feed' | 'preferences'>('feed')
  const [tab, setTab] = useState('all')
  const id = useId()
  const panelId = `${id}-panel`
  const closable = useInRoot()
  const counts = useCounts()
  const markAll = useMarkAll('read')
  const unreadLabel = counts.unread > 0 ? formatCount(counts.unread, locale, 99, counts.unreadCapped) : undefined
  const tabs = useMemo<InboxTab[]>(
    () => [
      { id: 'all', label: m.tabAll, filter: {} },
      { id: 'unread', label: m.tabUnread, filter: { read: false }, count: unreadLabel },
      ...(extraTabs ?? []),
    ],
    [m.tabAll, m.tabUnread, extraTabs, unreadLabel],
  )
  const active = tabs.find((t) => t.id === tab) ?? tabs[0]!
  const feed = view === 'feed'
  const size = { width: 18, height: 18 }
  // The settings button and the back button take each other's place: focus goes from one to the other.
  const viewButton = useRef<HTMLButtonElement>(null)
  const switched = useRef(false)
  const show = (next: typeof view) => {
    switched.current = true
    setView(next)
  }
  useEffect(() => {
    if (switched.current) viewButton.current?.focus()
    switched.current = false
  }, [view])
  // Focus whose element goes outside the feed (the mark-all error's Dismiss, the settings' Try again) moves on to
  // Mark all as read, or in the settings view to the back button (focus.ts). The panel has no element of its own:
  // the one around its header (the dialog, the inline inbox, the page's list) is its region.
  const markAllButton = useRef<HTMLButtonElement>(null)
  const [header, setHeader] = useState<HTMLDivElement | null>(null)
  useFocusKeeper(header?.parentElement, () => markAllButton.current ?? viewButton.current)
  // Disabled for the pointer and announced so, but still focusable: a press that empties the list keeps focus.
  const markAllOff = markAll.isPending || counts.unread === 0

  return (
    <>
      <InboxHeader ref={setHeader} title={feed ? m.inboxTitle : m.preferencesTitle} data-view={view}>
        {feed ? (
          <div {...c('inbox-header__actions')}>
            {iconButton(c, m.markAllAsRead, icon(CHECK_ALL, size), () => void (markAllOff || markAll.markAll()), {
              'aria-disabled': markAllOff || undefined,
              ref: markAllButton,
            })}
            {showPreferences &&
              // The settings view is a module of its own, fetched when its button is first pointed at or focused.
              iconButton(c, m.openPreferences, icon(SETTINGS, size), () => show('preferences'), {
                ref: viewButton,
                onPointerEnter: preload,
                onFocus: preload,
              })}
          </div>
        ) : (
          iconButton(c, m.backToFeed, icon(BACK, { ...size, 'data-inbox-flip': '' } as IconProps), () => show('feed'), {
            ref: viewButton,
          })
        )}
        {closable && <InboxClose data-inbox-close="" />}
      </InboxHeader>
      {markAll.error && feed && (
        <ErrorBanner c={c} message={m.markAllError} dismissLabel={m.dismiss} onDismiss={markAll.reset} />
      )}
      {feed ? (
        <>
          {/* The tabs: arrow keys move between them (reversed in right-to-left layouts), and Home and End. */}
          {/* eslint-disable-next-line jsx-a11y/interactive-supports-focus -- focus goes to its tabs (one in the tab order), as the tabs pattern has it */}
          <div
            role="tablist"
            aria-label={m.tabsLabel}
            {...c('inbox-tabs')}
            onKeyDown={(event: KeyboardEvent<HTMLDivElement>) => {
              const n = tabs.length
              const index = tabs.findIndex((t) => t.id === active.id)
              const el = event.currentTarget
              const step =
                el.closest('[dir]')?.getAttribute('dir') === 'rtl' || getComputedStyle(el).direction === 'rtl' ? -1 : 1
              const next = (
                { ArrowRight: index + step, ArrowLeft: index - step, Home: 0, End: -1 } as Record<string, number>
              )[event.key]
              if (next === undefined) return
              event.preventDefault()
              // Around from either end.
              const i = (next + n) % n
              setTab(tabs[i]!.id)
              el.querySelectorAll<HTMLElement>('[role="tab"]')[i]?.focus()
            }}
          >
            {tabs.map((t) => {
              const selected = t.id === active.id
              return (
                <button
                  key={t.id}
                  id={`${id}-${t.id}`}
                  type="button"
                  role="tab"
                  {...c('inbox-tabs__tab')}
                  aria-selected={selected}
                  aria-controls={panelId}
                  tabIndex={selected ? 0 : -1}
                  data-state={selected ? 'active' : 'inactive'}
                  onClick={() => setTab(t.id)}
                >
                  {t.label}
                  {t.count && <span {...c('inbox-tabs__count')}>{t.count}</span>}
                </button>
              )
            })}
          </div>
          <div id={panelId} role="tabpanel" aria-labelledby={`${id}-${active.id}`} {...c('inbox-popover__panel')}>
            <Feed<P>
              key={active.id}
              {...feedProps}
              filter={active.filter}
              emptyVariant={active.id === 'unread' ? 'unread' : 'all'}
              markSeenOnView={markSeenOnOpen}
              initialRect={feedInitialRect}
            />
          </div>
        </>
      ) : (
        <div {...c('inbox-popover__panel')} data-scroll="">
          <Settings />
          {settings}
        </div>
      )}
    </>
  )
}

/**
 * The preferences once their code is there, a skeleton until then; if it could not be fetched, says so with a
 * button that tries again (offline, it tries again by itself once back online).
 */
function Settings(): ReactElement {
  const { m, c } = useUI('InboxPanel')
  const [loaded, failed, retry] = useLoaded(settingsCode)
  if (loaded) return <loaded.PreferencesPanel />
  const online = navigator.onLine
  return failed ? (
    <StateMessage
      c={c}
      state="error"
      title={m.preferencesLoadError}
      body={online ? undefined : m.troubleOffline}
      action={online ? { label: m.retry, onClick: retry } : undefined}
      kind={online ? undefined : 'offline'}
    />
  ) : (
    <Skeleton c={c} label={m.loading} rows={3} lines={2} />
  )
}
