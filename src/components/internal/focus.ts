import { useEffect, useRef } from 'react'
import type { KeyboardEvent as ReactKeyboardEvent } from 'react'

const FOCUSABLE =
  'a[href], area[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), iframe, [tabindex], [contenteditable="true"]'

/** Whether `el` can take focus now: focusable, shown, not hidden from assistive technology. */
function takesFocus(el: Element): el is HTMLElement {
  if (!el.matches(FOCUSABLE) || el.closest('[hidden], [inert], [aria-hidden="true"]')) return false
  // Not rendered (display: none, like the close button outside small screens): focus() would do nothing.
  return typeof el.checkVisibility !== 'function' || el.checkVisibility()
}

/** Elements inside `root` that Tab reaches, in DOM order. */
function tabbables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll(FOCUSABLE)).filter(
    (el): el is HTMLElement => takesFocus(el) && el.tabIndex >= 0,
  )
}

/**
 * Keeps Tab and Shift+Tab inside `root`, wrapping at both ends. Returns true when it moved focus.
 */
export function trapTab(root: HTMLElement, event: KeyboardEvent | ReactKeyboardEvent): boolean {
  if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return false
  const list = tabbables(root)
  event.preventDefault()
  if (list.length === 0) {
    root.focus()
    return true
  }
  const active = root.ownerDocument.activeElement as HTMLElement | null
  const index = active ? list.indexOf(active) : -1
  let next: number
  if (index === -1) next = event.shiftKey ? list.length - 1 : 0
  else next = (index + (event.shiftKey ? -1 : 1) + list.length) % list.length
  list[next]?.focus()
  return true
}

/** The regions of {@link useFocusKeeper}: of those around a lost element, the innermost still there acts. */
const regions = new WeakSet<Element>()

/**
 * Where focus goes when `gone`, which held it, was removed from the list `parent` (a feed, a list): the first
 * element that takes focus in the entry now in its place or after it, else in the one before it.
 */
function inPlace(gone: Element | undefined, parent: Element | undefined, records: MutationRecord[]) {
  if (!gone || !parent?.matches('[role="feed"], [role="list"], ol, ul')) return
  const sibling = (node: Node | null | undefined, side: 'nextSibling' | 'previousSibling') =>
    records.find((r) => Array.prototype.includes.call(r.removedNodes, node))?.[side]
  for (const side of ['nextSibling', 'previousSibling'] as const) {
    let node = sibling(gone, side)
    // Past its neighbours that went with it, to the first one still there.
    while (node && node.parentNode !== parent) node = sibling(node, side)
    for (; node; node = node[side])
      if (node instanceof Element) {
        const found = [node, ...node.querySelectorAll(FOCUSABLE)].find(takesFocus)
        if (found) return found
      }
  }
}

/**
 * Keeps focus from falling to the page's body when the element that has it inside `region` goes (its row leaves
 * the list, an answer replaces its buttons, its banner closes), as Radix and mail apps do: to the entry of a list
 * (`role="feed"`, `ol` …) now in its place, else the one before it; else where `rescue` says (given the element
 * and those around it, up to the region, as they were when it got focus); else the nearest element around it
 * that takes focus (its row, the list). Nothing moves when focus went somewhere on its own. Of the regions
 * around an element, the innermost still in the page acts.
 */
export function useFocusKeeper(
  region: Element | null | undefined,
  rescue?: (path: Element[]) => HTMLElement | null | undefined,
): void {
  const latest = useRef(rescue)
  useEffect(() => void (latest.current = rescue))
  useEffect(() => {
    if (!region || typeof MutationObserver !== 'function') return
    const doc = region.ownerDocument
    regions.add(region)
    // The focused element and its ancestors up to the region, from when it got focus.
    let path: Element[] = []
    const stop = () => {
      path = []
      observer.disconnect()
    }
    const observer = new MutationObserver((records) => {
      const was = path
      if (!was[0] || was[0].isConnected) return
      const at = was.findIndex((el) => el.isConnected)
      const around = at < 0 ? [] : was.slice(at)
      stop()
      const active = doc.activeElement
      if ((active && active !== doc.body) || around.find((el) => regions.has(el)) !== region) return
      ;(inPlace(was[at - 1], around[0], records) ?? latest.current?.(was) ?? around.find(takesFocus))?.focus()
    })
    const onFocusIn = (event: Event) => {
      path = []
      for (let el = event.target as Element | null; el && el !== region.parentElement; el = el.parentElement)
        path.push(el)
      observer.observe(region, { childList: true, subtree: true })
    }
    // Focus gone elsewhere is no longer the region's to keep; gone nowhere, it is while its element was removed,
    // not when the reader put it there (a click on the page's background).
    const onFocusOut = (event: FocusEvent) => {
      const lost = path[0]
      if (event.relatedTarget) !region.contains(event.relatedTarget as Node) && stop()
      else queueMicrotask(() => lost?.isConnected && lost !== doc.activeElement && stop())
    }
    region.addEventListener('focusin', onFocusIn)
    region.addEventListener('focusout', onFocusOut as EventListener)
    return () => {
      stop()
      region.removeEventListener('focusin', onFocusIn)
      region.removeEventListener('focusout', onFocusOut as EventListener)
      regions.delete(region)
    }
  }, [region])
}
