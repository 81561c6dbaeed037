import type { KeyboardEvent as ReactKeyboardEvent } from 'react'

const FOCUSABLE =
  'a[href], area[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), iframe, [tabindex], [contenteditable="true"]'

/** Elements inside `root` that Tab reaches, in DOM order. */
function tabbables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => {
    if (el.tabIndex < 0) return false
    if (el.closest('[hidden], [inert], [aria-hidden="true"]')) return false
    // Not rendered (display: none, like the close button outside small screens): focus() would do nothing.
    if (typeof el.checkVisibility === 'function' && !el.checkVisibility()) return false
    return true
  })
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
