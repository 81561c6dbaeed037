import { forwardRef, useId, useRef } from 'react'
import type { HTMLAttributes, ReactElement, ReactNode } from 'react'
import type { TopicSubscription } from '../../api/types'
import { useSubscriberSubscriptions } from '../../hooks/useSubscriberSubscriptions'
import { BACK, FORWARD } from '../internal/glyphs'
import { icon, type IconProps } from '../internal/icons'
import { banner, button, Skeleton, StateMessage } from '../internal/parts'
import { plain } from '../internal/text'
import { useUI } from '../internal/ui'

/** Props of {@link TopicSubscriptions}; the rest lands on its root `<section>`. */
export interface TopicSubscriptionsProps extends Omit<HTMLAttributes<HTMLElement>, 'children'> {
  /** Page size. @default 10 */
  limit?: number | undefined
  /** Only the subscription to this topic key. */
  topicKey?: string | undefined
  /** Replaces how one subscription is shown. */
  renderTopic?: ((subscription: TopicSubscription) => ReactNode) | undefined
  /** Drops the kit's visual rules (when used outside an `<Inbox>`). */
  unstyled?: boolean | undefined
}

/**
 * The topics the subscriber belongs to, a page at a time (cursor pagination with Previous/Next).
 * @example <TopicSubscriptions limit={5} />
 */
export const TopicSubscriptions = forwardRef<HTMLElement, TopicSubscriptionsProps>(function TopicSubscriptions(
  { limit = 10, topicKey, renderTopic, unstyled, className, ...rest },
  ref,
): ReactElement {
  const { m, root, c } = useUI('TopicSubscriptions', unstyled)
  const list = useSubscriberSubscriptions({ limit, ...(topicKey ? { key: topicKey } : {}) })
  const noPrevious = !list.hasPrevious || list.isLoading
  const noNext = !list.hasNext || list.isLoading
  const titleId = useId()
  const titleRef = useRef<HTMLHeadingElement>(null)
  // The pager's button pressed last: after a failed move, trying again takes focus back to it.
  const moved = useRef<HTMLButtonElement | null>(null)
  const retry = () => {
    void list.refetch()
    // The button goes with the error while the page loads again: focus goes where the reader was, the pager's
    // button that made the move that failed (its page stays in view), else the heading above the loading rows.
    const target = list.items.length && moved.current?.isConnected ? moved.current : titleRef.current
    target?.focus()
  }
  // As PreferencesPanel's sections, beside which it goes on a settings page: h2 on a page of its own, h3 inside
  // an inbox (under its h2 heading).
  const Title = 'data-inbox-root' in root ? 'h2' : 'h3'

  return (
    <section
      ref={ref}
      {...root}
      {...c('inbox-topics', className)}
      aria-labelledby={titleId}
      data-state={list.isLoading ? 'loading' : list.error ? 'error' : 'ready'}
      {...rest}
    >
      <Title ref={titleRef} id={titleId} tabIndex={-1} {...c('inbox-prefs__title')}>
        {m.topicsTitle}
      </Title>
      {list.isLoading ? (
        <Skeleton c={c} label={m.loading} rows={3} lines={1} />
      ) : list.items.length ? (
        <ul {...c('inbox-topics__list')}>
          {list.items.map((s) => (
            <li key={s._id} {...c('inbox-topics__item')}>
              {renderTopic ? (
                renderTopic(s)
              ) : (
                <>
                  {/* Whoever made the topic named it: as a notification's text, without direction marks (one left
                      open in the name would reverse the key beside it). */}
                  <span {...c('inbox-topics__name')}>{plain(s.topic.name || s.topic.key)}</span>
                  {s.topic.name && s.topic.name !== s.topic.key && (
                    <code {...c('inbox-topics__key')}>{plain(s.topic.key)}</code>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
      ) : list.error ? (
        <StateMessage c={c} state="error" title={m.topicsLoadError} action={{ label: m.retry, onClick: retry }} />
      ) : (
        <p {...c('inbox-prefs__hint')}>{m.topicsEmpty}</p>
      )}
      {/* A move that failed: the page it started from stays, its moves too, and this says so. */}
      {list.error && list.items.length > 0 && banner(c, m.topicsLoadError, button(c, 'ghost', retry, m.retry))}
      {(list.hasPrevious || list.hasNext) && (
        <nav {...c('inbox-topics__pager')} aria-label={m.pagination}>
          <button
            type="button"
            {...c('inbox-button')}
            data-variant="secondary"
            // Announced as off but still focusable: reaching the first or last page keeps focus on the button.
            aria-disabled={noPrevious || undefined}
            onClick={(event) => {
              moved.current = event.currentTarget
              if (!noPrevious) list.previous()
            }}
          >
            {icon(BACK, { width: 14, height: 14, 'data-inbox-flip': '' } as IconProps)}
            {m.previousPage}
          </button>
          <button
            type="button"
            {...c('inbox-button')}
            data-variant="secondary"
            aria-disabled={noNext || undefined}
            onClick={(event) => {
              moved.current = event.currentTarget
              if (!noNext) list.next()
            }}
          >
            {m.nextPage}
            {icon(FORWARD, { width: 14, height: 14, 'data-inbox-flip': '' } as IconProps)}
          </button>
        </nav>
      )}
    </section>
  )
})
