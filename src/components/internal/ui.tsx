import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useSyncExternalStore } from 'react'
import { useInboxContext } from '../../hooks/useInboxContext'
import { resolveMessages } from '../../i18n'
import type { InboxMessages } from '../../i18n'

interface UIContextValue {
  /** Set inside an `<Inbox>`: its root already carries the theme and token attributes. */
  nested: boolean
  unstyled: boolean
}

/** Shared by an `<Inbox>` with the parts it renders. */
export const UIContext = createContext<UIContextValue>({ nested: false, unstyled: false })

/** The strings and locale in effect: the provider's locale with its `messages` overrides. */
export interface MessagesValue {
  messages: InboxMessages
  locale: string
}

/**
 * The components' strings: the provider's locale (falling back to its language, then English)
 * with the app's `messages` overrides on top.
 * @example const { messages: m } = useMessages('Bell')
 */
export function useMessages(component = 'useMessages'): MessagesValue {
  const { locale, messages } = useInboxContext(component)
  const overrides = messages as Partial<InboxMessages> | undefined
  const resolved = useMemo(() => resolveMessages(locale ?? 'en', overrides), [locale, overrides])
  return { messages: resolved, locale: locale ?? 'en' }
}

/** What a component needs to render its root and parts. */
export interface ComponentUI {
  /** Attributes of the root element (none when rendered inside another component of the kit). */
  root: Record<string, string | undefined>
  /** The class name of a part, or nothing in `unstyled` mode (the stylesheet targets only these classes). */
  c: (name: string) => string | undefined
  /** Context value for the component's children. */
  scope: UIContextValue
}

/**
 * Root attributes, part class names and the children's context of a component.
 * A component inside another one of the kit inherits its theme, direction and `unstyled` switch.
 */
export function useComponentUI(component: string, unstyledProp: boolean | undefined, dirProp?: string): ComponentUI {
  const ui = useContext(UIContext)
  const { theme } = useInboxContext(component)
  const { messages } = useMessages(component)
  const systemDark = useSystemDark(theme === 'system')
  const unstyled = unstyledProp ?? ui.unstyled
  const c = useCallback((name: string) => (unstyled ? undefined : name), [unstyled])
  const scope = useMemo(() => ({ nested: true, unstyled }), [unstyled])
  const root: Record<string, string | undefined> = ui.nested
    ? {}
    : {
        'data-inbox-root': '',
        'data-inbox-theme': theme === 'system' ? (systemDark ? 'dark' : 'light') : (theme ?? 'light'),
        'data-inbox-unstyled': unstyled ? '' : undefined,
        dir: dirProp ?? (messages.dir === 'rtl' ? 'rtl' : undefined),
      }
  return { root, c, scope }
}

/** Part class names for a component's inner parts (follows the enclosing component's `unstyled`). */
export function useClassNames(): (name: string) => string | undefined {
  const { unstyled } = useContext(UIContext)
  return useCallback((name: string) => (unstyled ? undefined : name), [unstyled])
}

/** Visually hidden but read by assistive technology; inline so that it works in `unstyled` mode too. */
export const visuallyHidden: React.CSSProperties = {
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

const DARK_QUERY = '(prefers-color-scheme: dark)'

/** Whether the system prefers a dark colour scheme (false on the server and when not asked). */
function useSystemDark(active: boolean): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!active || typeof window === 'undefined' || !window.matchMedia) return () => {}
      const query = window.matchMedia(DARK_QUERY)
      query.addEventListener('change', onChange)
      return () => query.removeEventListener('change', onChange)
    },
    [active],
  )
  return useSyncExternalStore(
    subscribe,
    () => active && typeof window !== 'undefined' && !!window.matchMedia?.(DARK_QUERY).matches,
    () => false,
  )
}

/** `useLayoutEffect` in the browser, `useEffect` on the server (where layout effects warn). */
export const useIsoLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect
