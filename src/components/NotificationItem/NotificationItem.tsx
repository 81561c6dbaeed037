import { forwardRef, memo, useId, useMemo } from 'react'
import type { HTMLAttributes, KeyboardEvent, MouseEvent, ReactElement, ReactNode } from 'react'
import type { FeedItem, JsonObject, MessageButton } from '../../api/types'
import { useStore } from 'zustand'
import { useNow } from '../internal/clock'
import { compose } from '../internal/events'
import { ALERT, ENVELOPE, ENVELOPE_OPEN } from '../internal/glyphs'
import { icon } from '../internal/icons'
import { button, iconButton, ItemTime } from '../internal/parts'
import { useUI, visuallyHidden } from '../internal/ui'
import { ledgerOf } from '../../core/ledger'
import { titleAndBody } from '../internal/text'
import { safeUrl } from '../internal/url'
import { itemActions } from './actions'
import { Avatar } from './Avatar'

/** Called when the reader follows an item's link; `preventDefault()` keeps the browser from navigating (for a SPA router). */
export type NavigateHandler<P extends object = JsonObject> = (
  url: string,
  item: FeedItem<P>,
  event: MouseEvent<HTMLAnchorElement>,
) => void

/** Called when the reader presses one of an item's action buttons. */
export type ActionHandler<P extends object = JsonObject> = (
  button: MessageButton,
  item: FeedItem<P>,
  event: MouseEvent<HTMLButtonElement>,
) => void

/** What a custom item renderer gets: the item and its wired actions. */
export interface ItemHelpers {
  markAsRead(): Promise<void>
  markAsUnread(): Promise<void>
  toggleRead(): Promise<void>
  /** Marks the item read; a custom renderer links to `href` itself. */
  open(): void
  /** The CTA URL when it is safe to follow (http(s) or relative), else null. */
  href: string | null
}

/** Props of {@link NotificationItem}; the rest lands on the `<article>`. */
export interface NotificationItemProps<P extends object = JsonObject> extends Omit<
  HTMLAttributes<HTMLElement>,
  'children'
> {
  /** The feed item to show. */
  item: FeedItem<P>
  /** See {@link NavigateHandler}. */
  onNavigate?: NavigateHandler<P> | undefined
  /** See {@link ActionHandler}. */
  onAction?: ActionHandler<P> | undefined
  /** Replaces the item's content while the article keeps its click, keyboard and read behaviour. */
  render?: ((item: FeedItem<P>, helpers: ItemHelpers) => ReactNode) | undefined
  /** Renders the body (the `content` when there is a subject), e.g. as Markdown; text by default. */
  renderBody?: ((item: FeedItem<P>) => ReactNode) | undefined
  /** Replaces what a click or Enter does (follow the link): called with the item, which is marked read too. */
  onOpen?: ((item: FeedItem<P>) => void) | undefined
  /** Shown at the end of the item (a thread's controls, in the Feed). */
  footer?: ReactNode | undefined
  /** Drops the kit's visual rules (when used outside an `<Inbox>`). */
  unstyled?: boolean | undefined
}

/** The dot of the "mark as unread" envelope. */
const DOT = <circle cx="19" cy="6" r="2.5" fill="currentColor" stroke="none" />

function isInteractive(target: EventTarget | null, root: Element): boolean {
  const el = target as Element | null
  const hit = el?.closest?.('a, button, input, select, textarea, label')
  return !!hit && hit !== root && root.contains(hit)
}

/**
 * One notification as an `<article>`: avatar, subject, content (as text), relative time, unread and
 * unseen marks, a read/unread toggle, the CTA link and action buttons.
 *
 * Clicking the item marks it read; Enter opens it (follows its link, or marks it read); `r` toggles read.
 * `data-unread`, `data-unseen` and `data-pending` show its state.
 * @example <NotificationItem item={item} onNavigate={(url, _, e) => { e.preventDefault(); router.push(url) }} />
 */
export const NotificationItem = /* @__PURE__ */ memo(
  forwardRef<HTMLElement, NotificationItemProps>(function NotificationItem(
    {
      item,
      onNavigate,
      onAction,
      render,
      renderBody,
      onOpen,
      footer,
      unstyled,
      className,
      onClick,
      onKeyDown,
      ...rest
    },
    ref,
  ): ReactElement {
    const { m, locale, root, c, sync } = useUI('NotificationItem', unstyled)
    const { store } = sync
    // Read per item from the provider, so a failure is still told when the row comes back into view.
    const pending = useStore(store, (s) => s.writes.some((w) => !w.ids || w.ids.has(item._id)))
    const failure = useStore(store, (s) => s.failures.get(item._id))
    const ledger = ledgerOf(sync)
    // eslint-disable-next-line @typescript-eslint/unbound-method -- the ledger's methods are closures, none reads `this`
    const markAs = ledger.markAs
    const now = useNow()
    const id = useId()
    const href = safeUrl(item.cta?.data?.url)
    const { read } = item

    // Stable while the item is the same one, for a custom renderer's effects.
    const [markAsRead, markAsUnread] = useMemo(() => {
      const mark = (kind: 'read' | 'unread') => () => markAs(item._id, kind).then(() => {})
      return [mark('read'), mark('unread')] as const
    }, [markAs, item._id])
    const toggleRead = read ? markAsUnread : markAsRead
    const readIt = () => {
      if (!read) void markAsRead()
    }
    const openIt = () => {
      onOpen?.(item)
      readIt()
    }

    const handleClick = compose<MouseEvent<HTMLElement>>(onClick, (event) => {
      if (!isInteractive(event.target, event.currentTarget)) openIt()
    })

    const handleKeyDown = compose<KeyboardEvent<HTMLElement>>(onKeyDown, (event) => {
      if (event.target !== event.currentTarget || event.altKey || event.ctrlKey || event.metaKey) return
      if (event.key === 'Enter') {
        event.preventDefault()
        const link = event.currentTarget.querySelector<HTMLAnchorElement>('a[data-inbox-cta]')
        if (link && !onOpen) link.click()
        else openIt()
      } else if (event.key.toLowerCase() === 'r') {
        // `r` toggles read/unread on a focused item.
        event.preventDefault()
        void toggleRead()
      }
    })

    const { title, body } = titleAndBody(item, m.untitled)
    const titleId = `${id}-title`
    const bodyId = `${id}-body`
    const toggleLabel = read ? m.markAsUnread : m.markAsRead

    return (
      // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- a row of a feed, focused by the feed's keys; its own keys open it
      <article
        ref={ref}
        {...root}
        {...c('inbox-item', className)}
        data-inbox-item=""
        data-id={item._id}
        data-unread={read ? undefined : ''}
        data-unseen={item.seen ? undefined : ''}
        data-pending={pending ? '' : undefined}
        data-failed={failure ? '' : undefined}
        data-status={item.status}
        // Its title, then "Unread" while it is: said as the feed's keys move to it, and again as `r` toggles it.
        aria-labelledby={render ? undefined : read ? titleId : `${titleId} ${id}-unread`}
        aria-describedby={body && !render ? bodyId : undefined}
        aria-keyshortcuts="r"
        onClick={handleClick}
        onKeyDown={handleKeyDown}
        {...rest}
      >
        {render ? (
          <>
            {render(item, { markAsRead, markAsUnread, toggleRead, open: readIt, href })}
            {footer}
          </>
        ) : (
          <>
            <Avatar item={item} c={c} />
            <div {...c('inbox-item__main')}>
              <div {...c('inbox-item__heading')}>
                <h3 {...c('inbox-item__title')} id={titleId} dir="auto">
                  {href !== null && !onOpen ? (
                    <a
                      {...c('inbox-item__link')}
                      href={href}
                      data-inbox-cta=""
                      onClick={(event) => {
                        // A handler before it (the feed's `onItemClick`) kept the item as it is.
                        if (event.defaultPrevented) return
                        readIt()
                        onNavigate?.(href, item, event)
                      }}
                    >
                      {title}
                    </a>
                  ) : (
                    title
                  )}
                </h3>
                <ItemTime at={item.createdAt} now={now} locale={locale} c={c} />
                {!read && (
                  <span {...c('inbox-item__dot')}>
                    <span id={`${id}-unread`} style={visuallyHidden}>
                      {m.unread}
                    </span>
                  </span>
                )}
              </div>
              {body && (
                <div {...c('inbox-item__body')} id={bodyId} dir="auto">
                  {renderBody ? renderBody(item) : body}
                </div>
              )}
              {itemActions(c, 'inbox-item', item, onAction, m.actionDone)}
              {failure && (
                <p {...c('inbox-item__error')}>
                  {icon(ALERT, { width: 14, height: 14 })}
                  <span>{m.updateError}</span>
                  <span {...c('inbox-item__error-actions')}>
                    {button(c, 'ghost', () => void markAs(item._id, failure.markAs), m.retry)}
                    {button(c, 'ghost', () => ledger.dismiss(item._id), m.dismiss)}
                  </span>
                </p>
              )}
              {footer}
            </div>
            <div {...c('inbox-item__tools')}>
              {iconButton(
                c,
                toggleLabel,
                icon(read ? ENVELOPE : ENVELOPE_OPEN, { width: 16, height: 16 }, read && DOT),
                () => void toggleRead(),
                // Named with the item's title ("Mark as read Deploy finished"): one of many alike in a list of buttons.
                { id: `${id}-toggle`, 'aria-label': toggleLabel, 'aria-labelledby': `${id}-toggle ${titleId}` },
              )}
            </div>
          </>
        )}
      </article>
    )
  }),
)
