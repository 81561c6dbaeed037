/**
 * What `<Inbox>` loads when its popover is first wanted: the dialog and everything in it. A module of its
 * own, so that a page where nobody opens the inbox never fetches, parses or keeps that code.
 */
import type { ReactElement } from 'react'
import type { InboxPanelProps } from './InboxPanel'
import { InboxPanel } from './InboxPanel'
import { InboxContent, PopoverContent } from './parts'
import type { InboxPlacement } from './root'

export { warmFormats } from '../../core/format'

/** Props of the popover of `<Inbox>`. */
export type PopoverProps = InboxPanelProps & {
  placement?: InboxPlacement | undefined
  portal?: boolean | Element | undefined
}

/** The popover of `<Inbox>`: the dialog at its placement, holding the panel; in a portal when asked. */
export function Popover({ placement, portal, ...panel }: PopoverProps): ReactElement {
  const body = <InboxPanel {...panel} />
  return portal ? (
    <InboxContent placement={placement} portal={portal}>
      {body}
    </InboxContent>
  ) : (
    <PopoverContent placement={placement}>{body}</PopoverContent>
  )
}
