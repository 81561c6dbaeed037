/**
 * What `<Inbox>` loads when its popover is first wanted: the dialog and everything in it. A module of its
 * own, so that a page where nobody opens the inbox never fetches, parses or keeps that code.
 */
import type { ReactElement } from 'react'
import type { InboxPanelProps } from './InboxPanel'
import { InboxPanel } from './InboxPanel'
import { PopoverContent } from './parts'
import type { InboxPlacement } from './root'

export { warmFormats } from '../../core/format'

/** The popover of `<Inbox>`: the dialog at its placement, holding the panel. */
export function Popover({ placement, ...panel }: InboxPanelProps & { placement?: InboxPlacement }): ReactElement {
  return (
    <PopoverContent placement={placement}>
      <InboxPanel {...panel} />
    </PopoverContent>
  )
}
