/**
 * What `<Inbox>` loads when its popover is first wanted: the dialog and everything in it. A module of its
 * own, so that a page where nobody opens the inbox never fetches, parses or keeps that code.
 */
import type { ReactElement } from 'react'
import { feedFilters, feedQueryOptions } from '../../core/queries'
import { pageFn } from '../../core/reach'
import type { InboxSync } from '../../core/sync'
import type { InboxPanelProps } from './InboxPanel'
import { InboxPanel } from './InboxPanel'
import { InboxContent, PopoverContent } from './parts'
import { useRoot, type InboxPlacement } from './root'

export { warmFormats } from '../../core/format'

/**
 * Starts loading the list the popover opens on (its first tab, "All"), unless the cache already holds it: asked
 * on the first sign of intent, so that a click after a pointer rested on the bell (or a tap, whose press comes
 * before its click) finds its rows there. Once cached, the list is kept up to date with the others.
 */
export function prefetchFeed(sync: InboxSync, limit: number | undefined): void {
  const f = feedFilters({ limit })
  void sync.queryClient.prefetchInfiniteQuery({ ...feedQueryOptions(sync, f), queryFn: pageFn(sync, f) as never })
}

/** Props of the popover of `<Inbox>`. */
export type PopoverProps = InboxPanelProps & {
  placement?: InboxPlacement | undefined
  portal?: boolean | Element | undefined
}

/**
 * The popover of `<Inbox>`: the dialog at its placement, holding the panel; in a portal when asked. A link followed
 * from it in this tab (the app's router taking it, or the browser) closes it, focus back on the bell: a click with
 * a key that opens it elsewhere (a new tab or window) leaves it open.
 */
export function Popover({ placement, portal, ...panel }: PopoverProps): ReactElement {
  const { close } = useRoot('Inbox')
  const body = (
    <InboxPanel
      {...panel}
      onNavigate={(url, item, event) => {
        panel.onNavigate?.(url, item, event)
        if (!(event.ctrlKey || event.metaKey || event.shiftKey || event.button === 1)) close(true)
      }}
    />
  )
  return portal ? (
    <InboxContent placement={placement} portal={portal}>
      {body}
    </InboxContent>
  ) : (
    <PopoverContent placement={placement}>{body}</PopoverContent>
  )
}
