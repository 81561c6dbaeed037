/**
 * The live loop of one provider: who looks for news in this browser profile, and when.
 *
 * Tabs of one origin showing one subscriber elect a leader (Web Locks, else an election over the
 * BroadcastChannel). Only the leader looks: through the proxy's event stream when it offers one (then a
 * look a minute as a safety net), else every 10 s while a tab of the profile is focused, 30 s while one
 * is visible, never while all are hidden or the browser is offline, at once when one comes back. It
 * tells the other tabs the counts it read; they fetch only the lists they show, only when the counts
 * changed. Failures back off exponentially with jitter up to 5 minutes and recover on the first success;
 * a 401 stops the looking until a tab is focused again or the credentials change.
 *
 * Loaded on demand by the provider after its first render.
 */
import { focusManager, onlineManager } from '@tanstack/react-query'
import { ApiError, NetworkError, ResponseShapeError } from '../api/errors'
import type { FeedItem } from '../api/types'
import type { CountData } from './queries'
import type { InboxSync, TabMessage, Trouble } from './sync'
import { troubleKind } from './trouble'

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
const BEAT = 1000
const backoff = (failures: number) => Math.min(300_000, 1000 * 2 ** failures) * (0.5 + Math.random() / 2)

interface TabState {
  focused: boolean
  visible: boolean
  /** A toaster is shown there: arrivals are wanted. */
  toasts: boolean
  at: number
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
  let failures = 0
  let retryIn = 0
  let paused = false
  let streaming = false
  let missed = false
  let lastLook = 0
  /** When the current period began: the end of the last look, or when this tab began to lead. */
  let periodStart = 0
  let looking = false
  let again = false

  const post = (message: TabMessage) => {
    try {
      channel?.postMessage(message)
    } catch {
      // A message that cannot be cloned is dropped; the other tabs catch up on their next look.
    }
  }
  try {
    channel = new BroadcastChannel(name)
    channel.onmessage = (event: MessageEvent<TabMessage>) =>
      typeof event.data?.t === 'string' && sync.receive(event.data)
  } catch {
    // No BroadcastChannel: this tab leads alone.
  }
  sync.post = post
  off.push(() => ((sync.post = () => {}), channel?.close()))

  const me = (): TabState => ({
    visible: typeof document !== 'object' || document.visibilityState !== 'hidden',
    focused: typeof document === 'object' && document.visibilityState !== 'hidden' && document.hasFocus(),
    toasts: store.getState().toasters > 0,
    at: Date.now(),
  })
  /** What the profile does: a tab focused, visible, or none; tabs unheard of for 90 s no longer count. */
  const activity = () => {
    let { focused, visible } = me()
    for (const [tab, s] of tabs) {
      if (Date.now() - s.at > 90_000) tabs.delete(tab)
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
  async function look() {
    clearTimeout(timer)
    if (!leading || stopped) return
    // A look asked for while one is out goes once that one is done: it may have read before the news.
    if (looking) return void (again = true)
    looking = true
    lastLook = Date.now()
    const before = sync.counts()[1]
    try {
      const changed = await (await sync.ledger()).refresh()
      failures = 0
      paused = false
      // All clear, told to the other tabs only when something was wrong.
      if (store.getState().trouble) (setTrouble(null), post({ t: 'trouble' }))
      if (changed) {
        const counts = sync.counts()
        post({ t: 'news', counts })
        await arrivals(before, counts[1])
      }
      badge()
    } catch (error) {
      failed(error as Error)
    }
    looking = false
    periodStart = Date.now()
    if (again) ((again = false), void look())
    else plan()
  }

  function failed(error: Error) {
    failures++
    retryIn = backoff(failures)
    const kind = troubleKind(error)
    paused = kind === 'signedOut'
    if (paused) options().onAuthError?.(error)
    const retryAt = paused ? null : Date.now() + retryIn
    setTrouble({ error, retryAt })
    post({ t: 'trouble', status: (error as ApiError).status, message: error.message, name: error.name, retryAt })
    warn(error)
  }

  /** New notifications since the last look: the newest unseen ones, as many as the unseen count grew. */
  async function arrivals(before: CountData | undefined, after: CountData | undefined) {
    const grew = before && after ? after.count - before.count : 0
    // Fetched only for someone who shows or hears them: a toaster in some tab, or `onNotification`.
    const wanted = options().onNotification || me().toasts || [...tabs.values()].some((t) => t.toasts)
    if (grew <= 0 || !wanted) return
    const page = await client.getFeed(subscriberId, { seen: false, limit: Math.min(grew, 20) })
    const items = page.data.filter((i) => !notified.includes(i._id))
    if (!items.length) return
    tell(items)
    post({ t: 'arrived', items })
    options().onNotification?.(items)
  }
  const tell = (items: FeedItem[]) => {
    notified.push(...items.map((i) => i._id))
    notified.splice(0, notified.length - 200)
    store.setState((s) => ({ arrived: { items, n: (s.arrived?.n ?? 0) + 1 } }))
  }

  function badge() {
    const unread = sync.counts()[0]?.count ?? 0
    if (!options().appBadge || typeof navigator !== 'object' || !('setAppBadge' in navigator)) return
    void (unread ? navigator.setAppBadge(unread) : navigator.clearAppBadge()).catch(() => {})
  }

  /** In development, one warning per distinct failure, naming the request and the likely fix. */
  function warn(error: Error) {
    if (typeof process !== 'object' || process.env.NODE_ENV === 'production') return
    const status = (error as ApiError).status
    const key = `${error.name}${status}`
    if (warned.has(key)) return
    warned.add(key)
    const base = client.options?.baseUrl || '(this origin)'
    const routeMissing = /^cannot \w+ \//i.test(error.message)
    const fix =
      status === 401
        ? "the service (or your proxy) refused the credentials: check `getHeaders`/`auth`, and the proxy's `authenticate`"
        : status === 403
          ? `the proxy refused: \`subscriberId\` ("${subscriberId}") must be the signed-in user's own id`
          : status === 404
            ? routeMissing
              ? `there is no inbox route at \`baseUrl\` ${base}: check \`baseUrl\``
              : `subscriber "${subscriberId}" does not exist on the service: check \`subscriberId\``
            : error instanceof NetworkError
              ? `nothing answered at ${base}: check \`baseUrl\` and that the server runs (and allows this origin)`
              : error instanceof ResponseShapeError
                ? `${base} answered something that is not the notification service: check \`baseUrl\``
                : 'the service failed; the inbox retries with backoff'
    console.warn(`inbox-kit: looking for news failed (${status ?? error.name}: ${error.message}) — ${fix}.`)
  }

  /** A look at once for an event of the stream: events that come together make one look. */
  let nudged: ReturnType<typeof setTimeout> | undefined
  const nudge = () => {
    clearTimeout(nudged)
    nudged = setTimeout(() => void look(), 20)
  }
  off.push(() => clearTimeout(nudged))

  /** A look soon, unless one just went and found all well (focus and reconnect flap). */
  const soon = () => {
    if (!leading) post({ t: 'check' })
    else if (failures || Date.now() - lastLook > 2000) void look()
    else plan()
  }

  // ------------------------------------------------------------------ what the tabs tell each other
  off.push(
    sync.listen((m) => {
      if (m.t === 'tab') (tabs.set(m.id as string, m as unknown as TabState), leading && plan())
      else if (m.t === 'gone') (tabs.delete(m.id as string), leading && plan())
      else if (m.t === 'check') leading && soon()
      else if (m.t === 'hello') post({ t: 'tab', id, ...me() })
      else if (m.t === 'news')
        void sync
          .ledger()
          .then((l) => l.refresh(false, m.counts as CountData[]))
          .catch(() => {})
      else if (m.t === 'arrived') tell(m.items as FeedItem[])
      else if (m.t === 'trouble')
        setTrouble(
          m.name
            ? {
                error: Object.assign(
                  m.status
                    ? new ApiError(m.status as number, '', { message: m.message })
                    : new Error(m.message as string),
                  {
                    name: m.name as string,
                  },
                ),
                retryAt: (m.retryAt as number | null) ?? null,
              }
            : null,
        )
    }),
  )

  const changed = () => {
    const state = me()
    post({ t: 'tab', id, ...state })
    if (state.visible && (missed || state.focused)) ((missed = false), soon())
    else leading && plan()
  }
  const onFocus = () => ((paused = false), changed())
  // A closing tab takes its focus with it: the leader stops counting on it at once, not in 90 s.
  const gone = () => post({ t: 'gone', id })
  if (typeof window === 'object') {
    window.addEventListener('focus', onFocus)
    window.addEventListener('blur', changed)
    window.addEventListener('pagehide', gone)
    off.push(
      () => window.removeEventListener('focus', onFocus),
      () => window.removeEventListener('blur', changed),
      () => window.removeEventListener('pagehide', gone),
      gone,
    )
  }
  off.push(
    focusManager.subscribe(changed),
    onlineManager.subscribe((online) => (online ? soon() : plan())),
  )
  // A tab that opens says so at once: the leader may be hidden while this one is focused.
  post({ t: 'tab', id, ...me() })
  const announce = setInterval(() => post({ t: 'tab', id, ...me() }), 60_000)
  off.push(() => clearInterval(announce))
  // A toaster mounted or unmounted here: the leader learns whether to fetch arrivals.
  off.push(store.subscribe((s, prev) => s.toasters !== prev.toasters && post({ t: 'tab', id, ...me() })))
  // "Try again" succeeded (sync.retry clears the trouble): no more backoff.
  off.push(
    store.subscribe((s, prev) => {
      if (!s.trouble && prev.trouble && failures) ((failures = 0), (paused = false), plan())
    }),
  )

  // ------------------------------------------------------------------ leading
  let stopStream = () => {}
  const lead = () => {
    leading = true
    periodStart = Date.now()
    post({ t: 'hello' })
    if (options().stream !== false) stopStream = listen()
    plan()
  }
  const follow = () => {
    leading = false
    clearTimeout(timer)
    stopStream()
  }
  off.push(
    elect(name, lead, follow, post, (l) => off.push(sync.listen(l))),
    follow,
  )

  /**
   * The proxy's event stream, read with fetch (it carries the same headers as every request): each
   * event is a reason to look; a missing route means the proxy has none, and polling carries on.
   */
  function listen(): () => void {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- it widens: the rule takes it for the same type
    const options = client.options as
      | {
          baseUrl?: string
          apiKey?: string
          headers?: Record<string, string>
          getHeaders?: () => unknown
          fetch?: typeof fetch
        }
      | undefined
    if (!options || typeof ReadableStream !== 'function') return () => {}
    const abort = new AbortController()
    void (async () => {
      let last: string | undefined
      for (let attempt = 0; !abort.signal.aborted;) {
        try {
          const headers: Record<string, string> = { accept: 'text/event-stream', ...options.headers }
          Object.assign(headers, await options.getHeaders?.())
          if (last) headers['last-event-id'] = last
          const response = await (options.fetch ?? fetch)(`${(options.baseUrl ?? '').replace(/\/+$/, '')}/events`, {
            headers,
            signal: abort.signal,
          })
          // No stream here (a proxy without `events` answers 204; a server that does not know the route, 403–501): poll.
          if (
            [403, 404, 405, 501].includes(response.status) ||
            (response.ok && !/event-stream/.test(response.headers.get('content-type') ?? ''))
          )
            return
          if (!response.ok || !response.body) throw new Error(String(response.status))
          attempt = 0
          streaming = true
          store.setState({ source: 'stream' })
          plan()
          await read(response.body, (event) => {
            last = event.id ?? last
            // `ready`: live from here. `reset`: events were lost, look at everything. Anything else: news.
            if (event.event === 'reset')
              void sync
                .ledger()
                .then((l) => l.refresh(true))
                .catch(() => {})
            else if (event.event !== 'ready') activity().visible ? nudge() : (missed = true)
          })
        } catch {
          // Gone or refused: back off, poll meanwhile.
        }
        streaming = false
        store.setState({ source: 'poll' })
        if (abort.signal.aborted) return
        plan()
        await new Promise((resolve) => setTimeout(resolve, backoff(++attempt)))
      }
    })()
    return () => abort.abort()
  }

  return () => {
    stopped = true
    for (const f of off.reverse()) f()
  }
}

/** Calls `onEvent` with each event of a `text/event-stream` body until it ends. */
async function read(body: ReadableStream<Uint8Array>, onEvent: (event: { id?: string; event?: string }) => void) {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let event: { id?: string; event?: string; data?: string } = {}
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    buffer += decoder.decode(value, { stream: true })
    const lines = buffer.split(/\r\n|\r|\n/)
    buffer = lines.pop()!
    for (const line of lines) {
      if (!line) {
        if (event.event || event.data !== undefined) onEvent({ ...event, event: event.event ?? 'message' })
        event = {}
        continue
      }
      const at = line.indexOf(':')
      if (at === 0) continue
      const field = at < 0 ? line : line.slice(0, at)
      const value = at < 0 ? '' : line.slice(at + 1).replace(/^ /, '')
      if (field === 'id') event.id = value
      else if (field === 'event') event.event = value
      else if (field === 'data') event.data = (event.data === undefined ? '' : event.data + '\n') + value
    }
  }
}

/**
 * Makes this tab the leader of `name` while it holds it: with Web Locks where the browser has them
 * (released by the browser when the tab closes or crashes), else by an election over the channel (the
 * leader beats every second; after three silent seconds the tab with the smallest id takes over).
 */
function elect(
  name: string,
  lead: () => void,
  follow: () => void,
  post: (m: TabMessage) => void,
  listen: (l: (m: TabMessage) => void) => void,
): () => void {
  const locks = typeof navigator === 'object' ? navigator.locks : undefined
  if (locks?.request) {
    const abort = new AbortController()
    let release = () => {}
    locks
      .request(name, { signal: abort.signal }, () => new Promise<void>((resolve) => ((release = resolve), lead())))
      .catch(() => {})
    return () => (abort.abort(), release())
  }
  const id = Math.random().toString(36).slice(2)
  let leader: { id: string; at: number } | null = null
  let mine = false
  const beat = () => {
    if (mine) post({ t: 'lead', id })
    else if (!leader || Date.now() - leader.at > 3 * BEAT) ((mine = true), post({ t: 'lead', id }), lead())
  }
  listen((m) => {
    if (m.t === 'lead' && m.id !== id) {
      if (mine && (m.id as string) < id) ((mine = false), follow())
      if (!mine) leader = { id: m.id as string, at: Date.now() }
    } else if (m.t === 'who' && mine) post({ t: 'lead', id })
    else if (m.t === 'bye' && m.id === leader?.id) leader = null
  })
  const timer = setInterval(beat, BEAT)
  const bye = () => mine && post({ t: 'bye', id })
  if (typeof window === 'object') window.addEventListener('pagehide', bye)
  // A leader answers at once; claim only when none did.
  post({ t: 'who' })
  const first = setTimeout(beat, 50 + Math.random() * 50)
  return () => {
    clearInterval(timer)
    clearTimeout(first)
    bye()
    if (typeof window === 'object') window.removeEventListener('pagehide', bye)
  }
}
