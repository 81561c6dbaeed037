import { forwardRef, useEffect, useId, useRef, useState } from 'react'
import type { FocusEvent, HTMLAttributes, KeyboardEvent, ReactElement, ReactNode, Ref, RefAttributes } from 'react'
import type { FeedItem, JsonObject } from '../../api/types'
import { useFeed } from '../../hooks/useFeed'
import { InboxPanel } from '../Inbox/InboxPanel'
import { splitPanelProps } from '../Inbox/panelProps'
import type { InboxPanelProps } from '../Inbox/InboxPanel'
import { LabelContext } from '../Inbox/root'
import { useNow } from '../internal/clock'
import { useFocusKeeper } from '../internal/focus'
import { useControllableState } from '../internal/hooks'
import { BACK } from '../internal/glyphs'
import { icon, type IconProps } from '../internal/icons'
import { ItemTime } from '../internal/parts'
import { itemActions } from '../NotificationItem/actions'
import { titleAndBody } from '../internal/text'
import { LiveRegion } from '../internal/liveRegion'
import { UIContext, useUI } from '../internal/ui'
import { ledgerOf } from '../../core/ledger'
import { safeUrl } from '../internal/url'

/** Pages loaded past the first for a selected item not yet listed, before the list is left as it is. */
const MORE_PAGES = 10

/** Props of {@link InboxPage}; the rest lands on its root `<div>`. */
export interface InboxPageProps<P extends object = JsonObject>
  extends Omit<HTMLAttributes<HTMLDivElement>, 'children' | 'onSelect'>, InboxPanelProps<P> {
  /** The selected notification's id (controlled): keep it in your URL. `null` for none. */
  selectedId?: string | null | undefined
  /** The initially selected id when uncontrolled. @default null */
  defaultSelectedId?: string | null | undefined
  /** Called with the id the reader selects, or `null` when they go back to the list. */
  onSelect?: ((id: string | null) => void) | undefined
  /**
   * Replaces the detail pane's content for the selected item. The pane, named by the item's title, then takes the
   * focus the default content's heading would (on selecting, or when the focused element inside it goes).
   */
  renderDetail?: ((item: FeedItem<P>) => ReactNode) | undefined
  /** Drops every visual rule: parts keep their classes, `data-part` and state attributes. @default false */
  unstyled?: boolean | undefined
}

/**
 * A full-page inbox: the list beside a detail pane on wide screens; one pane at a time, with a back button,
 * where the page is narrow (under 640 px of its own width). The selection is yours to keep in the URL
 * (`selectedId` / `onSelect`). The detail shows the notification's action buttons as its row does (`onAction`),
 * its link (through `onNavigate`) and a mark-as button.
 *
 * Keyboard: the list as in the popover (arrows, Home/End, `r`); Enter or a click selects an item, marks it
 * read and moves focus to the detail's heading; Escape or the back button returns focus to that item, as does
 * the app clearing `selectedId` (the browser's Back) while focus was in the detail.
 * @example <InboxPage selectedId={params.id ?? null} onSelect={(id) => navigate(id ? `/inbox/${id}` : '/inbox')} />
 */
export const InboxPage = /* @__PURE__ */ forwardRef(function InboxPage<P extends object = JsonObject>(
  { selectedId, defaultSelectedId = null, onSelect, renderDetail, unstyled, className, ...props }: InboxPageProps<P>,
  ref: Ref<HTMLDivElement>,
): ReactElement {
  const { m, root, c, child } = useUI('InboxPage', unstyled)
  const [selected, setSelected] = useControllableState<string | null>(selectedId, defaultSelectedId, onSelect)
  const [panel, rest] = splitPanelProps(props)
  const titleId = useId()
  // The detail shows the item as the list knows it now (read state included), or as it was when picked.
  const all = useFeed<P>({ limit: panel.limit as number | undefined })
  const [picked, setPicked] = useState<FeedItem<P> | null>(null)
  const item = all.items.find((i) => i._id === selected) ?? (picked?._id === selected ? picked : null)
  // A link to an item further down the feed than is loaded (the API has no read by id): the pages before it are
  // loaded, up to MORE_PAGES for one link, for the detail to show it.
  const sought = useRef({ id: selected, pages: 0 })
  const { items, hasMore, isFetchingNextPage, isError, fetchNextPage } = all
  useEffect(() => {
    if (!selected || item || !hasMore || isFetchingNextPage || isError) return
    if (sought.current.id !== selected) sought.current = { id: selected, pages: 0 }
    if (sought.current.pages++ < MORE_PAGES) void fetchNextPage()
    // Each page that comes (a fetch can start and end between two renders): the next.
  }, [selected, item, items, hasMore, isFetchingNextPage, isError, fetchNextPage])
  const listRef = useRef<HTMLElement>(null)
  const headingRef = useRef<HTMLHeadingElement>(null)
  const focusNext = useRef<string | null>(null)
  /**
   * The item the reader picked, whose heading takes focus once the detail shows it: at once, or when the app's
   * router brings the selection back a moment later.
   */
  const picking = useRef<string | null>(null)
  const [, rerender] = useState(0)
  const [detail, setDetail] = useState<HTMLElement | null>(null)
  // The item the detail showed at the last render, and whether focus was last in the page.
  const shown = useRef<string | null>(null)
  const inPage = useRef(false)
  const tracksFocus = {
    onFocus: () => void (inPage.current = true),
    // Focus gone nowhere (its element removed or hidden, the window left) is still the page's.
    onBlur: (event: FocusEvent<HTMLElement>) => {
      if (event.relatedTarget) inPage.current = !!event.currentTarget.parentElement?.contains(event.relatedTarget)
    },
  }

  useEffect(() => {
    let target = focusNext.current
    focusNext.current = null
    const now = item?._id ?? null
    if (picking.current !== null && picking.current === now) ((picking.current = null), (target = ''))
    // The app changed the selection (the browser's Back or Forward, a link of its own) and took the focused
    // element with it: the detail, or where one pane shows, the list (hidden, it loses focus a frame later).
    // Focus goes where the reader now is: the detail's heading, or the item whose detail went away, as with Escape.
    const lost = document.activeElement
    if (
      target === null &&
      now !== shown.current &&
      inPage.current &&
      (!lost || lost === document.body || (lost as HTMLElement).checkVisibility?.() === false)
    )
      target = now === null ? shown.current : ''
    shown.current = now
    // '' is the detail's heading (the pane itself for a `renderDetail`'s, which has none); an id is that item in the list.
    if (target === '') (headingRef.current ?? detail)?.focus()
    else if (target)
      listRef.current?.querySelector<HTMLElement>(`[data-inbox-item][data-id="${CSS.escape(target)}"]`)?.focus()
  })

  // Focus whose element goes in the detail (an answered action's buttons) moves on to the detail's heading, or
  // the pane of a `renderDetail` (focus.ts); when the detail itself goes, the effect above has it.
  useFocusKeeper(detail, () => headingRef.current ?? detail)

  const back = () => {
    // Where only one pane shows, going back shows the list again; beside it, the selection stays.
    if (listRef.current?.checkVisibility?.() === false) setSelected(null)
    focusNext.current = selected
    rerender((n) => n + 1)
  }

  return (
    <UIContext.Provider value={child}>
      <div
        ref={ref}
        {...root}
        {...c('inbox-page', className)}
        // Only an item there is to show takes the list's place: a link to one that is not (yet) listed (deleted,
        // another subscriber's, older than the pages looked through) leaves the list in view rather than an empty
        // pane with no way back.
        data-selected={item ? '' : undefined}
        {...rest}
      >
        <LabelContext.Provider value={titleId}>
          <section ref={listRef} {...c('inbox-page__list')} aria-labelledby={titleId} {...tracksFocus}>
            <InboxPanel<P>
              {...panel}
              selectedId={selected}
              onSelect={(next) => {
                setPicked(next)
                picking.current = next._id
                setSelected(next._id)
              }}
            />
          </section>
        </LabelContext.Provider>
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- Escape from within goes back to the list */}
        <section
          ref={setDetail}
          {...c('inbox-detail')}
          // Named by the item shown; empty, it is no landmark (the list already bears the inbox's name). A
          // `renderDetail`'s has no heading of the kit's: the pane, named by the item's title, takes focus instead.
          aria-labelledby={item && !renderDetail ? `${titleId}-detail` : undefined}
          aria-label={item && renderDetail ? titleAndBody(item, m.untitled).title : undefined}
          tabIndex={item && renderDetail ? -1 : undefined}
          data-state={item ? 'open' : 'empty'}
          {...tracksFocus}
          onKeyDown={(event: KeyboardEvent) => {
            if (event.key !== 'Escape' || event.defaultPrevented) return
            event.preventDefault()
            back()
          }}
        >
          {item ? (
            <>
              <button
                type="button"
                {...c('inbox-icon-button')}
                data-inbox-back=""
                aria-label={m.backToFeed}
                title={m.backToFeed}
                onClick={back}
              >
                {icon(BACK, { width: 18, height: 18, 'data-inbox-flip': '' } as IconProps)}
              </button>
              {renderDetail ? (
                renderDetail(item)
              ) : (
                <Detail
                  item={item}
                  id={`${titleId}-detail`}
                  headingRef={headingRef}
                  renderBody={panel.renderBody as InboxPanelProps<P>['renderBody']}
                  onNavigate={panel.onNavigate as InboxPanelProps<P>['onNavigate']}
                  onAction={panel.onAction as InboxPanelProps<P>['onAction']}
                />
              )}
            </>
          ) : (
            <p {...c('inbox-detail__empty')}>{m.detailEmpty}</p>
          )}
        </section>
        <LiveRegion counts />
      </div>
    </UIContext.Provider>
  )
}) as <P extends object = JsonObject>(props: InboxPageProps<P> & RefAttributes<HTMLDivElement>) => ReactElement

function Detail<P extends object>({
  item,
  id,
  headingRef,
  renderBody,
  onNavigate,
  onAction,
}: {
  item: FeedItem<P>
  id: string
  headingRef: Ref<HTMLHeadingElement>
  renderBody?: InboxPanelProps<P>['renderBody'] | undefined
  onNavigate?: InboxPanelProps<P>['onNavigate'] | undefined
  onAction?: InboxPanelProps<P>['onAction'] | undefined
}): ReactElement {
  const { m, locale, c, sync } = useUI('InboxPage')
  const now = useNow()
  const href = safeUrl(item.cta?.data?.url)
  const { title, body } = titleAndBody(item, m.untitled)
  return (
    <article {...c('inbox-detail__item')} data-unread={item.read ? undefined : ''}>
      <h2 ref={headingRef} id={id} tabIndex={-1} {...c('inbox-detail__title')} dir="auto">
        {title}
      </h2>
      <ItemTime at={item.createdAt} now={now} locale={locale} c={c} />
      {body && (
        <div {...c('inbox-detail__body')} dir="auto">
          {renderBody ? renderBody(item) : body}
        </div>
      )}
      {itemActions(c, 'inbox-detail', item, onAction, m.actionDone)}
      <div {...c('inbox-item__actions')}>
        {href !== null && (
          // The only way to the link where items are selected rather than followed: the app's router takes it too.
          <a {...c('inbox-button')} href={href} onClick={(event) => onNavigate?.(href, item, event)}>
            {m.openLink}
          </a>
        )}
        <button
          type="button"
          {...c('inbox-button')}
          data-variant="secondary"
          onClick={() => void ledgerOf(sync).markAs(item._id, item.read ? 'unread' : 'read')}
        >
          {item.read ? m.markAsUnread : m.markAsRead}
        </button>
      </div>
    </article>
  )
}
