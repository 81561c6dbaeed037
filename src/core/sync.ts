/**
 * One provider's bookkeeping of a subscriber's feed: what the bell needs from its first render.
 *
 * React Query's cache holds only what the service said (lists and counts). Writes not yet answered live in
 * a small store beside it (`writes`) and are laid over the cached data when a count or list is read, so a
 * click changes one store and renders at once. The counts read here; the rest (writes, lists, the refresh
 * that fetches before it commits, what other tabs report) is the ledger (src/core/ledger.ts), loaded with
 * the first list or write (the live loop's looks read the counts alone until then). The hooks reach it through
 * src/core/reach.ts, so an app of the hooks alone fetches it after its first render, beside its first page.
 */
import { notifyManager, type QueryClient } from '@tanstack/react-query'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { NetworkError } from '../api/errors'
import type { FeedItem, InboxClient, MarkAs } from '../api/types'
import { marked, matches, type Flags } from './items'
import { countFilter, fetchCount, inboxKeys, type CountData, type CountKind } from './keys'
import type { Ledger } from './ledger'

/** A write not yet answered. `ids: null` is "mark all". */
export interface Write {
  seq: number
  ids: ReadonlySet<string> | null
  markAs: MarkAs
}

/** A change the service refused (or never answered), kept until dismissed or overtaken. */
interface Failure {
  markAs: MarkAs
  error: Error
  seq: number
}

/** What components subscribe to. */
export interface SyncState {
  /** Writes on their way, oldest first. */
  writes: readonly Write[]
  /** The last failed change of each item. */
  failures: ReadonlyMap<string, Failure>
  /** The last failed "mark all". */
  markAllError: Error | null
  /** Grows with every failed change of items, for the live region (a failed "mark all" has its own banner). */
  told: number
  /** Grows each time failures turn out to have been saved after all (their answer was lost), for the live region. */
  held: number
  /** Why the inbox cannot look for news (the last look failed); `null` while all is well. */
  trouble: Trouble | null
  /** The latest notifications to arrive in this browser profile (for toasts), numbered. */
  arrived: { items: FeedItem[]; n: number } | null
  /** How this tab hears of news: the proxy's event stream (as the leader), or looking at intervals. */
  source: 'stream' | 'poll'
  /** Toasters shown in this tab: new items are fetched for them (and for `onNotification`) only. */
  toasters: number
  /** Grows when a count's or a list's answer in the cache changed (see `watch`). */
  rev: number
}

/** The last look for news failed: why, and when the next one goes (`null`: not until something changes). */
export interface Trouble {
  error: Error
  retryAt: number | null
}

/** New flags of one item, as the service acknowledged them. */
export type Change = [id: string, flags: Flags]

/** What one tab tells the others of a subscriber; `from` is the sender's cache (see live.ts), set as it is sent. */
export type TabMessage = (
  { t: 'items'; changes: Change[] } | { t: 'all'; markAs: 'read' | 'seen' } | { t: string; [key: string]: unknown }
) & { from?: string }

/** The client operations the inbox uses. */
export type SubscriberClient = Pick<
  InboxClient,
  'getFeed' | 'markAs' | 'getPreferences' | 'updatePreferences' | 'listSubscriberSubscriptions'
> & { options?: { baseUrl?: string } }

export const KINDS: CountKind[] = ['unread', 'unseen']

/** The flags an item gets from the writes that concern it; `undefined` when none does. */
export function flagsAfter(item: FeedItem<object>, writes: readonly Write[]): Flags | undefined {
  let flags: Flags | undefined
  for (const w of writes) if (!w.ids || w.ids.has(item._id)) flags = marked(flags ?? item, w.markAs)
  return flags
}

/** Whether "mark all as `markAs`" leaves nothing in a list with this filter. */
export const emptiedBy = (f: { read?: boolean; seen?: boolean }, markAs: MarkAs) =>
  f.seen === false || (markAs === 'read' && f.read === false)

/**
 * `import()` of a part of the kit that loads after the first render, refused at once while the browser is
 * offline: Chromium keeps a failed `import()` failed for the page's life (HTML no longer asks that of browsers,
 * but they still do), so a fetch tried during an outage would never work once the network came back.
 */
export const importOnline = <T>(load: () => Promise<T>): Promise<T> =>
  typeof navigator === 'object' && navigator.onLine === false
    ? Promise.reject(new NetworkError(new Error('The browser is offline.')))
    : load()

/** Calls `f` the next time the browser comes back online. */
export const whenOnline = (f: () => void): void => addEventListener('online', f, { once: true })

/** One provider's sync object; see the module's comment. */
// An interface, not an alias: declarations name it rather than spell out its members.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- see above
export interface InboxSync extends ReturnType<typeof createInboxSync> {}

export function createInboxSync(client: SubscriberClient, queryClient: QueryClient, subscriberId: string) {
  const store: StoreApi<SyncState> = createStore<SyncState>(() => ({
    writes: [],
    failures: new Map(),
    markAllError: null,
    told: 0,
    held: 0,
    trouble: null,
    arrived: null,
    source: 'poll',
    toasters: 0,
    rev: 0,
  }))
  const listeners: ((message: TabMessage) => void)[] = []
  /** Whether the watch saw a count or a list change in the cache that the parts do not show yet. */
  let changed = false
  /** Renders the changes the watch saw in every part showing a count or a list, now (see `watch`). */
  const flush = () => {
    if (changed) store.setState((s) => ({ rev: s.rev + 1 }))
    changed = false
  }
  let ledger: Promise<Ledger> | undefined
  let told = Promise.resolve()
  /** A module that could not be fetched is asked for again next time. */
  const forget = (error: unknown): never => {
    ledger = undefined
    throw error
  }
  const countOf = (kind: CountKind) => queryClient.getQueryData<CountData>(inboxKeys.count(subscriberId, kind))

  const sync = {
    client,
    queryClient,
    subscriberId,
    store,
    /** Items as the service last confirmed them (flags and content). */
    known: new Map<string, FeedItem>(),
    /** Whether the service sends `totalCount` (learned on the first count). */
    method: {} as { total?: boolean },
    /** Grows with every write made, answered or failed: a read that spans one is not taken as it is. */
    seq: 0,
    /** Bookkeeping of other parts, made on first use (the ledger, the preferences). */
    slots: {} as Record<string, unknown>,
    /** Sends a message to the other tabs of this subscriber (set by the live loop). */
    post: (_message: TabMessage): void => {},

    /** The ledger with its folding of answers (what a refresh needs), loaded (once) when first asked for. */
    ledger: (): Promise<Ledger> =>
      (ledger ??= sync.slots.ledger
        ? Promise.resolve(sync.slots.ledger as Ledger)
        : importOnline(() => import('./ledger'))
            .then((m) => {
              const l = m.ledgerOf(sync)
              return l.ready().then(() => l)
            })
            .catch(forget)),

    /**
     * React Query tells its hooks of a change of the cache a task later (its `notifyManager`), while a part that
     * renders meanwhile for a reason of its own (a tab clicked) reads the cache as it is: that frame would show a
     * new count beside an old one. So the hooks of counts and lists also read `rev`, and a change the watch saw
     * moves it in React Query's own notice, in the same render as its hooks (one render, as without the watch),
     * or sooner: in the layout effect of any count or list hook that renders first (`flush`), so that every part
     * showing a count or a list renders the change before the browser paints. Returns the unsubscribe.
     */
    watch(): () => void {
      // What each query last showed: a read that brought the same answer (React Query keeps its reference) renders nothing.
      const shown = new WeakMap<object, unknown>()
      return queryClient.getQueryCache().subscribe(({ type, query }) => {
        const [root, id, kind] = query.queryKey as readonly unknown[]
        if (type !== 'updated' || root !== 'inbox' || id !== subscriberId || (kind !== 'count' && kind !== 'feed'))
          return
        const now: unknown = query.state.error ?? query.state.data
        if (shown.get(query) === now) return
        shown.set(query, now)
        if (!changed) notifyManager.schedule(flush)
        changed = true
      })
    },

    flush,

    /** Resolves once no write is on its way. */
    idle: () =>
      new Promise<void>((resolve) => {
        const check = () => !store.getState().writes.length && (off(), resolve(), true)
        const off = store.subscribe(() => void check())
        check()
      }),

    /** A count as shown: the cached one, changed by the writes on their way. */
    count(data: CountData | undefined, kind: CountKind, writes: readonly Write[]): CountData | undefined {
      if (!data || !writes.length) return data
      const f = countFilter(kind)
      const ids = new Set<string>()
      let { count, capped } = data
      let emptied = false
      for (const w of writes) {
        if (w.ids) w.ids.forEach((id) => ids.add(id))
        else if (emptiedBy(f, w.markAs)) emptied = true
      }
      if (emptied) ((count = 0), (capped = false))
      for (const id of ids) {
        const item = sync.known.get(id)
        if (!item) continue
        // Untouched items keep their share (none under a "mark all"); a touched one counts as the writes leave it.
        if (!emptied) count -= +matches(item, f)
        count += +matches(item, f, flagsAfter(item, writes))
      }
      return { ...data, count: Math.max(0, count), capped }
    },

    /** The queryFn of a count: read only while no write is on its way, so the answer is unambiguous. */
    countFn: (kind: CountKind) => async (): Promise<CountData> => {
      for (let attempt = 0; ; attempt++) {
        await sync.idle()
        const from = sync.seq
        const data = await fetchCount(sync, kind, sync.method)
        if (sync.seq === from || attempt > 2) return data
      }
    },

    /** The counts as cached (unread, unseen). */
    counts: () => KINDS.map(countOf),

    /** Applies what another tab reports: changes go through the ledger, in the order they came. */
    receive(message: TabMessage): void {
      if (message.t === 'items' || message.t === 'all')
        told = told.then(() =>
          sync.ledger().then(
            (l) => l.receive(message),
            () => {},
          ),
        )
      else listeners.forEach((l) => l(message))
    },
    /** Hears the messages of other tabs that the ledger does not handle. */
    listen(listener: (message: TabMessage) => void): () => void {
      listeners.push(listener)
      return () => listeners.splice(listeners.indexOf(listener) >>> 0, 1)
    },
  }
  return sync
}
