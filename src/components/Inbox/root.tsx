/**
 * The popover's root and what triggers it: its open state, the bell wired to it, and its one live region.
 * What renders from the first paint; the popover itself and the other parts are in parts.tsx.
 */
import { createContext, createElement, forwardRef, useContext, useId, useRef, useState } from 'react'
import type { HTMLAttributes, ReactElement, ReactNode, Ref, RefObject } from 'react'
import type { BellProps } from '../Bell/Bell'
import { compose } from '../internal/events'
import { useControllableState } from '../internal/hooks'
import { liveRegionProps, useLiveRegion } from '../internal/liveRegion'
import { UIContext, useCoreUI } from '../internal/uiCore'

/** Where the popover opens relative to its trigger (logical: `end` is the right in LTR, the left in RTL). */
export type InboxPlacement = 'bottom-end' | 'bottom-start' | 'top-end' | 'top-start'

export interface RootContextValue {
  open: boolean
  setOpen: (open: boolean) => void
  /** Closes, and gives focus back to the trigger when `refocus`. */
  close: (refocus: boolean) => void
  trigger: RefObject<HTMLElement | null>
  contentId: string
  /** The root's theme and direction attributes, for content rendered in a portal. */
  attrs: Record<string, string | undefined>
}

const RootContext = /* @__PURE__ */ createContext<RootContextValue | null>(null)

/** The id of the heading that names the surrounding dialog or region (set by `InboxContent` and the layouts). */
export const LabelContext = /* @__PURE__ */ createContext<string | undefined>(undefined)

export function useRoot(name: string): RootContextValue {
  const ctx = useContext(RootContext)
  if (!ctx) throw new Error(`\`${name}\` must be used within \`<InboxRoot>\``)
  return ctx
}

/** Sets every ref it is given. */
export function useMergedRef<T>(...refs: (Ref<T> | undefined)[]): (node: T | null) => void {
  const latest = useRef(refs)
  latest.current = refs
  const [set] = useState(() => (node: T | null) => {
    for (const r of latest.current) {
      if (typeof r === 'function') r(node)
      else if (r) (r as { current: T | null }).current = node
    }
  })
  return set
}

/** Props of {@link InboxRoot}; the rest lands on its `<div>`. */
export interface InboxRootProps extends HTMLAttributes<HTMLDivElement> {
  /** Controlled open state. */
  open?: boolean | undefined
  /** Initial open state when uncontrolled (honoured by a server render too). @default false */
  defaultOpen?: boolean | undefined
  /** Called with the next open state. */
  onOpenChange?: ((open: boolean) => void) | undefined
  /** Drops every visual rule: parts keep their classes, `data-part` and state attributes. @default false */
  unstyled?: boolean | undefined
}

/** An inbox root's state: what its parts read from context, its strings and classes, its live region. */
export type RootState = ReturnType<typeof useRootState>

/** The state of an {@link InboxRoot}, for it and for `<Inbox>`, which renders the same root without it. */
export function useRootState(
  openProp: boolean | undefined,
  defaultOpen: boolean,
  onOpenChange: ((open: boolean) => void) | undefined,
  unstyled: boolean | undefined,
  name = 'InboxRoot',
) {
  const ui = useCoreUI(name, unstyled)
  const [open, setOpen] = useControllableState(openProp, defaultOpen, onOpenChange)
  const trigger = useRef<HTMLElement>(null)
  const contentId = useId()
  const live = useLiveRegion(true)
  const ctx: RootContextValue = {
    open,
    setOpen,
    close: (refocus) => {
      setOpen(false)
      if (refocus) trigger.current?.focus()
    },
    trigger,
    contentId,
    attrs: ui.root,
  }
  return { ...ui, ctx, live }
}

/**
 * The root's element around `content` (its last child is the live region), inside the contexts its parts
 * read. A function, not a component: `<Inbox>` puts its bell and popover straight in it.
 */
export function renderRoot(
  state: RootState,
  props: HTMLAttributes<HTMLDivElement> & { ref: Ref<HTMLDivElement> | undefined },
  ...content: ReactNode[]
): ReactElement {
  const { className, ...rest } = props
  return (
    <UIContext.Provider value={state.child}>
      <RootContext.Provider value={state.ctx}>
        {createElement(
          'div',
          { ...state.root, ...state.c('inbox', className), 'data-state': state.ctx.open ? 'open' : 'closed', ...rest },
          ...content,
          <div key="live" ref={state.live} {...liveRegionProps} />,
        )}
      </RootContext.Provider>
    </UIContext.Provider>
  )
}

/**
 * The popover's state and its one polite live region. Put an {@link InboxTrigger} and an {@link InboxContent}
 * inside; each root keeps its own open state.
 * @example
 * <InboxRoot>
 *   <InboxTrigger asChild><button>Inbox</button></InboxTrigger>
 *   <InboxContent><InboxHeader /><Feed /></InboxContent>
 * </InboxRoot>
 */
export const InboxRoot = /* @__PURE__ */ forwardRef<HTMLDivElement, InboxRootProps>(function InboxRoot(
  { open, defaultOpen = false, onOpenChange, unstyled, children, ...rest },
  ref,
): ReactElement {
  return renderRoot(useRootState(open, defaultOpen, onOpenChange, unstyled), { ref, ...rest }, children)
})

/** Props of {@link InboxTrigger}: the Bell's, or with `asChild` your own element's. */
export interface InboxTriggerProps extends BellProps {
  /**
   * Uses the one child element as the trigger: it gets the ARIA attributes, the toggle on click, the count in
   * its accessible name ("Inbox (3 unseen)") and focus back when the popover closes.
   * @default false
   */
  asChild?: boolean | undefined
  children?: ReactNode | undefined
}

/** What a trigger puts on its element, given its root's state and its ref. */
export function triggerProps<R>(ctx: RootContextValue, ref: R, onClick: InboxTriggerProps['onClick']) {
  return {
    ref,
    'aria-haspopup': 'dialog' as const,
    'aria-expanded': ctx.open,
    'aria-controls': ctx.open ? ctx.contentId : undefined,
    'data-state': ctx.open ? 'open' : 'closed',
    onClick: compose(onClick, () => ctx.setOpen(!ctx.open)),
  }
}

/** What both kinds of trigger put on their element. */
export function useTrigger(name: string, ref: Ref<HTMLElement> | undefined, onClick: InboxTriggerProps['onClick']) {
  const ctx = useRoot(name)
  return triggerProps(ctx, useMergedRef<HTMLElement>(ref, ctx.trigger), onClick)
}

/** Whether this is inside an {@link InboxRoot} (the default panel shows its close button only there). */
export function useInRoot(): boolean {
  return useContext(RootContext) !== null
}
