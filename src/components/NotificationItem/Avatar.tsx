import type { Part } from '../internal/ui'
import { useState } from 'react'
import type { ReactElement } from 'react'
import type { FeedItem } from '../../api/types'
import { PERSON, systemIcon, systemIconName } from '../internal/glyphs'
import { BELL, icon } from '../internal/icons'
import { safeImageUrl } from '../internal/url'

/** A display name for the actor when the payload carries one (used for initials). */
function actorName(item: FeedItem): string | undefined {
  for (const key of ['actorName', 'authorName', 'senderName', 'inviterName', 'userName', 'name']) {
    const v = item.payload?.[key]
    if (typeof v === 'string' && v.trim()) return v.trim()
  }
}

/**
 * The actor's picture: an image for `user`, an icon for `system_icon`, nothing for `none`. Named by the actor's
 * name when the payload gives one; without one it says nothing to a screen reader (a word such as "Sender" before
 * every notification would only be noise).
 */
export function Avatar({ item, c }: { item: FeedItem; c: Part }): ReactElement {
  const [failed, setFailed] = useState(false)
  const actor = item.actor
  // No picture still takes the avatar's place, so every title starts at the same edge.
  if (!actor || actor.type === 'none')
    return (
      <span {...c('inbox-avatar')} data-kind="none" aria-hidden="true">
        {icon(BELL, { width: 16, height: 16 })}
      </span>
    )
  if (actor.type === 'system_icon')
    return (
      <span {...c('inbox-avatar')} data-kind="icon" data-icon={systemIconName(actor.data)}>
        {icon(systemIcon(actor.data))}
      </span>
    )
  const src = safeImageUrl(actor.data)
  const name = actorName(item)
  if (src && !failed)
    return (
      <span {...c('inbox-avatar')} data-kind="image">
        <img src={src} alt={name ?? ''} onError={() => setFailed(true)} loading="lazy" decoding="async" />
      </span>
    )
  // Up to two letters, the first of the first word and of the last: "Ada Lane" → "AL" (the name is trimmed).
  const letters = name
    ?.match(/^\S|(?<=\s)\S(?=\S*$)/gu)
    ?.join('')
    .toLocaleUpperCase()
  return (
    <span
      {...c('inbox-avatar')}
      data-kind="initials"
      {...(name ? { role: 'img', 'aria-label': name } : { 'aria-hidden': true })}
    >
      {letters ? <span aria-hidden="true">{letters}</span> : icon(PERSON)}
    </span>
  )
}
