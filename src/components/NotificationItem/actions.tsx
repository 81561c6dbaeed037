import type { ReactNode } from 'react'
import type { FeedItem } from '../../api/types'
import { CHECK } from '../internal/glyphs'
import { icon } from '../internal/icons'
import { button } from '../internal/parts'
import { plain } from '../internal/text'
import type { Part } from '../internal/ui'
import type { ActionHandler } from './NotificationItem'

/**
 * A notification's action buttons (primary, secondary), each calling `onAction`; once it was acted on, what
 * came of it instead (the pressed button's `resultContent`, else `doneLabel`). The same in a feed's row and
 * in the page's detail: `block` names the parts (`inbox-item__actions`, `inbox-detail__done` …). A function
 * rather than a component, as `button` is, so that it adds no component to the row.
 */
export function itemActions<P extends object>(
  c: Part,
  block: 'inbox-item' | 'inbox-detail',
  item: FeedItem<P>,
  onAction: ActionHandler<P> | undefined,
  doneLabel: string,
): ReactNode {
  const action = item.cta?.action
  const buttons = action?.buttons ?? []
  if (action?.status === 'done')
    return (
      <p {...c(`${block}__done`)}>
        {icon(CHECK, { width: 14, height: 14 })}
        <span>{plain(buttons.find((b) => b.type === action.result?.type)?.resultContent ?? '') || doneLabel}</span>
      </p>
    )
  // A button that says nothing offers nothing a reader could choose: not shown.
  const shown = buttons.filter((b) => plain(b.content).trim())
  return (
    shown.length > 0 && (
      <div {...c(`${block}__actions`)}>
        {shown.map((b, i) => button(c, b.type, (event) => onAction?.(b, item, event), plain(b.content), undefined, i))}
      </div>
    )
  )
}
