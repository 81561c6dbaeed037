/**
 * The ledger of one provider: the writes on their way to the service, the lists as shown, and the refresh
 * that fetches before it commits (ARCHITECTURE.md, "The feed ledger").
 *
 * React Query's cache holds only what the service said, kept current by folding in every acknowledged
 * write. Writes not yet answered are laid over the cached data when a list or count is read; a failed
 * write is simply dropped (what is shown falls back to what the service is known to hold); and a refresh
 * fetches the counts and every list first, then swaps them in one batch.
 *
 * Made on first use and kept on the sync object: the bell's first render needs none of it.
 */
import { notifyManager } from '@tanstack/react-query'
import type { FeedItem, FeedPage, JsonObject, MarkAs, Message } from '../api/types'
import { marked, matches, type FeedFilter } from './items'
import { countFilter, fetchCount, inboxKeys, type CountData, type CountKind, type FeedFilters } from './keys'
import { applyFlags, compare, withFlags, type FeedData } from './lists'
import { emptiedBy, flagsAfter, KINDS, type Change, type InboxSync, type TabMessage, type Write } from './sync'

/** One provider's ledger; see the module's comment. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an interface, so that declarations name it
export interface Ledger extends ReturnType<typeof createLedger> {}

/** The provider's ledger, made on first use. */
export function ledgerOf(sync: InboxSync): Ledger {
  return (sync.slots.ledger ??= createLedger(sync)) as Ledger
}

function createLedger(sync: InboxSync) {
  const { client, queryClient, subscriberId, store, known } = sync
  const set = store.setState
  const cache = queryClient.getQueryCache()
  /** Known items whose flags came from a page fetched while a write on them was on its way. */
  const unsure = new Set<string>()
  /** Per id (and `*` for all): the write the next one on it must wait for. */
  const chains = new Map<string, Promise<unknown>>()
  /** Acknowledged changes, so that a page fetched across one can take it in. */
  const log: { seq: number; changes: Change[] }[] = []
  /** When each item was last written (or all of them, under `*`). */
  const touched = new Map<string, number>()
  let dirty = false

  const lists = () =>
    cache.findAll({ queryKey: inboxKeys.feeds(subscriberId) }).filter((q) => q.state.data) as unknown as {
      queryKey: readonly unknown[]
      state: { data: FeedData }
    }[]
  const filterOf = (key: readonly unknown[]) => key[3] as FeedFilters
  const countOf = (kind: CountKind) => queryClient.getQueryData<CountData>(inboxKeys.count(subscriberId, kind))
  const setCount = (kind: CountKind, data: CountData) =>
    queryClient.setQueryData(inboxKeys.count(subscriberId, kind), data)

  /** The known items of `changes`, with their new flags. */
  const entering = (changes: Change[]) =>
    changes.flatMap(([id, flags]) => {
      const item = known.get(id)
      return item ? [withFlags(item, flags)] : []
    })

  /** Takes what a page says of its items as confirmed, unless a write on them was on its way meanwhile. */
  const remember = (items: FeedItem[], from: number) => {
    const busy = new Set(store.getState().writes.flatMap((w) => (w.ids ? [...w.ids] : ['*'])))
    const all = busy.has('*') || (touched.get('*') ?? 0) > from
    for (const item of items) {
      const id = item._id
      if (!all && !busy.has(id) && (touched.get(id) ?? 0) <= from) (known.set(id, item), unsure.delete(id))
      // Its flags may or may not include that write: known for its content, and counted again once it lands.
      else if (!known.has(id)) (known.set(id, item), unsure.add(id))
    }
  }

  /**
   * Writes what the service answered into every cached list and count in one batch: items move in or
   * out of lists, counts change by what changed. Returns whether a count could not be told exactly.
   */
  function fold(changes: Change[]): boolean {
    const byId = new Map(changes)
    const items = entering(changes)
    let inexact = items.length < changes.length
    for (const [id] of changes) if (unsure.delete(id)) inexact = true
    for (const kind of KINDS) {
      const data = countOf(kind)
      if (!data) continue
      let delta = 0
      for (const item of items)
        delta += +matches(item, countFilter(kind)) - +matches(known.get(item._id)!, countFilter(kind))
      if (data.capped && data.count + delta < 100) inexact = true
      // Its signature is unknown now; the next look compares the count alone.
      if (delta) setCount(kind, { ...data, count: Math.max(0, data.count + delta), sig: '' })
    }
    for (const q of lists()) {
      const next = applyFlags(q.state.data, filterOf(q.queryKey), (i) => byId.get(i._id), items)
      if (next !== q.state.data) queryClient.setQueryData(q.queryKey, next)
    }
    for (const item of items) known.set(item._id, item)
    log.push({ seq: ++sync.seq, changes })
    if (log.length > 200) log.shift()
    return inexact
  }

  /** "Mark all" as the service now holds it: unread (unseen) lists and counts empty, every item marked. */
  function foldAll(markAs: 'read' | 'seen', remote = false): void {
    touched.set('*', ++sync.seq)
    for (const kind of KINDS) {
      const data = countOf(kind)
      if (data && emptiedBy(countFilter(kind), markAs)) setCount(kind, { ...data, count: 0, capped: false, sig: '' })
    }
    for (const [id, item] of known) known.set(id, withFlags(item, marked(item, markAs)))
    for (const q of lists()) {
      const data = q.state.data
      const f = filterOf(q.queryKey)
      const first = data.pages[0]!
      queryClient.setQueryData<FeedData>(
        q.queryKey,
        emptiedBy(f, markAs)
          ? {
              pages: [
                { ...first, data: [], hasMore: false, ...(first.totalCount === undefined ? {} : { totalCount: 0 }) },
              ],
              pageParams: [0],
            }
          : applyFlags(data, f, (i) => marked(i, markAs), known.values()),
      )
    }
    // Lists of read items may lack items never loaded here: the tab that marked fetches again; others
    // catch up on their next look (their counts' signature no longer matches the service's).
    if (!remote) dirty = true
  }

  /** A page that was on its way while changes were acknowledged, with those changes taken in. */
  function catchUp<P extends JsonObject>(page: FeedPage<P>, f: FeedFilter, param: number, from: number): FeedPage<P> {
    const since = log.filter((e) => e.seq > from).flatMap((e) => e.changes)
    if (!since.length) return page
    const byId = new Map(since)
    // Only items whose place is on this page may enter it.
    const first = page.data[0]
    const items = entering(since).filter((i) => param === 0 || (first && compare(i, first) > 0)) as FeedItem<P>[]
    return applyFlags({ pages: [page], pageParams: [param] }, f, (i) => byId.get(i._id), items).pages[0]!
  }

  /**
   * The counts on their first read, once they are in the cache (`undefined` when none is). A first list is
   * fetched beside them but answers after them, so that its rows reach React after the counts do: no frame
   * shows them beside a bell without its count. Counts mounted with the list start their reads in the same
   * commit, some after the list's: hence the look again a microtask later.
   */
  const firstCounts = () => {
    const pending = () =>
      cache.findAll({
        queryKey: [...inboxKeys.all(subscriberId), 'count'],
        predicate: (q) => q.state.status === 'pending',
      })
    return pending().length
      ? Promise.resolve().then(() =>
          Promise.all(pending().map((q) => (q.promise ?? Promise.resolve()).catch(() => {}))),
        )
      : undefined
  }

  /** Every loaded page of a list, fetched again. */
  const fetchList = (q: { queryKey: readonly unknown[]; state: { data: FeedData } }) => {
    const f = filterOf(q.queryKey)
    return Promise.all(q.state.data.pageParams.map((page) => client.getFeed(subscriberId, { ...f, page })))
  }

  /**
   * Looks for news: reads the counts and, when they changed (or `force`), every cached list; then
   * commits all of it in one batch, so no frame shows a new count beside an old list. Waits while
   * writes are on their way, and starts over when one lands meanwhile.
   */
  let running: Promise<boolean> | undefined
  /** One look at a time (a forced one waits for the one running); shown as a query, so devtools and `useIsFetching` see it. */
  const refresh = (force = false, given?: CountData[], at = sync.seq): Promise<boolean> =>
    running
      ? force || given
        ? running.then(
            () => refresh(force, given, at),
            () => refresh(force, given, at),
          )
        : running
      : (running = queryClient
          .fetchQuery({
            queryKey: [...inboxKeys.all(subscriberId), 'refresh'],
            queryFn: () => look(force, given, at),
            // Offline, the live loop does not look; a look asked for anyway fails at once rather than waits.
            networkMode: 'always',
            staleTime: 0,
            gcTime: 0,
            retry: false,
          })
          .finally(() => (running = undefined)))

  async function look(force: boolean, given: CountData[] | undefined, at: number): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      await sync.idle()
      const from = sync.seq
      // Another tab's counts (the one that looks for this browser profile), unless this tab wrote since.
      let counts = attempt === 0 && at === sync.seq && given
      if (!counts) {
        // One after the other, one attempt each: while the service is down a look costs one request (the
        // live loop backs off on its own).
        counts = []
        for (const kind of KINDS) counts.push(await fetchCount(sync, kind, sync.method, { retry: false }))
      }
      const changed =
        force ||
        counts.some((c, i) => {
          const old = countOf(KINDS[i]!)
          return !old || c.count !== old.count || c.capped !== old.capped || (old.sig !== '' && c.sig !== old.sig)
        })
      if (!changed) return false
      const queries = lists()
      const pages = await Promise.all(queries.map(fetchList))
      if (sync.seq !== from || store.getState().writes.length) {
        if (attempt < 3) continue
        dirty = true
        return changed
      }
      notifyManager.batch(() => {
        KINDS.forEach((kind, i) => setCount(kind, counts[i]!))
        queries.forEach((q, i) => {
          remember(
            pages[i]!.flatMap((p) => p.data),
            from,
          )
          queryClient.setQueryData<FeedData>(q.queryKey, { pages: pages[i]!, pageParams: q.state.data.pageParams })
        })
      })
      return changed
    }
  }

  function afterWrites(): void {
    if (!dirty || store.getState().writes.length) return
    dirty = false
    refresh(true).catch(() => (dirty = true))
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
        // eslint-disable-next-line @typescript-eslint/await-thenable -- a key with no write before it has no chain
        mutationFn: () => Promise.all(waits).then(run),
      })
      .execute(undefined)
    const gate = result.catch(() => {})
    for (const k of keys) (chains.set(k, gate), touched.set(k, sync.seq))
    return result
      .then(
        (messages) => {
          const changes = messages.flatMap((m): Change[] => (m._id ? [[m._id, { read: m.read, seen: m.seen }]] : []))
          notifyManager.batch(() => {
            if (ids ? fold(changes) : (foldAll(markAs as 'read'), true)) dirty = true
            set((s) => {
              const failures = new Map(s.failures)
              for (const [id] of changes) if ((failures.get(id)?.seq ?? Infinity) < w.seq) failures.delete(id)
              return { writes: s.writes.filter((x) => x !== w), failures }
            })
          })
          sync.post(ids ? { t: 'items', changes } : { t: 'all', markAs: markAs as 'read' })
          return undefined
        },
        (error: Error) => {
          dirty = true
          const seq = ++sync.seq
          if (quiet) set((s) => ({ writes: s.writes.filter((x) => x !== w) }))
          else
            set((s) => {
              const failures = new Map(s.failures)
              for (const id of ids ?? []) failures.set(id, { markAs, error, seq })
              return {
                writes: s.writes.filter((x) => x !== w),
                failures,
                told: s.told + 1,
                ...(ids ? {} : { markAllError: error }),
              }
            })
          return error
        },
      )
      .finally(() => {
        for (const k of keys) if (chains.get(k) === gate) chains.delete(k)
        afterWrites()
      })
  }

  // Lists already in the cache (rendered on a server, say) count as what the service holds.
  for (const q of lists())
    remember(
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
      return write(new Set(list), markAs, () => client.markAs(subscriberId, { messageId: list, markAs }), quiet)
    },

    /**
     * Marks everything read (read and seen) or seen: pages through the unread (unseen) feed 100 at a
     * time and marks the ids in batches of at most 100 (the API has no "mark all").
     */
    markAll(markAs: 'read' | 'seen'): Promise<Error | undefined> {
      return write(null, markAs, async () => {
        const done: Message[] = []
        for (const as of markAs === 'read' ? (['read', 'seen'] as const) : (['seen'] as const)) {
          const ids: string[] = []
          for (let page = 0; ; page++) {
            const found = await client.getFeed(subscriberId, {
              ...(as === 'read' ? { read: false } : { seen: false }),
              limit: 100,
              page,
            })
            ids.push(...found.data.map((i) => i._id))
            if (!found.hasMore || !found.data.length) break
          }
          for (let i = 0; i < ids.length; i += 100)
            done.push(...(await client.markAs(subscriberId, { messageId: ids.slice(i, i + 100), markAs: as })))
        }
        return done
      })
    },

    /** A list as shown: the cached one with the writes on their way laid over it. */
    list<P extends JsonObject>(
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

    /** The queryFn of a feed list: a page, with changes acknowledged meanwhile taken in. */
    page:
      (f: FeedFilters) =>
      async ({ pageParam }: { pageParam: number }): Promise<FeedPage> => {
        const counts = pageParam === 0 ? firstCounts() : undefined
        const from = sync.seq
        const page = await client.getFeed(subscriberId, { ...f, page: pageParam })
        if (counts) await counts
        remember(page.data, from)
        return catchUp(page, f, pageParam, from)
      },

    refresh,
    /**
     * "Try again": the counts and every list again, and every query of this inbox that failed; the live
     * loop looks again at once and forgets its backoff once this succeeds.
     */
    retry: () =>
      Promise.all([
        refresh(true),
        queryClient.refetchQueries({
          queryKey: inboxKeys.all(subscriberId),
          predicate: (q) => q.state.status === 'error',
        }),
      ]).then(() => {
        set({ trouble: null })
      }),

    /** Forgets an item's failure (its message was dismissed), or the failed "mark all" without an id. */
    dismiss(id?: string): void {
      set((s) => {
        const failures = new Map(s.failures)
        failures.delete(id ?? '')
        return id ? { failures } : { markAllError: null }
      })
    },

    /** Applies the changes another tab reports. */
    receive(message: TabMessage): void {
      if (message.t === 'items')
        notifyManager.batch(() => fold((message as { changes: Change[] }).changes) && (dirty = true))
      else if (message.t === 'all') notifyManager.batch(() => foldAll(message.markAs as 'read', true))
      afterWrites()
    },
  }
}
