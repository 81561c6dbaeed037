import type { QueryClient } from '@tanstack/react-query'
import { createContext } from 'react'
import type { InboxClient } from '../api/types'
import type { CrossTabMessage } from '../core/crossTab'
import type { InboxMessages } from '../i18n/types'
import type { InboxStore } from '../store/inboxStore'

/** Colour scheme: fixed, or following the system setting. */
export type InboxTheme = 'light' | 'dark' | 'system'

/** What {@link InboxProvider} gives the hooks and components below it. */
export interface InboxContextValue {
  /** The API client every request goes through. */
  client: InboxClient
  /** The provider's own QueryClient (or the one passed in); the host app's is never used. */
  queryClient: QueryClient
  /** Whose inbox this is. */
  subscriberId: string
  /** UI state (open, view, tab, focused item). */
  store: InboxStore
  /** BCP 47 locale of the built-in strings and of dates. */
  locale: string
  /** The app's overrides of the built-in strings, as passed to the provider. */
  messages: Partial<InboxMessages> | undefined
  theme: InboxTheme
  /** `false` while the provider waits (no request is made). */
  enabled: boolean
  /** Poll interval in ms; `0` when polling is off. */
  pollInterval: number
  /** Tells the other tabs of this subscriber about a change. */
  broadcast: (message: CrossTabMessage) => void
  /** Polls now: refetches the counts, and the other lists if they changed. */
  refresh: () => Promise<void>
}

/** The context behind {@link useInboxContext}; `null` outside a provider. */
export const InboxContext = createContext<InboxContextValue | null>(null)
InboxContext.displayName = 'InboxContext'
