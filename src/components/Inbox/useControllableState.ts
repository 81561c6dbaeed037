import { useCallback, useRef, useState } from 'react'

/** `value` / `defaultValue` / `onChange` state: controlled when `value` is given. */
export function useControllableState<T>(
  value: T | undefined,
  defaultValue: T,
  onChange?: (next: T) => void,
): [T, (next: T) => void] {
  const [inner, setInner] = useState(defaultValue)
  const controlled = value !== undefined
  const current = controlled ? value : inner
  const ref = useRef(current)
  ref.current = current
  const set = useCallback(
    (next: T) => {
      if (Object.is(next, ref.current)) return
      if (!controlled) setInner(next)
      onChange?.(next)
    },
    [controlled, onChange],
  )
  return [current, set]
}
