import type { Part } from '../internal/ui'
import { useId } from 'react'
import type { ReactElement, ReactNode } from 'react'

/** A native checkbox with `role="switch"` and a visible label. */
export function Switch({
  label,
  checked,
  disabled,
  onChange,
  describedBy,
  pending,
  c,
}: {
  label: ReactNode
  checked: boolean
  disabled?: boolean | undefined
  onChange: (checked: boolean) => void
  describedBy?: string | undefined
  pending?: boolean | undefined
  c: Part
}): ReactElement {
  const id = useId()
  return (
    <div {...c('inbox-switch')} data-pending={pending ? '' : undefined} data-disabled={disabled ? '' : undefined}>
      <label htmlFor={id} {...c('inbox-switch__label')}>
        {label}
      </label>
      <input
        id={id}
        type="checkbox"
        role="switch"
        {...c('inbox-switch__input')}
        checked={checked}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.currentTarget.checked)}
      />
    </div>
  )
}
