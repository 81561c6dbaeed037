import { useStore } from 'zustand'
import type { InboxUiState } from '../store/inboxStore'
import { useInboxContext } from './useInboxContext'

/**
 * Selects from the provider's UI store; re-renders only when the selected value changes.
 *
 * @example
 * const open = useInboxStore((s) => s.open)
 * const setOpen = useInboxStore((s) => s.setOpen)
 * @param name - The component or hook named in the error thrown outside `<InboxProvider>`. @default 'useInboxStore'
 */
export function useInboxStore<T>(selector: (state: InboxUiState) => T, name = 'useInboxStore'): T {
  return useStore(useInboxContext(name).store, selector)
}
