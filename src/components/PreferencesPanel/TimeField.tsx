import { useEffect, useRef, useState } from 'react'
import type { InputHTMLAttributes, ReactElement } from 'react'

/** How long typing may pause before what it gave is saved. */
const SETTLE_MS = 1000

/** Props of {@link TimeField}; the rest lands on the `<input>`. */
interface TimeFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> {
  /** What is saved, as `HH:MM`; empty for none. */
  value: string
  /** Saves a new `HH:MM`. */
  onCommit: (value: string) => void
}

/**
 * A time input that saves once per edit, not once per keystroke: typing "0830" passes through 08:00 and
 * 08:03 on its way, and only 08:30 is sent. It saves when it loses focus, on Enter, after a pause in typing,
 * and when it goes away with an edit unsaved. An emptied field goes back to what is saved.
 */
export function TimeField({ value, onCommit, onBlur, onKeyDown, ...rest }: TimeFieldProps): ReactElement {
  const [draft, setDraft] = useState<string | null>(null)
  // The edit not saved yet and its timer, and the latest props for the timer and the unmount to read.
  const pending = useRef<{ value: string; timer: ReturnType<typeof setTimeout> } | null>(null)
  const latest = useRef({ value, onCommit })
  useEffect(() => {
    latest.current = { value, onCommit }
  })
  const save = () => {
    const edit = pending.current
    if (!edit) return false
    clearTimeout(edit.timer)
    pending.current = null
    if (edit.value && edit.value !== latest.current.value) latest.current.onCommit(edit.value)
    return true
  }
  const flush = () => {
    if (save()) setDraft(null)
  }
  useEffect(() => () => void save(), [])
  return (
    <input
      {...rest}
      type="time"
      value={draft ?? value}
      onChange={(e) => {
        const next = e.currentTarget.value
        setDraft(next)
        if (pending.current) clearTimeout(pending.current.timer)
        pending.current = { value: next, timer: setTimeout(flush, SETTLE_MS) }
      }}
      onBlur={(e) => {
        flush()
        onBlur?.(e)
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') flush()
        onKeyDown?.(e)
      }}
    />
  )
}
