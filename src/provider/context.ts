import type { DehydratedState, QueryClient } from '@tanstack/react-query'
import { createContext, useContext, useEffect, useLayoutEffect } from 'react'
import type { InboxClient, InboxClientOptions, SubscriberClient } from '../api/types'
import type { InboxSync } from '../core/sync'
import type { CoreMessages } from '../i18n/en'
import type { InboxMessages } from '../i18n/types'

/** Colour scheme: fixed, or following the system setting. */
export type InboxTheme = 'light' | 'dark' | 'system'

/** What {@link useInboxContext} gives: the provider's client, QueryClient and subscriber. */
export interface InboxContextValue {
  /** The API client every request of this provider goes through. */
  client: SubscriberClient | InboxClient
  /** The provider's own QueryClient (or the one passed in). */
  queryClient: QueryClient
  /** Whose inbox this is. */
  subscriberId: string
  /**
   * Looks for news now, as Try again does: the counts, every list in the cache and any read that failed. Resolves
   * when done and never rejects: a failure is told in the hooks' `error`.
   */
  refresh: () => Promise<void>
  /** The provider's locale of dates and numbers. */
  locale: string
  theme: InboxTheme
}

/** Everything the kit's hooks and components share below one provider. */
export interface InboxScope {
  sync: InboxSync
  /** What the provider built its client from (admin hooks build a full client from it). */
  clientOptions: InboxClientOptions | undefined
  locale: string
  /** The provider's `messages`. */
  messages: Partial<InboxMessages> | undefined
  /** Every string, English with `messages` on top: made by the first component that needs them. */
  m?: InboxMessages | undefined
  /** The strings of what renders from the first paint, likewise. */
  core?: CoreMessages | undefined
  /** The colour scheme the components draw in, `system` resolved. */
  scheme: 'light' | 'dark'
  /** `false` while the provider waits: no request is made. */
  enabled: boolean
  /** The provider's `initialState`: when its data was read is "now" while the server renders and the browser hydrates. */
  initialState: DehydratedState | undefined
  value: InboxContextValue
}

export const InboxContext = /* @__PURE__ */ createContext<InboxScope | null>(null)

/** The provider's scope; throws outside one, naming the component or hook at fault. */
export function useInboxScope(name: string): InboxScope {
  const scope = useContext(InboxContext)
  if (!scope)
    throw new Error(
      `\`${name}\` must be used within \`<InboxProvider>\`` +
        // `<Inbox>` brings its own provider when it has a subscriber.
        (name === 'Inbox' ? ' or given a `subscriberId` (it has none)' : ''),
    )
  return scope
}

/**
 * The nearest {@link InboxProvider}'s client, QueryClient and subscriber, for requests of your own.
 * Throws outside a provider.
 *
 * @example
 * const { client, subscriberId } = useInboxContext()
 * const page = await client.getFeed(subscriberId, { limit: 5 })
 */
export function useInboxContext(): InboxContextValue {
  return useInboxScope('useInboxContext').value
}

/** `useLayoutEffect` in the browser, `useEffect` on the server (where layout effects warn). */
export const useIsoLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect
