import { forwardRef, useId } from 'react'
import type { HTMLAttributes, ReactElement, Ref, RefAttributes } from 'react'
import type { JsonObject } from '../../api/types'
import { InboxPanel } from '../Inbox/InboxPanel'
import { splitPanelProps } from '../Inbox/panelProps'
import type { InboxPanelProps } from '../Inbox/InboxPanel'
import { LabelContext } from '../Inbox/root'
import { LiveRegion } from '../internal/liveRegion'
import { UIContext, useUI } from '../internal/ui'

/** Props of {@link InboxInline}; the rest lands on its `<section>`. */
export interface InboxInlineProps<P extends object = JsonObject>
  extends Omit<HTMLAttributes<HTMLElement>, 'children' | 'onSelect'>, InboxPanelProps<P> {
  /** Drops every visual rule: parts keep their classes, `data-part` and state attributes. @default false */
  unstyled?: boolean | undefined
}

/**
 * The inbox in place, for a sidebar or a panel: the header, tabs, feed and settings of the popover, in a
 * labelled region instead of a dialog, with the same keyboard model and the one polite live region.
 * It fills the height its container gives it.
 * @example <aside style={{ height: '100vh' }}><InboxInline /></aside>
 */
export const InboxInline = /* @__PURE__ */ forwardRef(function InboxInline<P extends object = JsonObject>(
  { unstyled, className, ...props }: InboxInlineProps<P>,
  ref: Ref<HTMLElement>,
): ReactElement {
  const { root, c, child } = useUI('InboxInline', unstyled)
  const titleId = useId()
  const [panel, rest] = splitPanelProps(props)
  return (
    <UIContext.Provider value={child}>
      <LabelContext.Provider value={titleId}>
        <section ref={ref} {...root} {...c('inbox-inline', className)} aria-labelledby={titleId} {...rest}>
          <InboxPanel {...panel} />
          <LiveRegion counts />
        </section>
      </LabelContext.Provider>
    </UIContext.Provider>
  )
}) as <P extends object = JsonObject>(props: InboxInlineProps<P> & RefAttributes<HTMLElement>) => ReactElement
