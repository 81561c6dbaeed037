import { forwardRef, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type {
  FocusEvent,
  HTMLAttributes,
  KeyboardEvent,
  MouseEvent,
  ReactElement,
  ReactNode,
  Ref,
  RefAttributes,
} from 'react'
import type { FeedItem, JsonObject } from '../../api/types'
import { dayKey, formatDayLabel } from '../../core/format'
import { useStore } from 'zustand'
import { useFeed } from '../../hooks/useFeed'
import { ledgerOf } from '../../core/ledger'
import { plural } from '../../i18n'
import { useNow, useUTC } from '../internal/clock'
import { ARROW_UP, INBOX_EMPTY } from '../internal/glyphs'
import { icon } from '../internal/icons'
import { button, Skeleton, StateMessage, TroubleNotice } from '../internal/parts'
import { LiveRegion } from '../internal/liveRegion'
import { useFocusKeeper } from '../internal/focus'
import { UIContext, useUI, visuallyHidden } from '../internal/ui'
import { NotificationItem } from '../NotificationItem/NotificationItem'
import type { ActionHandler, ItemHelpers, NavigateHandler } from '../NotificationItem/NotificationItem'
import { useVirtualRows } from './useVirtualRows'
import type { ViewportRect } from './useVirtualRows'

import type { FeedFilter } from '../../core/items'

export type { FeedFilter } from '../../core/items'

/** Props of {@link Feed}; the rest lands on its root `<div>`. */
export interface FeedProps<P extends object = JsonObject> extends Omit<
  HTMLAttributes<HTMLDivElement>,
  'children' | 'onClick' | 'onSelect'
> {
  /** Which items to list. @default {} (all) */
  filter?: FeedFilter | undefined
  /** Page size. @default 20 */
  limit?: number | undefined
  /** Replaces each item's content; the article keeps its click, keyboard and read behaviour. */
  renderItem?: ((item: FeedItem<P>, helpers: ItemHelpers) => ReactNode) | undefined
  /** Replaces the empty state. */
  renderEmpty?: (() => ReactNode) | undefined
  /** Replaces the error state. */
  renderError?: ((error: unknown, retry: () => void) => ReactNode) | undefined
  /** Replaces the loading skeleton. */
  renderLoading?: (() => ReactNode) | undefined
  /** See {@link NavigateHandler}. */
  onNavigate?: NavigateHandler<P> | undefined
  /** See {@link ActionHandler}. */
  onAction?: ActionHandler<P> | undefined
  /** Runs first when an item is clicked, its link too; `preventDefault()` keeps it unread and the link not followed. */
  onItemClick?: ((item: FeedItem<P>, event: MouseEvent<HTMLElement>) => void) | undefined
  /** Marks the items that come into view as seen. @default false */
  markSeenOnView?: boolean | undefined
  /** Day headers (Today, Yesterday, dates) when grouping by day. @default true */
  groupByDay?: boolean | undefined
  /**
   * How items are grouped: `'day'` puts day headers between them; a payload key or a function giving an item's
   * thread key gathers items of one key into a thread (its newest item, "Show N more", one "mark as read" for
   * all); items without a key stand alone. @default 'day'
   * @example <Feed groupBy="pullRequest" /> // items whose payload.pullRequest is equal form one thread
   */
  groupBy?: 'day' | (string & {}) | ((item: FeedItem<P>) => string | null | undefined)
  /** Renders an item's body (its `content` when it has a subject), e.g. as Markdown; text by default. */
  renderBody?: ((item: FeedItem<P>) => ReactNode) | undefined
  /** The selected item: it gets `aria-current` (the page layout's detail pane shows it). */
  selectedId?: string | null | undefined
  /** Makes items selectable: a click or Enter on an item selects it (and marks it read) instead of following its link. */
  onSelect?: ((item: FeedItem<P>) => void) | undefined
  /** Height assumed for an item before it is measured, in px. @default 88 */
  estimateSize?: number | undefined
  /** Rows rendered beyond each edge of the viewport. @default 4 */
  overscan?: number | undefined
  /** Viewport size used until the scroller has a layout (server render, tests). */
  initialRect?: ViewportRect | undefined
  /** Drops the kit's visual rules (when used outside an `<Inbox>`). */
  unstyled?: boolean | undefined
  /** Which empty message to show for the built-in tabs. */
  emptyVariant?: 'all' | 'unread' | undefined
}

/** A row of the list: a day's header (its `label`), or an item (a thread's newest: with the thread and its key). */
interface Row<P extends object> {
  key: string
  label?: string | undefined
  item?: FeedItem<P> | undefined
  thread?: FeedItem<P>[] | undefined
  group?: string | undefined
  child?: boolean | undefined
  /** A thread's unread items' ids. */
  unread?: string[] | undefined
}

const HEADER_SIZE = 36
const LOAD_MORE_ROWS = 5
const AT_TOP = 8

/**
 * The notification list: infinite scroll, day groups, loading, empty and error states, and a
 * "N new notifications" button when new items arrive while the reader is scrolled down.
 * Virtualized, so that a feed of 10,000 items renders only the rows in view.
 *
 * Keyboard: ArrowUp/ArrowDown, PageUp/PageDown, Home/End move between items; Enter opens the focused
 * item; `r` toggles it read/unread.
 * @example <InboxProvider subscriberId="u1" baseUrl="/api"><Feed filter={{ read: false }} /></InboxProvider>
 */
export const Feed = forwardRef(function Feed<P extends object = JsonObject>(
  {
    filter,
    limit = 20,
    renderItem,
    renderEmpty,
    renderError,
    renderLoading,
    onNavigate,
    onAction,
    onItemClick,
    markSeenOnView = false,
    groupByDay = true,
    groupBy = 'day',
    renderBody,
    selectedId,
    onSelect,
    estimateSize = 88,
    overscan = 4,
    initialRect,
    unstyled,
    emptyVariant,
    className,
    style,
    ...rest
  }: FeedProps<P>,
  ref: Ref<HTMLDivElement>,
): ReactElement {
  const { m, locale, root, c, child: scope, sync } = useUI('Feed', unstyled)
  const feed = useFeed<P>({ read: filter?.read, seen: filter?.seen, payload: filter?.payload, limit })
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the ledger's methods are closures, none reads `this`
  const markAs = ledgerOf(sync).markAs
  const trouble = useStore(sync.store, (s) => s.trouble)
  const now = useNow()
  const utc = useUTC()
  const { items, hasMore, isFetchingNextPage, fetchNextPage, isError, isLoading, error } = feed

  // Items that arrive above the first one shown stay hidden while the reader is scrolled down.
  const [anchorId, setAnchorId] = useState<string | null>(null)
  const [scrolledDown, setScrolledDown] = useState(false)
  const anchorIndex = useMemo(
    () => (anchorId === null ? -1 : items.findIndex((i) => i._id === anchorId)),
    [items, anchorId],
  )
  const hiddenCount = scrolledDown && anchorIndex > 0 ? anchorIndex : 0
  const shown = useMemo(() => (hiddenCount > 0 ? items.slice(hiddenCount) : items), [items, hiddenCount])
  const firstId = items[0]?._id ?? null
  useEffect(() => {
    // One more render, only when the first item changes.
    if (hiddenCount === 0 && firstId !== anchorId) setAnchorId(firstId)
  }, [firstId, hiddenCount, anchorId])

  const today = dayKey(now, utc)
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set())
  const threadOf =
    groupBy === 'day'
      ? null
      : typeof groupBy === 'function'
        ? groupBy
        : (item: FeedItem<P>) => {
            const value = (item.payload as JsonObject | undefined)?.[groupBy]
            if (value == null || typeof value === 'string') return value
            // A value nested too deep to write out (a hostile service's) stands alone rather than throw.
            try {
              return JSON.stringify(value)
            } catch {
              return null
            }
          }
  // The rows, the items they show (what the arrow keys move through: threads' hidden ones left out), their keys, and
  // where each item is among the rows and among the items shown: made once per list, so that a render (a scroll
  // step, a focus moved) looks up the rows it draws instead of searching all the loaded items for each.
  const { rows, listed, keys, rowAt, listedAt } = useMemo(() => {
    const rows: Row<P>[] = []
    const listed: FeedItem<P>[] = []
    const rowAt = new Map<string, number>()
    const listedAt = new Map<string, number>()
    const add = (row: Row<P>) => {
      const item = row.item
      if (item) {
        rowAt.set(item._id, rows.length)
        listedAt.set(item._id, listed.push(item) - 1)
      }
      rows.push(row)
    }
    let lastDay = ''
    const days = new Set<string>()
    const threads = new Map<string, FeedItem<P>[]>()
    if (threadOf)
      for (const item of shown) {
        const group = threadOf(item)
        if (group != null) threads.get(group)?.push(item) ?? threads.set(group, [item])
      }
    for (const item of shown) {
      const group = threadOf?.(item)
      const thread = group == null ? undefined : threads.get(group)
      if (thread && thread.length > 1) {
        // A thread sits where its newest item is (the feed is newest first).
        if (thread[0] === item) {
          const unread = thread.filter((i) => !i.read).map((i) => i._id)
          add({ key: item._id, item, thread, group: group!, unread })
          if (expanded.has(group!))
            for (const other of thread.slice(1)) add({ key: other._id, item: other, child: true })
        }
        continue
      }
      if (groupByDay && !threadOf) {
        const day = dayKey(item.createdAt, utc)
        if (day && day !== lastDay) {
          lastDay = day
          // Items out of date order (a misbehaving service's) bring a day back: its header again, with a key of its own.
          add({
            key: `day:${day}${days.has(day) ? item._id : ''}`,
            label: formatDayLabel(item.createdAt, now, locale, m, utc),
          })
          days.add(day)
        }
      }
      add({ key: item._id, item })
    }
    return { rows, listed, keys: rows.map((r) => r.key), rowAt, listedAt }
    // Day labels change only when the date does, not on every clock tick; `threadOf` is made anew from `groupBy`.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `today` stands for `now`, `groupBy` for `threadOf`
  }, [shown, groupByDay, groupBy, expanded, locale, m, today, utc])

  // Roving focus: one item is in the tab order; arrow keys move it.
  const [focusedId, setFocusedId] = useState<string | null>(null)
  const focusListed = focusedId !== null && listedAt.has(focusedId)
  const activeId = focusListed ? focusedId : (listed[0]?._id ?? null)
  const virtual = useVirtualRows({
    keys,
    // The item in the tab order stays rendered when it scrolls out of view: focus on it is not lost, and Tab
    // still reaches the feed.
    keep: activeId === null ? -1 : (rowAt.get(activeId) ?? -1),
    estimateSize: (i) => (rows[i]?.label != null ? HEADER_SIZE : estimateSize),
    overscan,
    initialRect,
  })
  const { rows: virtualRows, scrollTop, scrollToIndex, scrollElement } = virtual

  useEffect(() => {
    // The rows given to the virtualizer depend on it: no derivation in the same render.
    setScrolledDown(scrollTop > AT_TOP)
  }, [scrollTop])

  // Infinite scroll: fetch the next page when the rendered range nears the end.
  const lastRendered = virtualRows[virtualRows.length - 1]?.index ?? -1
  useEffect(() => {
    if (hasMore && !isFetchingNextPage && !isError && rows.length > 0 && lastRendered >= rows.length - LOAD_MORE_ROWS) {
      void fetchNextPage()
    }
  }, [hasMore, isFetchingNextPage, isError, fetchNextPage, lastRendered, rows.length])

  // Mark what is in view as seen, once per item, batched.
  const requestedSeen = useRef(new Set<string>())
  const { first: firstVisible, last: lastVisible } = virtual.visible
  useEffect(() => {
    if (!markSeenOnView) return
    const ids: string[] = []
    for (let i = firstVisible; i <= lastVisible; i++) {
      const item = rows[i]?.item
      if (item && !item.seen && !requestedSeen.current.has(item._id)) ids.push(item._id)
    }
    if (ids.length === 0) return
    const timer = setTimeout(() => {
      ids.forEach((id) => requestedSeen.current.add(id))
      // A change the reader did not make: a failure is not told on 40 rows, and not asked again while the
      // list is shown (no loop of writes while the service refuses them); the next opening asks again.
      void markAs(ids, 'seen', true)
    }, 150)
    return () => clearTimeout(timer)
  }, [markSeenOnView, firstVisible, lastVisible, rows, markAs])

  const pendingFocus = useRef<string | null>(null)
  const listRef = useRef<HTMLDivElement>(null)

  const itemElement = (id: string) =>
    Array.from(listRef.current?.querySelectorAll<HTMLElement>('[data-inbox-item]') ?? []).find(
      (a) => a.dataset.id === id,
    )
  const focusRendered = (id: string): boolean => {
    const el = itemElement(id)
    el?.focus()
    return !!el
  }

  // An item moved to by key stays whole in view for a second while the rows on the way are measured (their
  // heights were estimated when the scroll to it was worked out): checked after each render, before paint.
  const keep = useRef<{ id: string; until: number } | null>(null)
  /** Focus was on the error state's Try again, kept by the list meanwhile: to the first item, or Try again anew. */
  const afterRetry = useRef(false)
  useLayoutEffect(() => {
    if (pendingFocus.current !== null && focusRendered(pendingFocus.current)) pendingFocus.current = null
    if (afterRetry.current && !isLoading && scrollElement) {
      const doc = scrollElement.ownerDocument
      if (doc.activeElement !== scrollElement) afterRetry.current = false
      else if (listed[0] ? focusRendered(listed[0]._id) : !error) afterRetry.current = false
      else {
        const again = scrollElement.parentElement?.querySelector<HTMLElement>('.inbox-state[data-state="error"] button')
        if (again) (again.focus(), (afterRetry.current = false))
      }
    }
    const k = keep.current
    if (!k || !scrollElement) return
    if (performance.now() > k.until) return void (keep.current = null)
    const win = scrollElement.ownerDocument.defaultView
    if (!win?.requestAnimationFrame) return
    const frame = win.requestAnimationFrame(() => {
      const row = itemElement(k.id)?.parentElement
      if (!row) return
      const r = row.getBoundingClientRect()
      const v = scrollElement.getBoundingClientRect()
      if (r.bottom > v.bottom) scrollElement.scrollTop += Math.min(r.bottom - v.bottom, r.top - v.top)
      else if (r.top < v.top) scrollElement.scrollTop -= v.top - r.top
    })
    return () => win.cancelAnimationFrame(frame)
  })

  // Stable across renders (the row reads its own id), so that a row re-renders only when its item does.
  const shownRef = useRef({ listed, listedAt })
  shownRef.current = { listed, listedAt }
  const onRowFocus = useCallback((e: FocusEvent<HTMLElement>) => {
    if (e.target !== e.currentTarget) return
    const id = e.currentTarget.dataset.id ?? null
    setFocusedId(id)
  }, [])
  const activeRef = useRef(activeId)
  activeRef.current = activeId

  // Focus whose element goes moves on (focus.ts): from a row, to the one now in its place, else the one before,
  // else the list; from inside a row that stays (an answered action's buttons), to the row. From "N new", to the
  // first item, where it took the reader; from the Try again at the end, to the first item it brought; from the
  // rest (a banner's Try now, the error state's Try again), to the item in the tab order.
  const moreFrom = useRef(0)
  useFocusKeeper(scrollElement?.parentElement, (path) => {
    const was = (selector: string) => path.some((el) => el.matches(selector))
    if (was('[data-inbox-item]')) return null
    if (was('.inbox-state[data-state="error"]')) {
      // Already drawn in the same commit (the first item the retry brought, or a new Try again): there at once.
      const first = shownRef.current.listed[0]
      const there =
        (first && itemElement(first._id)) ??
        scrollElement?.parentElement?.querySelector<HTMLElement>('.inbox-state[data-state="error"] button')
      if (there) return there
      return ((afterRetry.current = true), scrollElement)
    }
    const { listed: list, listedAt } = shownRef.current
    const active = activeRef.current
    const item = was('[data-part="feed-new"]')
      ? list[0]
      : was('[data-part="feed-more"]')
        ? (list[moreFrom.current] ?? list[list.length - 1])
        : active === null
          ? undefined
          : list[listedAt.get(active) ?? -1]
    if (!item) return null
    setFocusedId(item._id)
    // Not rendered yet (the list scrolls to it): the list until it is.
    return itemElement(item._id) ?? ((pendingFocus.current = item._id), scrollElement)
  })
  const clickRef = useRef(onItemClick)
  clickRef.current = onItemClick
  const selectRef = useRef(onSelect)
  selectRef.current = onSelect
  const onRowOpen = useCallback((item: FeedItem) => selectRef.current?.(item as FeedItem<P>), [])
  const onRowClick = useCallback((e: MouseEvent<HTMLElement>) => {
    const { listed, listedAt } = shownRef.current
    const item = listed[listedAt.get(e.currentTarget.dataset.id ?? '') ?? -1]
    if (item) clickRef.current?.(item, e)
  }, [])

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const article = event.target as HTMLElement
    if (!article.hasAttribute('data-inbox-item') || event.altKey || event.ctrlKey || event.metaKey) return
    const current = listedAt.get(article.dataset.id ?? '') ?? -1
    const page = Math.max(1, Math.floor(virtual.viewportHeight / estimateSize))
    const next = (
      {
        ArrowDown: current + 1,
        ArrowUp: current - 1,
        PageDown: current + page,
        PageUp: current - page,
        Home: 0,
        End: listed.length - 1,
      } as Record<string, number>
    )[event.key]
    if (next === undefined) return
    event.preventDefault()
    const target = listed[Math.max(0, Math.min(listed.length - 1, next))]
    if (!target) return
    setFocusedId(target._id)
    keep.current = { id: target._id, until: performance.now() + 1000 }
    // Going up, the day's label just above the item comes into view with it (Home shows the top of the list).
    const at = rowAt.get(target._id)!
    scrollToIndex(next <= current && at > 0 && !rows[at - 1]!.item ? at - 1 : at)
    if (!focusRendered(target._id)) pendingFocus.current = target._id
  }

  let content: ReactNode
  if (isLoading) {
    content = renderLoading ? renderLoading() : <Skeleton c={c} label={m.loading} rows={4} lines={3} avatar />
  } else if (error && items.length === 0) {
    content = renderError ? renderError(error, () => void feed.refetch()) : <TroubleNotice error={error} c={c} />
  } else if (items.length === 0) {
    content = renderEmpty ? (
      renderEmpty()
    ) : (
      <StateMessage
        c={c}
        state="empty"
        icon={icon(INBOX_EMPTY, { width: 24, height: 24, strokeWidth: 1.5 })}
        title={(emptyVariant ?? (filter?.read === false && 'unread')) === 'unread' ? m.emptyUnreadTitle : m.emptyTitle}
        body={m.emptyBody}
      />
    )
  } else {
    // All pages in, the size is what is listed (without threads, every item shown); before that, the service's
    // count less the items held back, unless threads fold items together: then it is unknown.
    // (A service's count that is no whole number, or fewer than are listed, is read as what it can mean.)
    const counted = Math.floor(feed.totalCount ?? NaN) - hiddenCount
    const setSize = !hasMore
      ? listed.length
      : !threadOf && Number.isSafeInteger(counted)
        ? Math.max(counted, listed.length)
        : -1
    content = (
      // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- the feed pattern: keys move between its articles
      <div
        ref={listRef}
        role="feed"
        aria-label={m.feedLabel}
        aria-busy={isFetchingNextPage}
        {...c('inbox-feed__list')}
        style={{ position: 'relative', height: virtual.totalSize }}
        onKeyDown={onKeyDown}
      >
        {virtualRows.map(({ index, start }) => {
          const row = rows[index]!
          const { item, thread, group, unread } = row
          const open = thread && expanded.has(group!)
          return (
            <div
              key={row.key}
              data-index={index}
              ref={virtual.measureRef}
              {...c('inbox-feed__row')}
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${start}px)` }}
            >
              {item ? (
                <NotificationItem
                  item={item as FeedItem}
                  tabIndex={item._id === activeId ? 0 : -1}
                  aria-posinset={listedAt.get(item._id)! + 1}
                  aria-setsize={setSize}
                  aria-current={item._id === selectedId || undefined}
                  data-thread={thread?.length}
                  data-thread-child={row.child ? '' : undefined}
                  onFocus={onRowFocus}
                  // In the capture phase: before the item's link follows itself and marks the item read.
                  onClickCapture={onRowClick}
                  onOpen={onSelect ? onRowOpen : undefined}
                  onNavigate={onNavigate as NavigateHandler | undefined}
                  onAction={onAction as ActionHandler | undefined}
                  render={renderItem as ((item: FeedItem, h: ItemHelpers) => ReactNode) | undefined}
                  renderBody={renderBody as ((item: FeedItem) => ReactNode) | undefined}
                  footer={
                    // A thread's controls under its newest item: show or hide the others, and mark all of it read in one request.
                    unread && (
                      <div
                        {...c('inbox-thread')}
                        data-unread={unread.length ? '' : undefined}
                        data-state={open ? 'open' : 'closed'}
                      >
                        {button(
                          c,
                          'ghost',
                          () =>
                            setExpanded((set) => {
                              const next = new Set(set)
                              if (!next.delete(group!)) next.add(group!)
                              return next
                            }),
                          open ? m.threadLess : plural(m.threadMore, thread!.length - 1, locale),
                          open,
                        )}
                        {unread.length > 0 &&
                          button(
                            c,
                            'ghost',
                            () => void markAs(unread, 'read'),
                            plural(m.threadMarkRead, unread.length, locale),
                          )}
                      </div>
                    )
                  }
                />
              ) : (
                <div {...c('inbox-feed__day')} aria-hidden="true">
                  {row.label}
                </div>
              )}
            </div>
          )
        })}
      </div>
    )
  }

  return (
    <UIContext.Provider value={scope}>
      <div
        ref={ref}
        {...root}
        {...c('inbox-feed', className)}
        data-state={isLoading ? 'loading' : isError ? 'error' : 'ready'}
        style={{ display: 'flex', flexDirection: 'column', minHeight: 0, position: 'relative', ...style }}
        {...rest}
      >
        {hiddenCount > 0 && (
          <button
            type="button"
            {...c('inbox-feed__new')}
            onClick={() => {
              setAnchorId(firstId)
              setScrolledDown(false)
              if (scrollElement) scrollElement.scrollTop = 0
              scrollToIndex(0, 'start')
            }}
          >
            {icon(ARROW_UP, { width: 14, height: 14 })}
            {plural(m.newNotifications, hiddenCount, locale)}
          </button>
        )}
        {'data-inbox-root' in root && <LiveRegion />}
        {trouble && items.length > 0 && <TroubleNotice error={trouble.error} c={c} banner />}
        <div
          ref={virtual.scrollRef}
          tabIndex={-1}
          {...c('inbox-feed__scroller')}
          style={{ overflowY: 'auto', overflowAnchor: 'none', position: 'relative', flex: '1 1 auto', minHeight: 0 }}
        >
          {content}
          {isFetchingNextPage && (
            <div {...c('inbox-feed__more')} role="status">
              <span {...c('inbox-spinner')} aria-hidden="true" />
              <span style={visuallyHidden}>{m.loadingMore}</span>
            </div>
          )}
          {isError && items.length > 0 && (
            <div {...c('inbox-feed__more')} role="alert">
              <span>{m.errorTitle}</span>
              {button(
                c,
                'ghost',
                () => {
                  moreFrom.current = listed.length
                  void fetchNextPage()
                },
                m.retry,
              )}
            </div>
          )}
        </div>
      </div>
    </UIContext.Provider>
  )
}) as <P extends object = JsonObject>(props: FeedProps<P> & RefAttributes<HTMLDivElement>) => ReactElement
