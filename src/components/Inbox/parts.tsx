/**
 * The parts of a popover of your own ({@link InboxRoot} is in root.tsx): a trigger of your own element, the
 * dialog, its header, footer and close button.
 */
import { Children, cloneElement, forwardRef, useContext, useRef, useState } from 'react'
import type { ButtonHTMLAttributes, HTMLAttributes, ReactElement, ReactNode, Ref } from 'react'
import { createPortal } from 'react-dom'
import { useCounts } from '../../hooks/useCounts'
import { formatCount, plural } from '../../i18n'
import { compose } from '../internal/events'
import { CLOSE } from '../internal/glyphs'
import { icon } from '../internal/icons'
import { useDismissableLayer, useFocusScope } from '../internal/layer'
import { useIsoLayoutEffect, useUI, visuallyHidden } from '../internal/ui'
import { Bell } from '../Bell/Bell'
import type { BellProps } from '../Bell/Bell'
import { LabelContext, useMergedRef, useRoot, useTrigger, type InboxPlacement, type InboxTriggerProps } from './root'

export { InboxRoot, useInRoot } from './root'
export type { InboxTriggerProps } from './root'

/**
 * Opens and closes the popover: the {@link Bell} by default, or your own element with `asChild`.
 * Your `onClick` runs first; `preventDefault()` skips the toggle.
 */
export const InboxTrigger = /* @__PURE__ */ forwardRef<HTMLButtonElement, InboxTriggerProps>(function InboxTrigger(
  { asChild, ...props },
  ref,
): ReactElement {
  return asChild ? <Slot {...props} setRef={ref} /> : <BellTrigger ref={ref} {...props} />
})

/** The Bell wired to the surrounding {@link InboxRoot}. */
const BellTrigger = /* @__PURE__ */ forwardRef<HTMLButtonElement, BellProps>(function BellTrigger(
  { onClick, ...rest },
  ref,
) {
  const wired = useTrigger('InboxTrigger', ref, onClick)
  return <Bell {...rest} {...wired} ref={wired.ref} open={wired['aria-expanded']} />
})

function Slot({
  children,
  countKind = 'unseen',
  onClick,
  setRef,
  titleCount: _titleCount,
  renderBell: _renderBell,
  unstyled: _unstyled,
  ...rest
}: Omit<InboxTriggerProps, 'asChild'> & { setRef: Ref<HTMLElement> }): ReactElement {
  const child = Children.only(children) as ReactElement<Record<string, unknown>>
  const props: Record<string, unknown> = { ...rest, ...useTrigger('InboxTrigger', setRef, onClick) }
  const { m, locale } = useUI('InboxTrigger')
  const counts = useCounts(countKind === 'unread' ? { unseen: false } : { unread: false })
  const unread = countKind === 'unread'
  const count = (unread ? counts.unread : counts.unseen) ?? 0
  const capped = unread ? counts.unreadCapped : counts.unseenCapped
  const shown = formatCount(count, locale, 99, capped)
  // In parentheses: browsers join the hidden part to the visible name with or without a space. The plural form
  // is the number shown's: "99+" is said as 99 is.
  const said = capped || count > 99 ? 99 : count
  // Counts that cannot be read are said so, as the bell says them, rather than shown as none or as they were.
  const suffix = counts.error
    ? ` (${m.triggerUnavailable})`
    : count > 0
      ? ` (${plural(unread ? m.triggerUnread : m.triggerUnseen, said, locale, {}, shown)})`
      : ''
  const own = child.props
  const childRef = (own.ref ?? (child as unknown as { ref?: Ref<HTMLElement> }).ref) as Ref<HTMLElement> | undefined
  const ref = useMergedRef(childRef, props.ref as Ref<HTMLElement>)
  const label = own['aria-label'] as string | undefined
  return cloneElement(child, {
    ...props,
    ref,
    onClick: compose(own.onClick as never, props.onClick as never),
    'aria-label': label && label + suffix,
    'data-unavailable': counts.error ? '' : undefined,
    children: (
      <>
        {own.children as ReactNode}
        {!label && suffix && <span style={visuallyHidden}>{suffix}</span>}
      </>
    ),
  })
}

/** Props of {@link InboxContent}; the rest lands on the dialog `<div>`. */
export interface InboxContentProps extends HTMLAttributes<HTMLDivElement> {
  /** @default 'bottom-end' */
  placement?: InboxPlacement | undefined
  /**
   * Renders the popover at the end of `document.body` (or into the element given), placed at its trigger,
   * so that no `overflow: hidden` ancestor clips it. After hydration only. @default false
   */
  portal?: boolean | Element | undefined
}

/**
 * The popover: a labelled modal dialog that takes focus when it opens and keeps Tab inside; Escape closes it
 * and gives focus back to the trigger, as does pressing a pointer or moving focus outside it.
 */
export const InboxContent = /* @__PURE__ */ forwardRef<HTMLDivElement, InboxContentProps>(function InboxContent(
  { portal = false, style, ...props },
  ref,
): ReactElement {
  return portal ? (
    <InPortal container={portal === true ? undefined : portal}>
      <PopoverContent ref={ref} style={{ pointerEvents: 'auto', ...style }} {...props} />
    </InPortal>
  ) : (
    <PopoverContent ref={ref} style={style} {...props} />
  )
})

/** {@link InboxContent} in place: what `<Inbox>` uses, without the portal's code. */
export const PopoverContent = /* @__PURE__ */ forwardRef<HTMLDivElement, Omit<InboxContentProps, 'portal'>>(
  function PopoverContent({ placement = 'bottom-end', className, children, ...rest }, ref): ReactElement | null {
    const ctx = useRoot('InboxContent')
    const { m, c } = useUI('InboxContent')
    const content = useRef<HTMLDivElement>(null)
    const setRef = useMergedRef(ref, content)
    const titleId = `${ctx.contentId}-title`
    useFocusScope(content, { enabled: ctx.open })
    useIsoLayoutEffect(() => {
      const el = content.current
      if (!ctx.open || !el) return
      const place = () => {
        const trigger = ctx.trigger.current
        if (!trigger) return
        // None where the popover covers a small screen, fixed 8px from the viewport's top; but a filter or
        // transform around it (an app's blurred tab bar) makes that element its box, the top then measured from it.
        const b = el.offsetParent?.getBoundingClientRect() ?? { top: 0, bottom: 0, left: 0 }
        const t = trigger.getBoundingClientRect()
        // From the trigger's edges, not its box's: a root stretched by a flex row is taller than its bell. On
        // the other side of the trigger when the popover does not fit on its own and there is more room there.
        // The viewport as the document lays it out (scrollbars left out), for both axes. Everything is read
        // before anything is set (none of the sizes read depends on what is set): one layout, not three.
        const view = el.ownerDocument.documentElement
        const h = el.offsetHeight
        const left = b.left + el.offsetLeft
        const over = left + el.offsetWidth + 8 - view.clientWidth
        const below = view.clientHeight - t.bottom
        const top = placement.startsWith('top')
        const flip = top ? t.top < h + 8 && below > t.top : below < h + 8 && t.top > below
        const set = (name: string, px: number) => el.style.setProperty('--inbox-' + name, px + 'px')
        set('top', 8 - b.top)
        // No taller than the room on its side (8px from the trigger, 8px in from the viewport's edge), where the
        // list scrolls: fitting neither side, the larger one's, not cut off by the viewport. At least 200px.
        const room = Math.max(200, (top === flip ? below : t.top) - 16)
        const height = Math.min(h, room)
        set('room', room)
        set('anchor-start', flip ? t.top - b.top - height - 16 : t.bottom - b.top)
        set('anchor-end', flip ? b.bottom - t.bottom - height - 16 : b.bottom - t.top)
        // Kept within the viewport (8px in), as a bell near the other edge or a right-to-left inbox needs.
        set('shift', left < 8 ? 8 - left : over > 0 ? Math.max(8 - left, -over) : 0)
      }
      place()
      addEventListener('resize', place)
      // Placed again when its size changes: its content came (a list, a locale's longer words) after it opened.
      // Not at its first report, the size just measured: the layout is read once as it opens.
      let seen = false
      const sized =
        typeof ResizeObserver === 'function' ? new ResizeObserver(() => (seen ? place() : (seen = true))) : undefined
      sized?.observe(el)
      return () => (removeEventListener('resize', place), sized?.disconnect())
    }, [ctx.open, placement])
    useIsoLayoutEffect(() => {
      const el = content.current
      if (!ctx.open || !el) return
      // Closed by the app (its `open`, a link it routes in place) while focus was inside: focus would fall to the
      // page's body, so it goes back to the trigger. Not when focus had already moved on (a press elsewhere).
      return () => {
        const doc = el.ownerDocument
        const trigger = ctx.trigger.current
        if ((el.contains(doc.activeElement) || doc.activeElement === doc.body) && trigger?.isConnected)
          trigger.focus({ preventScroll: true })
      }
    }, [ctx.open])
    useDismissableLayer(content, {
      enabled: ctx.open,
      inside: () => [ctx.trigger.current],
      onDismiss: (reason, event) => {
        const target = event.target as Element | null
        // A pointer on something focusable leaves focus there; elsewhere focus goes back to the trigger.
        const focusable = !!target?.closest?.('a[href], button, input, select, textarea, [tabindex]')
        ctx.close(reason === 'escape' || (reason === 'outside' && !focusable))
      },
    })
    if (!ctx.open) return null
    return (
      <div
        ref={setRef}
        id={ctx.contentId}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        // Its name while no heading has the title's id (no InboxHeader, or one with `title={null}`).
        aria-label={m.inboxTitle}
        tabIndex={-1}
        {...c('inbox-popover', className)}
        data-placement={placement}
        data-state="open"
        {...rest}
      >
        <LabelContext.Provider value={titleId}>{children}</LabelContext.Provider>
      </div>
    )
  },
)

/** Renders its child at the end of `document.body` (or `container`), in a box laid over the trigger. */
function InPortal({ container, children }: { container?: Element; children: ReactNode }): ReactElement | null {
  const ctx = useRoot('InboxContent')
  const { c } = useUI('InboxContent')
  const [box, setBox] = useState<DOMRect | null>(null)
  useIsoLayoutEffect(() => {
    const trigger = ctx.trigger.current
    if (!ctx.open || !trigger) return
    const place = () => setBox(trigger.getBoundingClientRect())
    place()
    addEventListener('resize', place)
    addEventListener('scroll', place, true)
    return () => {
      removeEventListener('resize', place)
      removeEventListener('scroll', place, true)
    }
  }, [ctx.open])
  if (!ctx.open || !box) return null
  // The popover's own placement rules then apply as they do in place, relative to this box.
  const { top, left, width, height } = box
  return createPortal(
    <div
      {...ctx.attrs}
      {...c('inbox-portal')}
      style={{ position: 'fixed', top, left, width, height, pointerEvents: 'none', zIndex: 1000 }}
    >
      {children}
    </div>,
    container ?? document.body,
  )
}

/** Props of {@link InboxHeader}; the rest lands on its `<div>`. */
export interface InboxHeaderProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title'> {
  /**
   * The heading that names the popover or region; `null` for none (a popover is then named by the "Notifications"
   * string). @default the "Notifications" string
   */
  title?: ReactNode | undefined
}

/** The top bar: the heading that names the popover (or inline inbox), then your actions. */
export const InboxHeader = /* @__PURE__ */ forwardRef<HTMLDivElement, InboxHeaderProps>(function InboxHeader(
  { title, className, children, ...rest },
  ref,
): ReactElement {
  const { m, c } = useUI('InboxHeader')
  const id = useContext(LabelContext)
  return (
    <div ref={ref} {...c('inbox-header', className)} {...rest}>
      {title !== null && (
        <h2 id={id} {...c('inbox-header__title')}>
          {title ?? m.inboxTitle}
        </h2>
      )}
      {children}
    </div>
  )
})

/** The bottom bar, for your own links and actions ("See all", "Settings"). */
export const InboxFooter = /* @__PURE__ */ forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement>>(
  function InboxFooter({ className, ...rest }, ref): ReactElement {
    const { c } = useUI('InboxFooter')
    return <div ref={ref} {...c('inbox-footer', className)} {...rest} />
  },
)

/** A button that closes the popover and gives focus back to the trigger; a close icon unless given children. */
export const InboxClose = /* @__PURE__ */ forwardRef<HTMLButtonElement, ButtonHTMLAttributes<HTMLButtonElement>>(
  function InboxClose({ className, onClick, children, ...rest }, ref): ReactElement {
    const ctx = useRoot('InboxClose')
    const { m, c } = useUI('InboxClose')
    return (
      <button
        ref={ref}
        type="button"
        {...c('inbox-icon-button', className)}
        // Named by its title while it is an icon (a label beside it would be said again as the description).
        title={children ? undefined : m.close}
        onClick={compose(onClick, () => ctx.close(true))}
        {...rest}
      >
        {children ?? icon(CLOSE, { width: 18, height: 18 })}
      </button>
    )
  },
)
