import { QueryClient, type DehydratedState } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react'
import { createSubscriberClient } from '../api/client'
import type { FeedItem, InboxClient, InboxClientOptions, SubscriberClient } from '../api/types'
import { inboxKeys } from '../core/queries'
import { createInboxSync, importOnline, whenOnline } from '../core/sync'
import type { InboxMessages } from '../i18n/types'
import { InboxContext, useInboxScope, type InboxScope, type InboxTheme } from './context'

/** Props of {@link InboxProvider}. */
export interface InboxProviderProps {
  /** Whose inbox to show. Changing it starts from a clean cache. */
  subscriberId: string
  /**
   * Address of the service, or of a proxy in front of it (e.g. `/api/inbox`). Ignored when `client` is given.
   * @default '' (the page's own origin)
   */
  baseUrl?: string | undefined
  /** Sends `Authorization: ApiKey <key>`. Only for trusted environments: a browser should talk to a proxy. */
  apiKey?: string | undefined
  /** Extra headers sent with every request; read on each request, so a new object needs no new client. */
  headers?: Record<string, string> | undefined
  /** Headers computed per request, e.g. a session token that may be refreshed. */
  getHeaders?: (() => Record<string, string> | Promise<Record<string, string>>) | undefined
  /** The `fetch` to use. @default globalThis.fetch */
  fetch?: typeof fetch | undefined
  /** A ready client; replaces `baseUrl`, `apiKey`, `headers`, `getHeaders`, `fetch` and `auth`. */
  client?: SubscriberClient | InboxClient | undefined
  /**
   * A QueryClient for the inbox's data. By default the provider creates its own, so the app's own
   * React Query setup is never touched.
   */
  queryClient?: QueryClient | undefined
  /**
   * How often to look for new notifications, in ms, instead of the adaptive default (10 s while a tab of
   * the app is focused, 30 s while one is visible); `0` turns polling off. Either way none while all tabs are
   * hidden or offline, and once a minute while the proxy's event stream is open (a safety net; `stream={false}`
   * to do without). One tab per browser profile looks and tells the others.
   */
  pollInterval?: number | undefined
  /**
   * A token helper (`createTokenAuth`): its headers go with every request, and on a 401 it is asked once
   * for a fresh token before the request is repeated. Use instead of `getHeaders`.
   */
  auth?: { getHeaders(): Promise<Record<string, string>> | Record<string, string>; invalidate?(): void } | undefined
  /**
   * Called once per new notification per browser profile (not once per tab), with the new items: by the provider
   * that leads, or, when that one has none, by one that has (in another tab, or another of this inbox on the page).
   */
  onNotification?: ((items: FeedItem[]) => void) | undefined
  /**
   * Called when the service refuses the credentials even after fresh ones were asked for (signed out): a read of
   * the inbox, the first ones of a mount included, or a look for news. Once, until a tab is focused again.
   */
  onAuthError?: ((error: Error) => void) | undefined
  /** Shows the unread count on the installed app's icon (`navigator.setAppBadge`) where the browser can. @default false */
  appBadge?: boolean | undefined
  /**
   * Reads the proxy's event stream (`inbox-kit/proxy` with `events`) when it offers one.
   * @default true; false with `apiKey`, or a `client` made with one (the API itself has no event stream)
   */
  stream?: boolean | undefined
  /** BCP 47 locale of dates, numbers and plural forms. @default `messages.lang`, else 'en' */
  locale?: string | undefined
  /**
   * The strings: a locale from `inbox-kit/locales/<code>` (`import { de } from 'inbox-kit/locales/de'`),
   * overrides of some strings, or both (`{ ...de, inboxTitle: 'Mitteilungen' }`). @default English
   */
  messages?: Partial<InboxMessages> | undefined
  /** @default 'light' */
  theme?: InboxTheme | undefined
  /**
   * `false` makes the provider wait: no request until it becomes `true` (e.g. until a token is ready).
   * @default true
   */
  enabled?: boolean | undefined
  /**
   * Data loaded on the server (`dehydrate(queryClient)` after `prefetchInbox` from `inbox-kit/server`);
   * the first render uses it and no request repeats it. Its successful queries are taken (what `dehydrate`
   * gives by default); any other is fetched in the browser.
   */
  initialState?: DehydratedState | undefined
  children?: ReactNode | undefined
}

/**
 * The QueryClients of providers not yet mounted, by subscriber, address and server data. A Suspense boundary above
 * a provider throws away the state of a first render that suspends (a child's `useSuspenseQuery`) and renders it
 * again once the data came: a QueryClient made anew would not hold that data, and would fetch it, suspend and be
 * thrown away again, for ever. Two providers of one inbox mounting together share it, as they may share one given,
 * when given the same server data: on a server each has its own, and one given none must hydrate as it was drawn
 * there, without the other's.
 */
const mounting = new Map<string, [QueryClient, unknown]>()

/**
 * Supplies the API client, a QueryClient of its own and the inbox's bookkeeping to every hook and
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
    client: given,
    pollInterval,
    // The API itself, asked with an API key (the provider's or its client's), has no event stream.
    stream = (given ? given.options.apiKey : apiKey) === undefined,
    messages,
    locale = messages?.lang ?? 'en',
    theme = 'light',
    enabled = true,
    initialState,
    children,
  } = props

  // Read on every request, so new header objects or fetch functions need no new client.
  const latest = useRef(props)
  latest.current = props
  const clientOptions = useMemo<InboxClientOptions | undefined>(
    () =>
      given
        ? undefined
        : {
            baseUrl,
            apiKey,
            fetch: (input, init) => (latest.current.fetch ?? globalThis.fetch)(input, init),
            getHeaders: async () => ({
              ...latest.current.headers,
              ...(await latest.current.auth?.getHeaders()),
              ...(await latest.current.getHeaders?.()),
            }),
            onUnauthorized: () => latest.current.auth?.invalidate?.(),
          },
    [given, baseUrl, apiKey],
  )
  const client = useMemo(() => given ?? createSubscriberClient(clientOptions!), [given, clientOptions])
  const [own] = useState(() => {
    if (props.queryClient) return undefined
    const make = () => new QueryClient({ defaultOptions: { queries: { retry: false } } })
    // Not on a server, where nothing mounts to take it out again.
    if (typeof window !== 'object') return make()
    const key = JSON.stringify([subscriberId, baseUrl, initialState ?? null])
    const found = mounting.get(key)
    const made = found && found[1] === given ? found[0] : make()
    mounting.set(key, [made, given])
    return made
  })
  const queryClient = props.queryClient ?? own!
  // Server data goes in before anything reads the cache (and again when the server sends new data): the
  // queries it loaded, as React Query's `hydrate` puts them, without the bytes of what the kit never sends.
  // eslint-disable-next-line react-hooks/void-use-memo -- during render on purpose, as React Query's HydrationBoundary does
  useMemo(() => {
    for (const { queryKey, state } of initialState?.queries ?? [])
      if (state.status === 'success' && state.dataUpdatedAt > (queryClient.getQueryState(queryKey)?.dataUpdatedAt ?? 0))
        queryClient.setQueryData(queryKey, state.data, { updatedAt: state.dataUpdatedAt })
  }, [queryClient, initialState])
  const sync = useMemo(() => createInboxSync(client, queryClient, subscriberId), [client, queryClient, subscriberId])
  const active = enabled && subscriberId !== ''
  useEffect(() => sync.watch(), [sync])

  useEffect(() => {
    // Mounted: no render that could be thrown away needs its QueryClient kept any more.
    mounting.forEach((kept, key) => kept[0] === queryClient && mounting.delete(key))
    queryClient.mount()
    return () => queryClient.unmount()
  }, [queryClient])

  // After a switch, the previous subscriber's data goes and its requests stop.
  const previous = useRef(subscriberId)
  useEffect(() => {
    const old = previous.current
    previous.current = subscriberId
    if (old === subscriberId) return
    void queryClient.cancelQueries({ queryKey: inboxKeys.all(old) })
    queryClient.removeQueries({ queryKey: inboxKeys.all(old) })
  }, [queryClient, subscriberId])

  // The live loop is its own module, loaded after the first render.
  useEffect(() => {
    if (!active || typeof window !== 'object') return
    let stop: (() => void) | undefined
    let gone = false
    const start = (): void =>
      void (
        gone ||
        importOnline(() => import('../core/live')).then(
          ({ startLive }) => {
            if (!gone)
              stop = startLive(sync, () => ({
                interval: pollInterval,
                stream,
                onNotification: latest.current.onNotification,
                onAuthError: latest.current.onAuthError,
                appBadge: latest.current.appBadge,
              }))
          },
          // Offline, or the server did not answer: at the next sign that the network is back.
          () => whenOnline(start),
        )
      )
    start()
    return () => {
      gone = true
      stop?.()
    }
  }, [sync, active, pollInterval, stream])

  const scheme = useScheme(theme)
  const scope = useMemo<InboxScope>(
    () => ({
      sync,
      clientOptions,
      locale,
      messages,
      scheme,
      enabled: active,
      initialState,
      value: {
        client,
        queryClient,
        subscriberId,
        // As Try again: never rejects; a failure is told in the hooks' `error`.
        refresh: () =>
          sync.ledger().then(
            (l) => l.retry(),
            () => {},
          ),
        locale,
        theme,
      },
    }),
    [sync, clientOptions, locale, messages, scheme, active, initialState, client, queryClient, subscriberId, theme],
  )
  return <InboxContext.Provider value={scope}>{children}</InboxContext.Provider>
}

const DARK = '(prefers-color-scheme: dark)'

/** The scheme to draw in: `theme`, or the system's while it is `system` (light on the server). */
function useScheme(theme: InboxTheme): 'light' | 'dark' {
  const system = theme === 'system'
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!system || typeof matchMedia !== 'function') return () => {}
      const query = matchMedia(DARK)
      query.addEventListener('change', onChange)
      return () => query.removeEventListener('change', onChange)
    },
    [system],
  )
  const dark = useSyncExternalStore(
    subscribe,
    () => system && typeof matchMedia === 'function' && matchMedia(DARK).matches,
    () => false,
  )
  return system ? (dark ? 'dark' : 'light') : theme
}

/**
 * Inside a provider, a component's own `theme`, `messages` and `locale` over the provider's, for what renders
 * below it (an `<Inbox>` in dark beside the app's light one, in another language).
 */
export function InboxLook({
  theme,
  messages,
  locale,
  children,
}: Pick<InboxProviderProps, 'theme' | 'messages' | 'locale'> & { children: ReactNode }): ReactNode {
  const outer = useInboxScope('Inbox')
  const mode = theme ?? outer.value.theme
  const scheme = useScheme(mode)
  const words = messages ?? outer.messages
  const lang = locale ?? messages?.lang ?? outer.locale
  const scope = useMemo<InboxScope>(
    () =>
      // The strings made for the provider are its own: made again below for other `messages`.
      ({
        ...outer,
        ...(words !== outer.messages && { m: undefined, core: undefined }),
        messages: words,
        locale: lang,
        scheme,
        value: { ...outer.value, locale: lang, theme: mode },
      }),
    [outer, words, lang, scheme, mode],
  )
  return <InboxContext.Provider value={scope}>{children}</InboxContext.Provider>
}
