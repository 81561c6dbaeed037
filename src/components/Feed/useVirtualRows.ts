import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react'
import { flushSync } from 'react-dom'
import { useIsoLayoutEffect } from '../internal/ui'

/** Size of the scroll viewport when the element has no layout yet (server render, jsdom). */
export interface ViewportRect {
  width: number
  height: number
}

/** Options of {@link useVirtualRows}. */
export interface VirtualRowsOptions {
  /** One stable key per row; a row's measured height follows its key when rows are inserted above it. */
  keys: readonly string[]
  /** Height in px assumed until a row is measured. */
  estimateSize: (index: number) => number
  /** Rows rendered beyond each edge of the viewport. @default 4 */
  overscan?: number
  /** Viewport used while the element reports no size. @default { width: 400, height: 600 } */
  initialRect?: ViewportRect
}

/** A row to render and where it goes. */
interface VirtualRow {
  index: number
  key: string
  start: number
  size: number
}

function firstIndexAfter(starts: Float64Array, count: number, offset: number): number {
  // First row whose end is past `offset` (binary search over cumulative starts).
  let lo = 0
  let hi = count - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((starts[mid + 1] ?? 0) <= offset) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * A small virtualizer for a vertical list of rows with variable, measured heights.
 * Rows are absolutely positioned inside a spacer of the total height; rows that change height above
 * the viewport shift the scroll position by the same amount so that what the reader sees stays put.
 */
export function useVirtualRows({ keys, estimateSize, overscan = 4, initialRect }: VirtualRowsOptions) {
  const [element, setElement] = useState<HTMLElement | null>(null)
  const sizes = useRef(new Map<string, number>())
  const [version, bump] = useReducer((n: number) => n + 1, 0)
  const [scrollTop, setScrollTop] = useState(0)
  const [viewport, setViewport] = useState(initialRect?.height ?? 600)
  const fallbackHeight = initialRect?.height ?? 600
  const count = keys.length
  const estimateRef = useRef(estimateSize)
  estimateRef.current = estimateSize

  const starts = useMemo(() => {
    const out = new Float64Array(count + 1)
    for (let i = 0; i < count; i++) {
      const key = keys[i] as string
      out[i + 1] = (out[i] ?? 0) + (sizes.current.get(key) ?? estimateRef.current(i))
    }
    return out
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `version` changes when a measurement does
  }, [keys, count, version])
  const startsRef = useRef(starts)
  startsRef.current = starts
  const totalSize = starts[count] ?? 0

  useEffect(() => {
    if (!element) return
    const read = () => {
      const h = element.clientHeight
      // An unconstrained scroller is as tall as its content; the window bounds what can be in view.
      const win = element.ownerDocument.defaultView?.innerHeight ?? 0
      setViewport(h > 0 ? (win > 0 ? Math.min(h, win) : h) : fallbackHeight)
    }
    read()
    const onScroll = () => setScrollTop(element.scrollTop)
    element.addEventListener('scroll', onScroll, { passive: true })
    const RO = element.ownerDocument.defaultView?.ResizeObserver
    const ro = RO ? new RO(read) : null
    ro?.observe(element)
    return () => {
      element.removeEventListener('scroll', onScroll)
      ro?.disconnect()
    }
  }, [element, fallbackHeight])

  const first = count === 0 ? 0 : firstIndexAfter(starts, count, scrollTop)
  let last = first
  while (last < count - 1 && (starts[last + 1] ?? 0) < scrollTop + viewport) last++
  const from = Math.max(0, first - overscan)
  const to = Math.min(count - 1, last + overscan)

  const rows: VirtualRow[] = []
  if (count > 0) {
    for (let i = from; i <= to; i++) {
      const start = starts[i] ?? 0
      rows.push({ index: i, key: keys[i] as string, start, size: (starts[i + 1] ?? start) - start })
    }
  }

  const pending = useRef(false)
  const shift = useRef(0)
  const keysRef = useRef(keys)
  keysRef.current = keys
  const measure = useCallback(
    (el: Element) => {
      const index = Number((el as HTMLElement).dataset.index)
      const key = keysRef.current[index]
      if (key === undefined) return
      // The exact height: offsetHeight rounds to whole pixels, and a row placed a fraction too high hides
      // the divider of the row above.
      const h = el.getBoundingClientRect().height
      if (!(h > 0)) return
      const old = sizes.current.get(key) ?? estimateRef.current(index)
      if (old === h) return
      sizes.current.set(key, h)
      if (element && (startsRef.current[index] ?? 0) < element.scrollTop) shift.current += h - old
      if (!pending.current) {
        pending.current = true
        queueMicrotask(() => {
          pending.current = false
          // Before the browser paints, so that rows never show at their estimated places.
          flushSync(bump)
          // Shift only once the spacer has its new height: earlier, the browser would clamp the shift.
          // (The scroller has overflow-anchor: none, so the browser's own anchoring adds nothing to it.)
          const by = shift.current
          shift.current = 0
          if (by !== 0 && element) element.scrollTop += by
        })
      }
    },
    [element],
  )

  const rowObserver = useMemo(() => {
    const RO = typeof window === 'undefined' ? undefined : window.ResizeObserver
    return RO ? new RO((entries) => entries.forEach((e) => measure(e.target))) : null
  }, [measure])
  useEffect(() => () => rowObserver?.disconnect(), [rowObserver])

  /** Ref for each rendered row (which must carry `data-index`). */
  const measureRef = useCallback(
    (el: HTMLElement | null) => {
      if (!el) return
      measure(el)
      rowObserver?.observe(el)
    },
    [measure, rowObserver],
  )

  /** Scrolls the least needed to show row `index` whole. */
  const scrollToIndex = useCallback(
    (index: number, align: 'auto' | 'start' = 'auto') => {
      if (!element) return
      const s = startsRef.current
      const start = s[index] ?? 0
      const end = s[index + 1] ?? start
      const top = element.scrollTop
      const height = element.clientHeight > 0 ? element.clientHeight : fallbackHeight
      let target = top
      if (align === 'start' || start < top) target = start
      else if (end > top + height) target = end - height
      if (target === top) return
      element.scrollTop = target
      setScrollTop(target)
    },
    [element, fallbackHeight],
  )

  useIsoLayoutEffect(() => {
    // Keep the offset in range after rows disappear (a filter, a shorter page).
    if (element && scrollTop > Math.max(0, totalSize - viewport) && scrollTop > 0) {
      const clamped = Math.max(0, totalSize - viewport)
      element.scrollTop = clamped
      setScrollTop(clamped)
    }
  }, [element, totalSize, viewport, scrollTop])

  return {
    /** Ref for the scrolling element. */
    scrollRef: setElement,
    scrollElement: element,
    rows,
    totalSize,
    measureRef,
    scrollToIndex,
    scrollTop,
    viewportHeight: viewport,
    /** Index range in view, without overscan. */
    visible: { first, last: count === 0 ? -1 : last },
  }
}
