import { useEffect, useRef } from 'react'
import type { RefObject } from 'react'
import { trapTab } from './focus'

/** Why a layer is being dismissed. */
export type DismissReason = 'escape' | 'outside' | 'focus-outside'

/** Options of {@link useDismissableLayer}. */
export interface DismissableLayerOptions {
  /** Listens only while true. @default true */
  enabled?: boolean | undefined
  /**
   * Called when the layer should close: Escape pressed inside it, a pointer pressed outside it, or focus
   * moved outside it. Closing is the caller's: to stay open, do nothing. An Escape that a part inside handled
   * (calling `preventDefault()`) is not reported; one reported is then prevented, so a layer around this one
   * stays open.
   */
  onDismiss: (reason: DismissReason, event: Event) => void
  /** Elements that count as inside besides the layer (its trigger, say). */
  inside?: () => (Element | null | undefined)[]
}

/**
 * Tells when a layer (popover, menu, dialog) should close, as Radix's `DismissableLayer` does: Escape,
 * a pointer down outside, or focus leaving it. The caller decides what closing means.
 *
 * @example
 * useDismissableLayer(ref, { onDismiss: () => setOpen(false), inside: () => [triggerRef.current] })
 */
export function useDismissableLayer(ref: RefObject<HTMLElement | null>, options: DismissableLayerOptions): void {
  const latest = useRef(options)
  latest.current = options
  const enabled = options.enabled !== false
  useEffect(() => {
    const layer = ref.current
    if (!enabled || !layer) return
    const doc = layer.ownerDocument
    const isInside = (target: EventTarget | null) =>
      target instanceof Node && [layer, ...(latest.current.inside?.() ?? [])].some((el) => el?.contains(target))
    // On the document, after React's own handlers: a part inside that handles Escape prevents the default.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || !isInside(event.target)) return
      latest.current.onDismiss('escape', event)
      event.preventDefault()
    }
    const onPointerDown = (event: Event) => {
      if (!isInside(event.target)) latest.current.onDismiss('outside', event)
    }
    const onFocusIn = (event: FocusEvent) => {
      if (!isInside(event.target)) latest.current.onDismiss('focus-outside', event)
    }
    doc.addEventListener('keydown', onKeyDown)
    doc.addEventListener('pointerdown', onPointerDown, true)
    doc.addEventListener('focusin', onFocusIn)
    return () => {
      doc.removeEventListener('keydown', onKeyDown)
      doc.removeEventListener('pointerdown', onPointerDown, true)
      doc.removeEventListener('focusin', onFocusIn)
    }
  }, [enabled, ref])
}

/** Options of {@link useFocusScope}. */
export interface FocusScopeOptions {
  /** Active only while true. @default true */
  enabled?: boolean | undefined
  /** Keeps Tab and Shift+Tab inside, wrapping at both ends. @default true */
  trapped?: boolean | undefined
  /** Focuses the container when the scope starts (give it `tabIndex={-1}`). @default true */
  autoFocus?: boolean | undefined
}

/**
 * Moves focus into a container when it mounts and keeps Tab inside it, as Radix's `FocusScope` does.
 * Where focus goes afterwards is the caller's: the element that opened it, usually.
 *
 * @example
 * useFocusScope(dialogRef, { enabled: open })
 */
export function useFocusScope(ref: RefObject<HTMLElement | null>, options: FocusScopeOptions = {}): void {
  const { enabled = true, trapped = true, autoFocus = true } = options
  useEffect(() => {
    const el = ref.current
    if (!enabled || !el) return
    // Without scrolling: an `overflow: hidden` box around the popover (an app's header) would scroll its
    // content, the trigger with it, to show the part of the popover it clips.
    if (autoFocus && !el.contains(el.ownerDocument.activeElement)) el.focus({ preventScroll: true })
    if (!trapped) return
    const onKeyDown = (event: KeyboardEvent) => void trapTab(el, event)
    el.addEventListener('keydown', onKeyDown)
    return () => el.removeEventListener('keydown', onKeyDown)
  }, [enabled, trapped, autoFocus, ref])
}
