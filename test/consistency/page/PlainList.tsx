import { useState, type ReactElement } from 'react'

/** The yardstick: 40 rows in plain React state, each with a read/unread toggle named as the kit's. */
export function PlainList({ count }: { count: number }): ReactElement {
  const [unread, setUnread] = useState(() => new Set(Array.from({ length: count }, (_, i) => String(i))))
  const toggle = (id: string) =>
    setUnread((set) => {
      const next = new Set(set)
      if (!next.delete(id)) next.add(id)
      return next
    })
  return (
    <div id="plain" role="list" aria-label="Plain list">
      {Array.from({ length: count }, (_, i) => {
        const id = String(i)
        const isUnread = unread.has(id)
        return (
          <article
            key={id}
            data-plain-item=""
            data-id={id}
            data-unread={isUnread ? '' : undefined}
            className="plain-row"
          >
            <h3>Plain {i}</h3>
            <p>Message {i}</p>
            <button type="button" aria-label={isUnread ? 'Mark as read' : 'Mark as unread'} onClick={() => toggle(id)}>
              {isUnread ? '●' : '○'}
            </button>
          </article>
        )
      })}
    </div>
  )
}
