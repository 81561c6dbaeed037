import { useEffect, useRef, useState } from 'react'
import type { InputHTMLAttributes, ReactElement } from 'react'

/** How long typing may pause before what it gave is saved. */
const SETTLE_MS = 1000

/** Props of {@link TimeField}; the rest lands on the `<input>`. */
interface TimeFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> {
  /** What is saved, as `HH:MM`; empty for none. */
  value: string
  /** Saves a new `HH:MM`; `false` refuses it (the field keeps it, marked invalid, and says `refusal`). */
  onCommit: (value: string) => boolean
  /** What the field says of a time `onCommit` refused, as the browser says its own validation messages. */
  refusal: string
}

/**
 * A time input that saves once per edit, not once per keystroke: typing "0830" passes through 08:00 and
 * 08:03 on its way, and only 08:30 is sent. It saves when it loses focus, on Enter, after a pause in typing,
 * and when it goes away with an edit unsaved. An emptied field goes back to what is saved. A time its owner
 * refuses stays in the field, marked invalid, and is tried again when the field's `min` or `max` moves.
 */
export function TimeField({ value, onCommit, refusal, onBlur, onKeyDown, ...rest }: TimeFieldProps): ReactElement {
  const [draft, setDraft] = useState<string | null>(null)
  const [refused, setRefused] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  // The edit not saved yet and its timer, and the latest props for the timer and the unmount to read.
  const pending = useRef<{ value: string; timer: ReturnType<typeof setTimeout> } | null>(null)
  const latest = useRef({ value, onCommit })
  useEffect(() => {
    latest.current = { value, onCommit }
  })
  /** Saves the edit not saved yet: null when there is none, else whether it was taken. */
  const save = () => {
    const edit = pending.current
    if (!edit) return null
    clearTimeout(edit.timer)
    pending.current = null
    return !edit.value || edit.value === latest.current.value || latest.current.onCommit(edit.value)
  }
  const flush = () => {
    const taken = save()
    if (taken === null) return
    setRefused(!taken)
    // The inbox's own words, in its language, rather than the browser's for `min` and `max`.
    input.current?.setCustomValidity(taken ? '' : refusal)
    if (taken) setDraft(null)
    else input.current?.reportValidity()
  }
  useEffect(() => () => void save(), [])
  // A refused time is tried again once its bounds move (the other end of the day's hours was changed).
  useEffect(() => {
    if (!refused || draft === null) return
    if (pending.current) clearTimeout(pending.current.timer)
    pending.current = { value: draft, timer: setTimeout(flush, 0) }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a change of the bounds tries again
  }, [rest.min, rest.max])
  return (
    <input
      {...rest}
      ref={input}
      type="time"
      value={draft ?? value}
      aria-invalid={refused || undefined}
      onChange={(e) => {
        const next = e.currentTarget.value
        e.currentTarget.setCustomValidity('')
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
