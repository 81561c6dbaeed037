import type { SyntheticEvent } from 'react'

/**
 * Runs the consumer's handler first; the built-in one runs unless the consumer called `preventDefault()`.
 */
export function compose<E extends SyntheticEvent>(
  consumer: ((event: E) => void) | undefined,
  builtin: (event: E) => void,
): (event: E) => void {
  return (event) => {
    consumer?.(event)
    if (!event.defaultPrevented) builtin(event)
  }
}
