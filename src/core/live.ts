/**
 * The live loop of one provider: who looks for news in this browser profile, and when.
 *
 * Tabs of one origin showing one subscriber elect a leader (Web Locks, else an election over the
 * BroadcastChannel, src/core/elect.ts). Only the leader looks: through the proxy's event stream when it
 * offers one (src/core/stream.ts; then a look a minute as a safety net), else every 10 s while a tab of the
 * profile is focused, 30 s while one is visible, never while all are hidden or the browser is offline, at
 * once when one comes back. It tells the other tabs the counts it read; they fetch only the lists they
 * show, only when the counts changed. Failures back off exponentially with jitter up to 5 minutes and
 * recover on the first success; a 401 stops the looking until a tab is focused again or the credentials
 * change.
 *
 * Loaded on demand by the provider after its first render; the election's fallback and the stream reader
 * are modules of their own, loaded only where they are used.
 */
import {
  focusManager,
  hashKey,
  isCancelledError,
  notifyManager,
  onlineManager,
  QueryObserver,
  type Query,
} from '@tanstack/react-query'
import { ApiError, NetworkError, ResponseShapeError } from '../api/errors'
import type { FeedItem } from '../api/types'
import {
  countChanged,
  countQueryOptions,
  devWarn,
  fetchCount,
  inboxKeys,
  unknownSubscriber,
  type CountData,
  type CountKind,
} from './keys'
import { importOnline, KINDS, whenOnline } from './sync'
import type { InboxSync, TabMessage, Trouble } from './sync'

/** What the provider passes; read on every use, so that new callbacks need no restart. */
export interface LiveOptions {
  /** A fixed period in ms instead of the adaptive one; `0`: never poll (the stream and focus still look). */
  interval?: number | undefined
  /** Called once per new notification per browser profile (in the leading tab). */
  onNotification?: ((items: FeedItem[]) => void) | undefined
  /** Called when the service refuses the credentials even after fresh ones were asked for. */
  onAuthError?: ((error: Error) => void) | undefined
  /** Shows the unread count on the installed app's icon (`navigator.setAppBadge`) where the browser can. */
  appBadge?: boolean | undefined
  /** Reads the proxy's event stream when it offers one. @default true */
  stream?: boolean | undefined
}

const FOCUSED = 10_000
const VISIBLE = 30_000
const SAFETY = 60_000
/** A tab (or provider) unheard of for this long no longer counts: closed without a word, or asleep. */
const HEARD = 90_000
/** Looks the stream's events may cause in any one second. */
const EVENT_LOOKS = 4

/** Exponential backoff with jitter, capped at 5 minutes. */
export const backoff = (failures: number) => Math.min(300_000, 1000 * 2 ** failures) * (0.5 + Math.random() / 2)

interface TabState {
  focused: boolean
  visible: boolean
  /** A toaster is shown there: arrivals are wanted. */
  toasts: boolean
  /** An `onNotification` is given there: arrivals are wanted, and told to it when the leader has none. */
  notifies: boolean
  at: number
}

const hasWindow = typeof window === 'object'

/**
 * A 401: the session ended or the token expired (what src/core/trouble.ts calls `signedOut`, said here without
 * it: the loop needs no other kind, and without that module its chunk loads alone after the first render).
 */
const refusedCredentials = (error: unknown) => error instanceof ApiError && error.status === 401

/**
 * An id per QueryClient. Two providers of one inbox in one page may share one (mounted together, or given the
 * same): a change one of them tells the other tabs is then in the other's cache already, and taken in again it
 * would count twice. The cache is the React Query client's, so its id lives beside it, not in the sync object.
 */
const cacheIds = new WeakMap<object, string>()
const cacheId = (queryClient: object): string => {
  let found = cacheIds.get(queryClient)
  if (!found) cacheIds.set(queryClient, (found = Math.random().toString(36).slice(2)))
  return found
}

/** Starts the loop; returns the stop function. */
export function startLive(sync: InboxSync, options: () => LiveOptions): () => void {
  const { client, subscriberId, store } = sync
  const id = Math.random().toString(36).slice(2)
  const name = `inbox-kit:${client.options?.baseUrl ?? ''}:${subscriberId}`
  const tabs = new Map<string, TabState>()
  const notified: string[] = []
  const warned = new Set<string>()
  const off: (() => void)[] = []
  let channel: BroadcastChannel | undefined
  let leading = false
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let nudged: ReturnType<typeof setTimeout> | undefined
  let failures = 0
  let retryIn = 0
  let paused = false
  let streaming = false
  let missed = false
  /** When the last {@link EVENT_LOOKS} looks began, the latest last: events make at most that many a second. */
  const starts: number[] = []
  const lastLook = () => starts.at(-1) ?? 0
  /** When the current period began: the end of the last look, or when this tab began to lead. */
  let periodStart = 0
  let looking = false
  let again = false
  /** The stream said events were lost: the next look reads every list. */
  let reset = false
  let unstream = () => {}
  /** The stream was refused: opened again after a look that works. */
  let relisten = false
  /** A look has been answered. */
  let answered = false

  const from = cacheId(sync.queryClient)
  const post = (message: TabMessage) => {
    try {
      channel?.postMessage({ ...message, from })
    } catch {
      // A message that cannot be cloned is dropped; the other tabs catch up on their next look.
    }
  }
  try {
    channel = new BroadcastChannel(name)
    channel.onmessage = ({ data }: MessageEvent<TabMessage>) => {
      if (typeof data?.t !== 'string') return
      // Changes to the cache this provider shares with the sender: already taken in.
      if ((data.t === 'items' || data.t === 'all') && data.from === from) return
      sync.receive(data)
    }
  } catch {
    // No BroadcastChannel: this tab leads alone.
  }
  sync.post = post

  const me = (): TabState => ({
    visible: typeof document !== 'object' || document.visibilityState !== 'hidden',
    focused: typeof document === 'object' && document.visibilityState !== 'hidden' && document.hasFocus(),
    toasts: store.getState().toasters > 0,
    notifies: !!options().onNotification,
    at: Date.now(),
  })
  const announce = () => post({ t: 'tab', id, ...me() })
  /** What the profile does: a tab focused, visible, or none; tabs unheard of for 90 s no longer count. */
  const activity = () => {
    let { focused, visible } = me()
    for (const [tab, s] of tabs) {
      if (Date.now() - s.at > HEARD) tabs.delete(tab)
      else ((focused ||= s.focused), (visible ||= s.visible))
    }
    return { focused, visible }
  }
  const period = () => {
    const { focused, visible } = activity()
    if (!visible || !onlineManager.isOnline() || paused) return Infinity
    if (failures) return retryIn
    const fixed = options().interval
    if (streaming) return SAFETY
    return fixed === undefined ? (focused ? FOCUSED : VISIBLE) : fixed > 0 ? fixed : Infinity
  }
  const plan = () => {
    clearTimeout(timer)
    // A look under way plans the next one when it ends, from the new period's start.
    if (looking) return
    const delay = period()
    // Counted from the period's start, so that what other tabs report does not put the next look off.
    if (leading && delay < Infinity)
      timer = setTimeout(() => void look(), Math.max(0, periodStart + delay - Date.now()))
  }
  const setTrouble = (trouble: Trouble | null) => store.setState({ trouble })
  /**
   * A look. Through the ledger (src/core/ledger.ts) once there is one or a list is cached: it reads the lists too
   * when the counts changed, and commits them together. A bell alone has no list, hence no write on its way: it
   * reads the counts alone, and never needs the ledger's code (loaded with the first list or write instead, so
   * that a page where the inbox is never opened never fetches it). A list that appears meanwhile takes the look
   * over, with the counts read. Shown as a query, as the ledger's looks are, so devtools and `isFetching` see it.
   */
  const refresh = async (force?: boolean, given?: CountData[]): Promise<boolean> => {
    const { queryClient } = sync
    const bare = () =>
      !sync.slots.ledger && !queryClient.getQueryCache().findAll({ queryKey: inboxKeys.feeds(subscriberId) }).length
    let counts = given
    if (bare())
      counts ??= await queryClient.fetchQuery({
        queryKey: [...inboxKeys.all(subscriberId), 'look'],
        // One after the other, one attempt each, as the ledger's looks read them.
        queryFn: async () => {
          const read: CountData[] = []
          for (const kind of KINDS) read.push(await fetchCount(sync, kind, sync.method, { retry: false }))
          return read
        },
        // Offline, the loop does not look; a look asked for anyway fails at once rather than waits.
        networkMode: 'always',
        staleTime: 0,
        gcTime: 0,
        retry: false,
      })
    if (!bare()) return sync.ledger().then((l) => l.refresh(force, counts))
    const cached = sync.counts()
    const changed = !!force || counts!.some((c, i) => countChanged(cached[i], c))
    if (changed)
      notifyManager.batch(() =>
        counts!.forEach((c, i) => queryClient.setQueryData(inboxKeys.count(subscriberId, KINDS[i]!), c)),
      )
    return changed
  }

  async function look() {
    clearTimeout(timer)
    if (!leading || stopped) return
    // A look asked for while one is out goes once that one is done: it may have read before the news.
    if (looking) return void (again = true)
    looking = true
    if (starts.push(Date.now()) > EVENT_LOOKS) starts.shift()
    const before = sync.counts()[1]
    const force = reset
    reset = false
    // The first look, or one after looks that failed: what failed to load meanwhile is asked for again.
    const recovering = failures > 0 || !answered
    try {
      const changed = await refresh(force)
      answered = true
      if (recovering) reload()
      failures = 0
      paused = false
      if (relisten) listen()
      // All clear, told to the other tabs only when something was wrong.
      if (store.getState().trouble) (setTrouble(null), post({ t: 'trouble' }))
      if (changed) {
        const counts = sync.counts()
        post({ t: 'news', counts })
        await arrivals(before, counts[1])
      }
      badge()
    } catch (error) {
      reset ||= force
      failed(error as Error)
    }
    looking = false
    periodStart = Date.now()
    if (again) ((again = false), void look())
    else plan()
  }

  /**
   * What is shown but failed to load and holds nothing (a list or the settings whose first read came during an
   * outage): a look refreshes only what holds data, and it would wait for a Try again.
   */
  const reload = () =>
    void sync.queryClient
      .refetchQueries({
        queryKey: inboxKeys.all(subscriberId),
        type: 'active',
        predicate: (q) => q.state.status === 'error' && q.state.data === undefined && q.queryKey[2] !== 'admin',
      })
      .catch(() => {})

  function failed(error: Error) {
    retryIn = backoff(++failures)
    signedOut(error, refusedCredentials(error))
    const retryAt = paused ? null : Date.now() + retryIn
    setTrouble({ error, retryAt })
    post({ t: 'trouble', status: (error as ApiError).status, message: error.message, name: error.name, retryAt })
    warn(error)
  }

  /** Looking stops while signed out; the app hears of it once, when it begins. */
  function signedOut(error: Error, now: boolean) {
    const was = paused
    paused = now
    if (now && !was) options().onAuthError?.(error)
  }

  /** Arrivals are fetched only for someone who shows or hears them: a toaster in some tab, or `onNotification`. */
  const wanted = () => [me(), ...tabs.values()].some((t) => t.toasts || t.notifies)
  /**
   * Arrivals are told by the unseen count's growth from one look to the next. Wanted, that count is read from then
   * on (a bell of unread ones, or none, does not read it), so that one arriving before the first look is told too.
   */
  let watching: (() => void) | undefined
  const watchUnseen = () => {
    if (!watching && !stopped && wanted()) watching = watch('unseen')
  }
  /** Keeps a count read (and fresh) while the loop runs, as a component that shows it would; returns the stop. */
  const watch = (kind: CountKind) =>
    new QueryObserver(sync.queryClient, { ...countQueryOptions(sync, kind), queryFn: sync.countFn(kind) }).subscribe(
      () => {},
    )

  /** New notifications since the last look: the newest unseen ones, as many as the unseen count grew. */
  async function arrivals(before: CountData | undefined, after: CountData | undefined) {
    const grew = before && after ? after.count - before.count : 0
    if (grew <= 0 || !wanted()) return
    const page = await client.getFeed(subscriberId, { seen: false, limit: Math.min(grew, 20) })
    const items = page.data.filter((i) => !notified.includes(i._id))
    if (!items.length) return
    tell(items)
    // Once in the profile: by this provider, or else by one that has an `onNotification` (another tab's, or another
    // provider's of this inbox in this page, which shares this one's election).
    const own = options().onNotification
    const notify = own ? undefined : [...tabs].find(([, t]) => t.notifies && Date.now() - t.at <= HEARD)?.[0]
    post({ t: 'arrived', items, notify })
    own?.(items)
  }
  const tell = (items: FeedItem[]) => {
    notified.push(...items.map((i) => i._id))
    notified.splice(0, notified.length - 200)
    store.setState((s) => ({ arrived: { items, n: (s.arrived?.n ?? 0) + 1 } }))
  }

  /**
   * The app's icon shows the unread count as the bell does: the cached one with the writes on their way. Told once
   * the task that changed either is done: an acknowledged write changes the cache, then the writes.
   */
  let badged: number | undefined
  let badging = false
  function badge() {
    if (badging || !options().appBadge || typeof navigator !== 'object' || !('setAppBadge' in navigator)) return
    badging = true
    queueMicrotask(() => {
      badging = false
      const unread = sync.count(sync.counts()[0], 'unread', store.getState().writes)?.count
      if (unread === undefined || unread === badged) return
      badged = unread
      void (unread ? navigator.setAppBadge(unread) : navigator.clearAppBadge()).catch(() => {})
    })
  }

  /** In development, one warning per distinct failure, naming the request and the likely fix. */
  function warn(error: Error) {
    // Bundlers write the mode in for `process.env.NODE_ENV`, so that a production build drops the whole `if` with
    // its messages; unbundled, there is no `process`, and no warning.
    try {
      if (process.env.NODE_ENV !== 'production') {
        const status = (error as ApiError).status
        const key = `${error.name}${status}`
        if (warned.has(key)) return
        warned.add(key)
        const base = client.options?.baseUrl || '(this origin)'
        const fix =
          status === 401
            ? "the service (or your proxy) refused the credentials: check `getHeaders`/`auth`, and the proxy's `authenticate`"
            : status === 403
              ? `the proxy refused: \`subscriberId\` ("${subscriberId}") must be the signed-in user's own id`
              : status === 404
                ? unknownSubscriber(error)
                  ? `subscriber "${subscriberId}" does not exist on the service: check \`subscriberId\``
                  : `there is no inbox route at \`baseUrl\` ${base}: check \`baseUrl\``
                : error instanceof NetworkError
                  ? `nothing answered at ${base}: check \`baseUrl\` and that the server runs (and allows this origin)`
                  : error instanceof ResponseShapeError
                    ? `${base} answered something that is not the notification service: check \`baseUrl\``
                    : status === 502 || status === 504
                      ? "your proxy got no answer from the service: check the proxy's `upstreamUrl` and that the service runs; the inbox retries with backoff"
                      : 'the service failed; the inbox retries with backoff'
        devWarn(`inbox-kit: reading the inbox failed (${status ?? error.name}: ${error.message}) — ${fix}.`)
      }
    } catch {
      // Unbundled: no development warnings.
    }
  }

  /** A look soon, unless one just went and found all well (focus and reconnect flap). */
  const soon = () => {
    if (!leading) post({ t: 'check' })
    else if (failures || Date.now() - lastLook() > 2000) void look()
    else plan()
  }

  // What the tabs tell each other.
  const unlisten = sync.listen((m) => {
    if (m.t === 'tab') (tabs.set(m.id as string, m as unknown as TabState), watchUnseen())
    else if (m.t === 'gone') tabs.delete(m.id as string)
    else if (m.t === 'check') return leading && soon()
    else if (m.t === 'hello') return announce()
    else if (m.t === 'news') return void refresh(false, m.counts as CountData[]).catch(() => {})
    else if (m.t === 'arrived')
      return (tell(m.items as FeedItem[]), m.notify === id && options().onNotification?.(m.items as FeedItem[]))
    else if (m.t === 'trouble') {
      const t = m as { status?: number; message?: string; name?: string; retryAt?: number | null }
      return setTrouble(
        t.name
          ? {
              error: Object.assign(
                t.status ? new ApiError(t.status, '', { message: t.message }) : new Error(t.message),
                {
                  name: t.name,
                },
              ),
              retryAt: t.retryAt ?? null,
            }
          : null,
      )
    } else return
    if (leading) plan()
  })

  const changed = () => {
    const state = me()
    post({ t: 'tab', id, ...state })
    if (state.visible && (missed || state.focused)) ((missed = false), soon())
    else if (leading) plan()
  }
  const onFocus = () => ((paused = false), changed())
  // A closing tab takes its focus with it: the leader stops counting on it at once, not in 90 s.
  const gone = () => post({ t: 'gone', id })
  const on = (type: string, listener: () => void) => {
    if (!hasWindow) return
    window.addEventListener(type, listener)
    off.push(() => window.removeEventListener(type, listener))
  }
  on('focus', onFocus)
  on('blur', changed)
  on('pagehide', gone)
  const announcing = setInterval(announce, 60_000)
  off.push(
    unlisten,
    gone,
    focusManager.subscribe(changed),
    onlineManager.subscribe((online) => (online ? soon() : plan())),
    () => clearInterval(announcing),
    () => clearTimeout(nudged),
    store.subscribe((s, prev) => {
      // A toaster mounted or unmounted here: the leader learns whether to fetch arrivals.
      if (s.toasters !== prev.toasters) (announce(), watchUnseen())
      if (s.writes !== prev.writes) badge()
      // "Try again" succeeded (the ledger's retry clears the trouble): no more backoff.
      if (!s.trouble && prev.trouble && failures) ((failures = 0), (paused = false), relisten && listen(), plan())
    }),
  )
  // A read of the inbox refused as signed out (fresh credentials were asked for already), the first ones of a
  // mount included: the app hears of it then, not at the next look (never with `pollInterval: 0`). Not the admin
  // hooks' reads, which go through a back office of the app's own.
  const refused = ({ queryKey: [root, of, admin], state: { error } }: Query) => {
    if (!error || root !== 'inbox' || of !== subscriberId || admin === 'admin') return
    // Not a subscriber the service does not know yet (the feed's read says so), nor a read the kit itself called
    // off (a look taken over by Try again): nothing failed.
    if (unknownSubscriber(error) || isCancelledError(error)) return
    // In development, what went wrong is said at the first read that fails, not at the next look.
    warn(error)
    if (refusedCredentials(error)) (signedOut(error, true), plan())
  }
  const cache = sync.queryClient.getQueryCache()
  cache.getAll().forEach(refused)
  const unread = hashKey(inboxKeys.count(subscriberId, 'unread'))
  off.push(
    cache.subscribe((event) => {
      if (event.type !== 'updated') return
      if (event.action.type === 'error') refused(event.query as Query)
      else if (event.action.type === 'success' && event.query.queryHash === unread) badge()
    }),
  )
  // The badge needs the unread count, which a bell of unseen ones does not read: watched while the loop runs.
  if (options().appBadge) off.push(watch('unread'))
  badge()
  watchUnseen()
  off.push(() => watching?.())
  // A tab that opens says so at once: the leader may be hidden while this one is focused.
  announce()

  /** The proxy's event stream, where there may be one: each event is a reason to look. */
  const listen = () => {
    relisten = false
    if (options().stream !== false && client.options && typeof ReadableStream === 'function') {
      let stop: (() => void) | undefined
      unstream = () => ((stop?.(), (stop = undefined)), (unstream = () => {}))
      void importOnline(() => import('./stream')).then(
        (m) => {
          if (!leading || stopped || stop !== undefined) return
          stop = m.openStream(client.options as never, {
            // Opened from now (first, or after another tab led): what came since the last look is looked for at
            // once, or an arrival as the page loads would wait out the safety net's minute.
            open: (resumed) => (
              (streaming = true),
              store.setState({ source: 'stream' }),
              resumed ? plan() : void look()
            ),
            // Refused with fresh credentials: a look says so (signed out), and the stream opens again after one that works.
            closed: (refused) => (
              (streaming = false),
              store.setState({ source: 'poll' }),
              refused ? ((relisten = true), soon()) : plan()
            ),
            // `reset`: events were lost, look at everything. Anything else: news (`ready` says live from here).
            event: (event) => {
              if (event === 'ready') return
              reset ||= event === 'reset'
              if (activity().visible) {
                // Events that come together (within 20 ms) make one look; a few a second, one look each at once;
                // a flood, four looks a second (two to four requests each: the proxy's default rate, ten a second
                // after a burst of 600, holds minutes of it). Resets (each look then reads every list) one a
                // second: one such look makes up for any number of them.
                clearTimeout(nudged)
                const wait = reset
                  ? lastLook() + 1000 - Date.now()
                  : starts.length < EVENT_LOOKS
                    ? 0
                    : starts[0]! + 1000 - Date.now()
                nudged = setTimeout(() => void look(), Math.max(20, wait))
              } else missed = true
            },
          })
        },
        () => (relisten = true),
      )
    }
  }

  // Leading.
  const lead = () => {
    leading = true
    periodStart = Date.now()
    post({ t: 'hello' })
    listen()
    plan()
  }
  const follow = () => {
    leading = false
    clearTimeout(timer)
    unstream()
  }
  /** The lock is held while this tab leads; the browser frees it when the tab closes or crashes. */
  const locks = typeof navigator === 'object' ? navigator.locks : undefined
  if (locks?.request) {
    const abort = new AbortController()
    let release = () => {}
    locks
      .request(name, { signal: abort.signal }, () => new Promise<void>((resolve) => ((release = resolve), lead())))
      .catch(() => {})
    off.push(() => (abort.abort(), release()))
  } else {
    let unelect: (() => void) | undefined
    const elect = () =>
      void importOnline(() => import('./elect')).then(
        (m) => void (stopped || (unelect = m.elect(post, (l) => sync.listen(l), lead, follow))),
        () => whenOnline(elect),
      )
    elect()
    off.push(() => unelect?.())
  }
  off.push(follow)

  return () => {
    stopped = true
    for (const f of off.reverse()) f()
    sync.post = () => {}
    channel?.close()
  }
}
