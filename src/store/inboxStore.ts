import { createStore, type StoreApi } from 'zustand/vanilla'

/** Which screen the inbox shows. */
export type InboxView = 'feed' | 'preferences'

/** UI state of one inbox: nothing from the service lives here (that is React Query's cache). */
export interface InboxUiState {
  /** Whether the popover is open. @default false */
  open: boolean
  setOpen: (open: boolean) => void
  /** @default 'feed' */
  view: InboxView
  setView: (view: InboxView) => void
  /** The active tab or filter, e.g. `'all'` or `'unread'`. @default 'all' */
  tab: string
  setTab: (tab: string) => void
  /** The item that has keyboard focus in the feed. @default null */
  focusedId: string | null
  setFocusedId: (id: string | null) => void
}

/** A provider's UI store. */
export type InboxStore = StoreApi<InboxUiState>

/**
 * Creates the UI store of one provider (a zustand vanilla store).
 * @example
 * const store = createInboxStore({ open: true })
 * store.getState().setTab('unread')
 */
export function createInboxStore(initial: Partial<Pick<InboxUiState, 'open' | 'view' | 'tab' | 'focusedId'>> = {}): InboxStore {
  return createStore<InboxUiState>()((set) => ({
    open: false,
    view: 'feed',
    tab: 'all',
    focusedId: null,
    ...initial,
    setOpen: (open) => set({ open }),
    setView: (view) => set({ view }),
    setTab: (tab) => set({ tab }),
    setFocusedId: (focusedId) => set({ focusedId }),
  }))
}
