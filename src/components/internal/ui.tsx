import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useSyncExternalStore,
} from 'react'
import type { CSSProperties } from 'react'
import type { InboxMessages } from '../../i18n/types'
import { en } from '../../locales/en'
import { useInboxScope } from '../../provider/context'

interface UIContextValue {
  /** Set inside another component of the kit: its root already carries the theme and token attributes. */
  nested: boolean
  unstyled: boolean
}

/** Shared by a component of the kit with the parts it renders. */
export const UIContext = /* @__PURE__ */ createContext<UIContextValue>({ nested: false, unstyled: false })

/**
 * What a component needs to render: its strings (English with the provider's `messages` on top), the
 * locale of dates and numbers, the attributes of its root (theme, direction; none when nested in
 * another component of the kit), the class of each part, and the context for its children.
 */
export function useUI(name: string, unstyledProp?: boolean) {
  const scope = useInboxScope(name)
  const ui = useContext(UIContext)
  const overrides = scope.messages
  const m = useMemo<InboxMessages>(() => ({ ...en, ...overrides }), [overrides])
  const systemDark = useSystemDark(scope.theme === 'system')
  const unstyled = unstyledProp ?? ui.unstyled
  const child = useMemo(() => ({ nested: true, unstyled }), [unstyled])
  const root: Record<string, string | undefined> = ui.nested
    ? // A part asked to be unstyled inside a styled component drops out of the stylesheet's scope on its own.
      { 'data-inbox-unstyled': unstyled && !ui.unstyled ? '' : undefined }
    : {
        'data-inbox-root': '',
        'data-inbox-theme': scope.theme === 'system' ? (systemDark ? 'dark' : 'light') : scope.theme,
        'data-inbox-unstyled': unstyled ? '' : undefined,
        dir: m.dir === 'rtl' ? 'rtl' : undefined,
      }
  return { m, locale: scope.locale, root, c: part, child, sync: scope.sync, enabled: scope.enabled }
}

/** The class and `data-part` of a part of the kit, the same whether styled or not. */
export type Part = typeof part

/**
 * A part's stable class and `data-part` attribute ("inbox-item__title" gives `data-part="item-title"`),
 * kept under `unstyled` too: the stylesheet only applies outside `[data-inbox-unstyled]`.
 */
function part(name: string, className?: string): { className: string; 'data-part': string } {
  return {
    className: className ? name + ' ' + className : name,
    'data-part': name.replace(/^inbox-/, '').replace('__', '-'),
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

const DARK = '(prefers-color-scheme: dark)'

/** Whether the system prefers a dark colour scheme (false on the server and when not asked). */
function useSystemDark(active: boolean): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!active || typeof matchMedia !== 'function') return () => {}
      const query = matchMedia(DARK)
      query.addEventListener('change', onChange)
      return () => query.removeEventListener('change', onChange)
    },
    [active],
  )
  return useSyncExternalStore(
    subscribe,
    () => active && typeof matchMedia === 'function' && matchMedia(DARK).matches,
    () => false,
  )
}

/** `useLayoutEffect` in the browser, `useEffect` on the server (where layout effects warn). */
export const useIsoLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect
