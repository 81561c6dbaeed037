/**
 * What every component of the kit uses to render, whatever it draws: the UI context, part classes, and its
 * strings. The components that draw from the first paint use {@link useCoreUI} and only the English strings
 * they show (src/i18n/en.ts); the others use `useUI` (ui.tsx), with the whole of English.
 */
import { createContext, useContext, useEffect, useMemo } from 'react'
import type { CSSProperties } from 'react'
import { enCore, type CoreMessages } from '../../i18n/en'
import { useInboxScope, type InboxScope } from '../../provider/context'
import type { InboxSync, SyncState } from '../../core/sync'

interface UIContextValue {
  /** Set inside another component of the kit: its root already carries the theme and token attributes. */
  nested: boolean
  unstyled: boolean
}

/**
 * Set by a toaster whose code is on its way (`<Inbox toasts>`): the last arrival before it was asked for. The
 * toaster, once there, shows what arrived after that.
 */
export const ToastsAfter = /* @__PURE__ */ createContext<SyncState['arrived'] | undefined>(undefined)

/** Counts a toaster in this tab while mounted: the live loop fetches arrivals only while some tab shows toasts. */
export function useToaster(sync: InboxSync): void {
  useEffect(() => {
    sync.store.setState((s) => ({ toasters: s.toasters + 1 }))
    return () => sync.store.setState((s) => ({ toasters: s.toasters - 1 }))
  }, [sync])
}

/** Shared by a component of the kit with the parts it renders. */
export const UIContext = /* @__PURE__ */ createContext<UIContextValue>({ nested: false, unstyled: false })

/**
 * What a component needs to render: its strings (`defaults`, English, with the provider's `messages` on
 * top, merged once per provider: a new `messages` makes a new scope), the locale of dates and numbers, the
 * attributes of its root (theme, direction; none when nested in another component of the kit), the class of
 * each part, and the context for its children.
 */
export function useStrings<M extends CoreMessages>(
  name: string,
  unstyledProp: boolean | undefined,
  defaults: M,
  slot: 'core' | 'm',
) {
  const scope: InboxScope = useInboxScope(name)
  const ui = useContext(UIContext)
  // The slot holds the merge of the same `defaults` each time (`core` for enCore, `m` for en).
  const m = (scope[slot] ??= (scope.messages ? { ...defaults, ...scope.messages } : defaults) as never) as M
  const unstyled = unstyledProp ?? ui.unstyled
  const child = useMemo(() => ({ nested: true, unstyled }), [unstyled])
  const root: Record<string, string | undefined> = ui.nested
    ? // A part asked to be unstyled inside a styled component drops out of the stylesheet's scope on its own.
      { 'data-inbox-unstyled': unstyled && !ui.unstyled ? '' : undefined }
    : {
        'data-inbox-root': '',
        'data-inbox-theme': scope.scheme,
        'data-inbox-unstyled': unstyled ? '' : undefined,
        dir: m.dir === 'rtl' ? 'rtl' : undefined,
        // The strings' language, for screen readers to speak them in it; without `messages`, the page's.
        lang: scope.messages?.lang,
      }
  return { m, locale: scope.locale, root, c: part, child, sync: scope.sync, enabled: scope.enabled }
}

/** {@link useStrings} with the strings of what renders from the first paint (the bell, the live region). */
export const useCoreUI = (name: string, unstyled?: boolean) => useStrings(name, unstyled, enCore, 'core')

/** The class and `data-part` of a part of the kit, the same whether styled or not. */
export type Part = typeof part

/**
 * A part's stable class and `data-part` attribute ("inbox-item__title" gives `data-part="item-title"`),
 * kept under `unstyled` too: the stylesheet only applies outside `[data-inbox-unstyled]`.
 */
function part(name: string, className?: string): { className: string; 'data-part': string } {
  return {
    className: className ? name + ' ' + className : name,
    'data-part': name.replace('inbox-', '').replace('__', '-'),
  }
}

/** Visually hidden but read by assistive technology; inline so that it works in `unstyled` mode too. */
export const visuallyHidden: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
}
