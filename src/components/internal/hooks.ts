import { useCallback, useEffect, useRef, useState } from 'react'
import { warmFormats } from '../../core/format'

/**
 * State that a parent may control (`value` given) or leave to the component (`defaultValue` as the
 * initial state); `onChange` hears every change either way.
 *
 * @example
 * const [open, setOpen] = useControllableState(props.open, props.defaultOpen ?? false, props.onOpenChange)
 */
export function useControllableState<T>(
  value: T | undefined,
  defaultValue: T,
  onChange?: (value: T) => void,
): [T, (next: T) => void] {
  const [own, setOwn] = useState(defaultValue)
  const controlled = value !== undefined
  const current = controlled ? value : own
  const latest = useRef({ current, onChange })
  latest.current = { current, onChange }
  const set = useCallback(
    (next: T) => {
      if (Object.is(next, latest.current.current)) return
      if (!controlled) setOwn(next)
      latest.current.onChange?.(next)
    },
    [controlled],
  )
  return [current, set]
}

/**
 * Once `ready` (the count is shown), builds the formatters the feed's rows need in the browser's idle time,
 * off the path to the bell and to the first opening.
 */
export function useWarmFormats(locale: string, ready: boolean): void {
  useEffect(() => {
    if (!ready || typeof window !== 'object') return
    const run = () => warmFormats(locale)
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(run, { timeout: 2000 })
      return () => cancelIdleCallback(id)
    }
    const id = setTimeout(run, 300)
    return () => clearTimeout(id)
  }, [locale, ready])
}
