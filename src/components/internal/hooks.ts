import { useCallback, useRef, useState } from 'react'

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
