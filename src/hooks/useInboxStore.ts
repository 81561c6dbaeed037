import { useStore } from 'zustand'
import type { InboxUiState } from '../store/inboxStore'
import { useInboxContext } from './useInboxContext'

/**
 * Selects from the provider's UI store; re-renders only when the selected value changes.
 *
 * @example
 * const open = useInboxStore((s) => s.open)
 * const setOpen = useInboxStore((s) => s.setOpen)
 */
export function useInboxStore<T>(selector: (state: InboxUiState) => T, name = 'useInboxStore'): T {
  return useStore(useInboxContext(name).store, selector)
}
