/**
 * The ledger of one provider: the writes on their way to the service and the lists as shown
 * (ARCHITECTURE.md, "The feed ledger").
 *
 * React Query's cache holds only what the service said. A write is registered here and shown at once:
 * `list` and the sync object's `count` lay the writes on their way over the cached data. What the service
 * answers is folded into the cache by src/core/fold.ts, as is the refresh that fetches before it commits. It is
 * imported here, not on demand: a first list needs the folding for its first look anyway, so both load
 * together, and one chunk instead of three (the ledger, the folding, the list updaters they share) keeps
 * about 4 kB less of the page's heap.
 *
 * Made on first use (the first list, write or message of another tab's) and kept on the sync object: the bell
 * needs none of it, nor do the live loop's looks while no list is cached (src/core/live.ts, `refresh`).
 */
import { ApiError } from '../api/errors'
import type { FeedItem, FeedPage, MarkAs, Message } from '../api/types'
import type { FeedFilter } from './items'
import { inboxKeys, type CountData } from './keys'
import { applyFlags, compare, withFlags, type FeedData } from './lists'
import { flagsAfter, type Change, type InboxSync, type TabMessage, type Write } from './sync'
import { folderOf, type Folder } from './fold'

/** One provider's ledger; see the module's comment. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an interface, so that declarations name it
export interface Ledger extends ReturnType<typeof createLedger> {}

/** The provider's ledger, made on first use. */
export function ledgerOf(sync: InboxSync): Ledger {
  return (sync.slots.ledger ??= createLedger(sync)) as Ledger
}

/** A cached list, as the ledger reads it. */
export interface CachedList {
  queryKey: readonly unknown[]
  state: { data: FeedData }
}

/** What the ledger shares with the module that folds answers in (fold.ts). */
export interface Shared {
  sync: InboxSync
  /** Known items whose flags came from a page fetched while a write on them was on its way. */
  unsure: Set<string>
  /** Acknowledged changes, so that a page fetched across one can take it in. */
  log: { seq: number; changes: Change[] }[]
  /** When each item was last written (or all of them, under `*`). */
  touched: Map<string, number>
  /** A refresh is owed once no write is on its way. */
  dirty: boolean
  /**
   * A write failed without the service saying no (no answer, a timeout, a 5xx): it may have been applied, so the
   * owed refresh is tried again, soon, until the service answers.
   */
  unknown: boolean
  /** Every cached list that has data. */
  lists: () => CachedList[]
  /** The known items of `changes`, with their new flags. */
  entering: (changes: Change[]) => FeedItem[]
  /** Takes what a page says of its items as confirmed, unless a write on them was on its way meanwhile. */
  remember: (items: FeedItem[], from: number) => void
}

function createLedger(sync: InboxSync) {
  const { client, queryClient, subscriberId, store, known } = sync
  const set = store.setState
  const cache = queryClient.getQueryCache()
  /** Per id (and `*` for all): the write the next one on it must wait for. */
  const chains = new Map<string, Promise<unknown>>()
  let folder: Promise<Folder> | undefined

  const shared: Shared = {
    sync,
    unsure: new Set(),
    log: [],
    touched: new Map(),
    dirty: false,
    unknown: false,
    lists: () =>
      cache.findAll({ queryKey: inboxKeys.feeds(subscriberId) }).filter((q) => q.state.data) as unknown as CachedList[],

    entering: (changes) =>
      changes.flatMap(([id, flags]) => {
        const item = known.get(id)
        return item ? [withFlags(item, flags)] : []
      }),

    remember: (items, from) => {
      const { touched, unsure } = shared
      const busy = new Set(store.getState().writes.flatMap((w) => (w.ids ? [...w.ids] : ['*'])))
      const all = busy.has('*') || (touched.get('*') ?? 0) > from
      for (const item of items) {
        const id = item._id
        if (!all && !busy.has(id) && (touched.get(id) ?? 0) <= from) (known.set(id, item), unsure.delete(id))
        // Its flags may or may not include that write: known for its content, and counted again once it lands.
        else if (!known.has(id)) (known.set(id, item), unsure.add(id))
      }
    },
  }
  /** What folds answers in, made once. */
  const fold = () => (folder ??= Promise.resolve(folderOf(shared)))

  /** A page that was on its way while changes were acknowledged, with those changes taken in. */
  function catchUp<P extends object>(page: FeedPage<P>, f: FeedFilter, param: number, from: number): FeedPage<P> {
    const since = shared.log.filter((e) => e.seq > from).flatMap((e) => e.changes)
    if (!since.length) return page
    const byId = new Map(since)
    // Only items whose place is on this page may enter it.
    const first = page.data[0]
    const items = shared.entering(since).filter((i) => param === 0 || (first && compare(i, first) > 0)) as FeedItem<P>[]
    return applyFlags({ pages: [page], pageParams: [param] }, f, (i) => byId.get(i._id), items).pages[0]!
  }

  /** Registers a write, shows it at once, and sends it after the earlier writes on the same items. */
  function write(
    ids: Set<string> | null,
    markAs: MarkAs,
    run: () => Promise<Message[]>,
    quiet?: boolean,
  ): Promise<Error | undefined> {
    const w: Write = { seq: ++sync.seq, ids, markAs }
    const keys = ids ? [...ids] : ['*']
    const waits = ids ? [chains.get('*'), ...keys.map((k) => chains.get(k))] : [...chains.values()]
    set((s) => ({ writes: [...s.writes, w], ...(ids ? {} : { markAllError: null }) }))
    // Through React Query's mutation cache: its devtools list every write, and offline a write waits for the network.
    const result = queryClient
      .getMutationCache()
      .build(queryClient, {
        mutationKey: [...inboxKeys.all(subscriberId), ids ? 'markAs' : 'markAll', markAs],
        mutationFn: () => Promise.all([fold(), ...waits]).then(run),
      })
      .execute(undefined)
    const gate = result.catch(() => {})
    for (const k of keys) (chains.set(k, gate), shared.touched.set(k, sync.seq))
    return result
      .then(
        // The write waited for the folding module: it is there.
        (messages) => fold().then((f) => f.acknowledged(w, messages)),
        (error: Error) => {
          shared.dirty = true
          // A 4xx is the service's refusal (408 and 409 aside: it may still apply the write); anything else is not.
          shared.unknown ||= !(
            error instanceof ApiError &&
            error.status < 500 &&
            error.status !== 408 &&
            error.status !== 409
          )
          const seq = ++sync.seq
          if (quiet) set((s) => ({ writes: s.writes.filter((x) => x !== w) }))
          else
            set((s) => {
              const failures = new Map(s.failures)
              for (const id of ids ?? []) failures.set(id, { markAs, error, seq })
              return {
                writes: s.writes.filter((x) => x !== w),
                failures,
                // A failed "mark all" is told by its own banner (an alert): not a second time by the live region.
                ...(ids ? { told: s.told + 1 } : { markAllError: error }),
              }
            })
          return error
        },
      )
      .finally(() => {
        for (const k of keys) if (chains.get(k) === gate) chains.delete(k)
        fold().then(
          (f) => f.afterWrites(),
          () => {},
        )
      })
  }

  // Lists already in the cache (rendered on a server, say) count as what the service holds.
  for (const q of shared.lists())
    shared.remember(
      q.state.data.pages.flatMap((p) => p.data),
      0,
    )

  return {
    /**
     * Marks items; resolves once the service answered: with nothing, or with the error (also kept per
     * item and announced, unless `quiet`: a change the reader did not make, as marking seen what is in view).
     */
    markAs(ids: string | readonly string[], markAs: MarkAs, quiet?: boolean): Promise<Error | undefined> {
      const list = [...new Set((typeof ids === 'string' ? ids.split(',') : ids).map((id) => id.trim()).filter(Boolean))]
      if (!list.length) return Promise.resolve(undefined)
      // An item of a list this ledger did not fetch (an app's own query of `feedQueryOptions`) counts as what the
      // service holds, as the lists cached before the ledger was made do: the counts move with the click.
      const unknown = new Set(list.filter((id) => !known.has(id)))
      if (unknown.size)
        for (const q of shared.lists())
          shared.remember(
            q.state.data.pages.flatMap((p) => p.data.filter((i) => unknown.has(i._id))),
            0,
          )
      return write(new Set(list), markAs, () => client.markAs(subscriberId, { messageId: list, markAs }), quiet)
    },

    /**
     * Marks everything read (read and seen) or seen: pages through the unread (unseen) feed 100 at a
     * time and marks the ids in batches of at most 100 (the API has no "mark all").
     */
    markAll: (markAs: 'read' | 'seen'): Promise<Error | undefined> =>
      write(null, markAs, () => fold().then((f) => f.markAll(markAs))),

    /** A list as shown: the cached one with the writes on their way laid over it. */
    list<P extends object>(
      data: FeedData<P> | undefined,
      f: FeedFilter,
      writes: readonly Write[],
    ): FeedData<P> | undefined {
      if (!data || !writes.length) return data
      const entering: FeedItem<P>[] = []
      for (const w of writes)
        for (const item of w.ids ? [...w.ids].map((id) => known.get(id)) : known.values())
          if (item) entering.push(withFlags(item, flagsAfter(item, writes)!) as FeedItem<P>)
      return applyFlags(data, f, (i) => flagsAfter(i, writes), entering)
    },

    /** A page fetched from `from` on (the sync object's `page`), taken as confirmed and with changes acknowledged meanwhile taken in. */
    took<P extends object>(page: FeedPage<P>, f: FeedFilter, param: number, from: number): FeedPage<P> {
      shared.remember(page.data as FeedItem[], from)
      return catchUp(page, f, param, from)
    },

    /**
     * Looks for news: reads the counts and, when they changed (or `force`), every cached list; then commits
     * all of it in one batch, so no frame shows a new count beside an old list. `given`: counts another tab
     * read. Resolves with whether anything changed.
     */
    refresh: (force?: boolean, given?: CountData[]): Promise<boolean> => {
      const at = sync.seq
      return fold().then((f) => f.refresh(force, given, at))
    },

    /**
     * "Try again": the counts and every list again, and every query of this inbox that failed; the live
     * loop looks again at once and forgets its backoff once this succeeds.
     */
    retry: (): Promise<void> => fold().then((f) => f.retry()),

    /** Forgets an item's failure (its message was dismissed), or the failed "mark all" without an id. */
    dismiss(id?: string): void {
      set((s) => {
        const failures = new Map(s.failures)
        failures.delete(id ?? '')
        return id ? { failures } : { markAllError: null }
      })
    },

    /** Applies the changes another tab reports. */
    receive: (message: TabMessage): Promise<void> => fold().then((f) => f.receive(message)),

    /** Resolves once the module that folds answers in is there too. */
    ready: (): Promise<unknown> => fold(),
  }
}
