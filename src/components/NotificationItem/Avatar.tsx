import type { Part } from '../internal/ui'
import { useState } from 'react'
import type { ReactElement } from 'react'
import type { FeedItem } from '../../api/types'
import { PERSON, systemIcon, systemIconName } from '../internal/glyphs'
import { BELL, icon } from '../internal/icons'
import { safeImageUrl } from '../internal/url'

/** A display name for the actor when the payload carries one (used for initials). */
function actorName(item: FeedItem): string | undefined {
  const p = item.payload
  for (const key of ['actorName', 'authorName', 'senderName', 'inviterName', 'userName', 'name']) {
    const v = p?.[key]
    if (typeof v === 'string' && v.trim()) return v.trim()
  }
  return undefined
}

/** Up to two letters from a name: "Ada Lane" → "AL". */
function initials(name: string | undefined): string {
  if (!name) return ''
  const parts = name.split(/\s+/).filter(Boolean)
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : [parts[0]]
  return letters
    .map((w) => Array.from(w ?? '')[0] ?? '')
    .join('')
    .toLocaleUpperCase()
}

/** The actor's picture: an image for `user`, an icon for `system_icon`, nothing for `none`. */
export function Avatar({ item, alt, c }: { item: FeedItem; alt: string; c: Part }): ReactElement {
  const [failed, setFailed] = useState(false)
  const actor = item.actor
  // No picture still takes the avatar's place, so every title starts at the same edge.
  if (!actor || actor.type === 'none')
    return (
      <span {...c('inbox-avatar')} data-kind="none" aria-hidden="true">
        {icon(BELL, { width: 16, height: 16 })}
      </span>
    )
  if (actor.type === 'system_icon') {
    const name = systemIconName(actor.data)
    return (
      <span {...c('inbox-avatar')} data-kind="icon" data-icon={name}>
        {icon(systemIcon(actor.data))}
      </span>
    )
  }
  const src = safeImageUrl(actor.data)
  const name = actorName(item)
  if (src && !failed) {
    return (
      <span {...c('inbox-avatar')} data-kind="image">
        <img src={src} alt={name ?? alt} onError={() => setFailed(true)} loading="lazy" decoding="async" />
      </span>
    )
  }
  const letters = initials(name)
  return (
    <span {...c('inbox-avatar')} data-kind="initials" role="img" aria-label={name ?? alt}>
      {letters ? <span aria-hidden="true">{letters}</span> : icon(PERSON)}
    </span>
  )
}
