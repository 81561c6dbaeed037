import {
  HydrationBoundary,
  QueryClient,
  focusManager,
  onlineManager,
  type DehydratedState,
} from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { createInboxClient } from '../api/client'
import type { InboxClient } from '../api/types'
import { crossTabChannelName, openCrossTab, type CrossTab, type CrossTabMessage } from '../core/crossTab'
import { applyRemoteFeedChange, dropFeedLedger } from '../core/feedSync'
import { applyRemotePreferencesChange } from '../core/preferencesSync'
import { startFeedPolling } from '../core/polling'
import { DEFAULT_POLL_INTERVAL } from '../core/queries'
import { inboxKeys } from '../core/queryKeys'
import type { InboxMessages } from '../i18n/types'
import { createInboxStore } from '../store/inboxStore'
import { InboxContext, type InboxContextValue, type InboxTheme } from './InboxContext'

/** Props of {@link InboxProvider}. */
export interface InboxProviderProps {
  /** Whose inbox to show. Changing it starts from a clean cache. */
  subscriberId: string
  /**
   * Address of the service, or of a proxy in front of it (e.g. `/api/inbox`). Ignored when `client` is given.
   * @default '' (the page's own origin)
   */
  baseUrl?: string
  /** Sends `Authorization: ApiKey <key>`. Only for trusted environments: a browser should talk to a proxy. */
  apiKey?: string
  /** Extra headers sent with every request; read on each request, so a new object needs no new client. */
  headers?: Record<string, string>
  /** Headers computed per request, e.g. a session token that may be refreshed. */
  getHeaders?: () => Record<string, string> | Promise<Record<string, string>>
  /** The `fetch` to use. @default globalThis.fetch */
  fetch?: typeof fetch
  /** A ready client; replaces `baseUrl`, `apiKey`, `headers`, `getHeaders` and `fetch`. */
  client?: InboxClient
  /**
   * A QueryClient for the inbox's data. By default the provider creates its own, so the app's own
   * React Query setup is never touched.
   */
  queryClient?: QueryClient
  /**
   * How often to look for new notifications, in ms; `0` turns polling off. Paused while the page is
   * hidden or offline; a missed poll runs when the page is visible (online) again.
   * @default 30000
   */
  pollInterval?: number
  /** Locale of the built-in strings and of dates. @default 'en' */
  locale?: string
  /** Overrides of the built-in strings. */
  messages?: Partial<InboxMessages>
  /** @default 'light' */
  theme?: InboxTheme
  /**
   * `false` makes the provider wait: no request until it becomes `true` (e.g. until a token is ready).
   * @default true
   */
  enabled?: boolean
  /**
   * Data loaded on the server (`dehydrate(queryClient)` after {@link prefetchInbox}); the first render
   * uses it and no request repeats it.
   */
  initialState?: DehydratedState
  children?: ReactNode
}

function createOwnQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
}

/**
 * Supplies the API client, a QueryClient of its own and a UI store to every inbox hook and
 * component below it. Renders on the server without touching `window`, `document` or storage.
 *
 * @example
 * <InboxProvider subscriberId={user.id} baseUrl="/api/inbox" getHeaders={async () => ({ authorization: `Bearer ${await token()}` })}>
 *   <Bell />
 * </InboxProvider>
 */
export function InboxProvider(props: InboxProviderProps): ReactNode {
  const {
    subscriberId,
    baseUrl = '',
    apiKey,
    client: clientProp,
    pollInterval = DEFAULT_POLL_INTERVAL,
    locale = 'en',
    messages,
    theme = 'light',
    enabled = true,
    initialState,
    children,
  } = props

  // Read on every request, so new header objects or fetch functions need no new client.
  const latest = useRef(props)
  latest.current = props
  const ownClient = useMemo(
    () =>
      clientProp
        ? undefined
        : createInboxClient({
            baseUrl,
            ...(apiKey ? { apiKey } : {}),
            fetch: (input, init) => (latest.current.fetch ?? globalThis.fetch)(input, init),
            getHeaders: async () => ({ ...latest.current.headers, ...(await latest.current.getHeaders?.()) }),
          }),
    [clientProp, baseUrl, apiKey],
  )
  const client = clientProp ?? (ownClient as InboxClient)

  const ownQueryClient = useRef<QueryClient | null>(null)
  if (!props.queryClient && !ownQueryClient.current) ownQueryClient.current = createOwnQueryClient()
  const queryClient = props.queryClient ?? (ownQueryClient.current as QueryClient)

  const [store] = useState(() => createInboxStore())

  useEffect(() => {
    queryClient.mount()
    return () => queryClient.unmount()
  }, [queryClient])

  // After a switch the hooks below already read the new subscriber's keys (their effects run first):
  // drop the previous subscriber's data and stop its requests.
  const previous = useRef(subscriberId)
  useEffect(() => {
    const old = previous.current
    previous.current = subscriberId
    if (old === subscriberId) return
    void queryClient.cancelQueries({ queryKey: inboxKeys.all(old) })
    queryClient.removeQueries({ queryKey: inboxKeys.all(old) })
    dropFeedLedger(queryClient, old)
    store.getState().setFocusedId(null)
  }, [queryClient, subscriberId, store])

  const channel = useRef<{ subscriberId: string; tab: CrossTab } | null>(null)
  useEffect(() => {
    const tab = openCrossTab(crossTabChannelName(client.options.baseUrl, subscriberId), (message) => {
      if (message.type === 'preferences') applyRemotePreferencesChange(queryClient, subscriberId, message)
      else applyRemoteFeedChange(queryClient, subscriberId, message)
    })
    const entry = { subscriberId, tab }
    channel.current = entry
    return () => {
      tab.close()
      if (channel.current === entry) channel.current = null
    }
  }, [client, queryClient, subscriberId])

  const poller = useRef<{ tick(): Promise<void> } | null>(null)
  useEffect(() => {
    if (!enabled || subscriberId === '') return
    const started = startFeedPolling({
      queryClient,
      subscriberId,
      interval: pollInterval,
      environment: { focusManager, onlineManager },
    })
    poller.current = started
    return () => {
      started.stop()
      if (poller.current === started) poller.current = null
    }
  }, [queryClient, subscriberId, pollInterval, enabled])

  // Stable per subscriber, so hooks that build mutation options from them keep their options.
  const broadcast = useCallback(
    (message: CrossTabMessage) => {
      // A change made for a previous subscriber is not announced to the current one's tabs.
      if (channel.current?.subscriberId === subscriberId) channel.current.tab.post(message)
    },
    [subscriberId],
  )
  const refresh = useCallback(() => poller.current?.tick() ?? Promise.resolve(), [])

  const value = useMemo<InboxContextValue>(
    () => ({
      client,
      queryClient,
      subscriberId,
      store,
      locale,
      messages,
      theme,
      enabled: enabled && subscriberId !== '',
      pollInterval: pollInterval > 0 ? pollInterval : 0,
      broadcast,
      refresh,
    }),
    [client, queryClient, subscriberId, store, locale, messages, theme, enabled, pollInterval, broadcast, refresh],
  )

  return (
    <InboxContext.Provider value={value}>
      <HydrationBoundary state={initialState} queryClient={queryClient}>
        {children}
      </HydrationBoundary>
    </InboxContext.Provider>
  )
}
