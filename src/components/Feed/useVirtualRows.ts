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
  overscan?: number | undefined
  /** Viewport used while the element reports no size. @default { width: 400, height: 600 } */
  initialRect?: ViewportRect | undefined
  /** A row rendered wherever it is (the one in the tab order, so that focus on it survives a scroll). */
  keep?: number | undefined
}

/**
 * A small virtualizer for a vertical list of rows with variable, measured heights.
 * Rows are absolutely positioned inside a spacer of the total height; rows that change height above
 * the viewport shift the scroll position by the same amount so that what the reader sees stays put.
 */
export function useVirtualRows({ keys, estimateSize, overscan = 4, initialRect, keep = -1 }: VirtualRowsOptions) {
  const [element, setElement] = useState<HTMLElement | null>(null)
  const sizes = useRef(new Map<string, number>())
  const [version, bump] = useReducer((n: number) => n + 1, 0)
  const [scrollTop, setScrollTop] = useState(0)
  const fallbackHeight = initialRect?.height ?? 600
  const [viewport, setViewport] = useState(fallbackHeight)
  const count = keys.length
  const estimateRef = useRef(estimateSize)
  estimateRef.current = estimateSize

  // Where each row starts. A measurement changes the starts after its row only: those before are kept, so that
  // rows measured near the end of 10,000 do not add them all up again.
  const built = useRef<{ keys: readonly string[]; starts: Float64Array } | null>(null)
  /** The first row measured anew since the starts were last added up. */
  const changedFrom = useRef(0)
  const starts = useMemo(() => {
    const from = built.current?.keys === keys ? Math.min(changedFrom.current, count) : 0
    const out = from > 0 ? built.current!.starts.slice() : new Float64Array(count + 1)
    for (let i = from; i < count; i++) out[i + 1] = out[i]! + (sizes.current.get(keys[i]!) ?? estimateRef.current(i))
    built.current = { keys, starts: out }
    changedFrom.current = count
    return out
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `version` changes when a measurement does
  }, [keys, count, version])
  const startsRef = useRef(starts)
  startsRef.current = starts
  const totalSize = starts[count]!

  useEffect(() => {
    if (!element) return
    const win = element.ownerDocument.defaultView
    const read = () => {
      const h = element.clientHeight
      // An unconstrained scroller is as tall as its content; the window bounds what can be in view.
      const w = win?.innerHeight ?? 0
      setViewport(h > 0 ? (w > 0 ? Math.min(h, w) : h) : fallbackHeight)
    }
    read()
    // The rows of the new offset rendered at once, in the frame of the scroll, before the browser lays it out: left
    // to a task after it, they would be drawn a frame late, and the next scroll's read of the offset would find the
    // page changed since its layout and lay it out again on the spot.
    const onScroll = () => flushSync(() => setScrollTop(element.scrollTop))
    element.addEventListener('scroll', onScroll, { passive: true })
    const RO = win?.ResizeObserver
    const ro = RO ? new RO(read) : null
    ro?.observe(element)
    return () => {
      element.removeEventListener('scroll', onScroll)
      ro?.disconnect()
    }
  }, [element, fallbackHeight])

  // The first row whose end is past the top (binary search over the starts), and the last that begins in view.
  let first = 0
  for (let hi = count - 1; first < hi;) {
    const mid = (first + hi) >> 1
    if (starts[mid + 1]! <= scrollTop) first = mid + 1
    else hi = mid
  }
  let last = first
  while (last < count - 1 && starts[last + 1]! < scrollTop + viewport) last++

  /** The rows to render (those in view and `overscan` beyond, and `keep`) and where each starts, in order. */
  const rows: { index: number; start: number }[] = []
  const from = Math.max(0, first - overscan)
  const to = Math.min(count - 1, last + overscan)
  if (keep >= 0 && keep < from) rows.push({ index: keep, start: starts[keep]! })
  for (let i = from; i <= to; i++) rows.push({ index: i, start: starts[i]! })
  if (keep > to && keep < count) rows.push({ index: keep, start: starts[keep]! })

  const pending = useRef(false)
  const shift = useRef(0)
  const keysRef = useRef(keys)
  keysRef.current = keys
  /** Takes a row's height (`h`, as the ResizeObserver reported it; else read from the row). */
  const measure = useCallback(
    (el: Element, h = el.getBoundingClientRect().height) => {
      const index = Number((el as HTMLElement).dataset.index)
      const key = keysRef.current[index]
      if (key === undefined) return
      if (!(h > 0)) return
      const old = sizes.current.get(key) ?? estimateRef.current(index)
      if (old === h) return
      sizes.current.set(key, h)
      changedFrom.current = Math.min(changedFrom.current, index)
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

  // Rows are measured by a ResizeObserver: it reports a row's size once the browser has laid the page out
  // anyway, when it first observes the row (still before the row is painted) and whenever it changes. Reading a
  // row's size as it mounts, right after React wrote the rows' styles, made the browser lay the page out on the
  // spot, in the middle of each commit that mounted a row.
  const rowObserver = useMemo(() => {
    const RO = typeof window === 'undefined' ? undefined : window.ResizeObserver
    return RO
      ? new RO((entries) =>
          entries.forEach((e) =>
            // The border box, as getBoundingClientRect gives it: exact, not rounded to whole pixels (a row placed a
            // fraction too high hides the divider of the row above).
            measure(e.target, e.borderBoxSize?.[0]?.blockSize ?? e.target.getBoundingClientRect().height),
          ),
        )
      : null
  }, [measure])
  useEffect(() => () => rowObserver?.disconnect(), [rowObserver])

  /** Ref for each rendered row (which must carry `data-index`). */
  const measureRef = useCallback(
    (el: HTMLElement | null) => {
      if (!el) return
      if (rowObserver) rowObserver.observe(el)
      else measure(el)
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
      const target = align === 'start' || start < top ? start : end > top + height ? end - height : top
      if (target === top) return
      element.scrollTop = target
      setScrollTop(target)
    },
    [element, fallbackHeight],
  )

  useIsoLayoutEffect(() => {
    // Keep the offset in range after rows disappear (a filter, a shorter page).
    const max = Math.max(0, totalSize - viewport)
    if (element && scrollTop > max) {
      element.scrollTop = max
      setScrollTop(max)
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
