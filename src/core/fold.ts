/**
 * What the service answered, folded into every cached list and count; and the refresh that fetches before
 * it commits. Imported by the ledger (src/core/ledger.ts), and loaded with it.
 */
import { notifyManager, onlineManager } from '@tanstack/react-query'
import type { FeedItem, FeedPage, Message } from '../api/types'
import { marked, matches } from './items'
import {
  countChanged,
  countFilter,
  fetchCount,
  inboxKeys,
  readFeed,
  STALE_PAGES,
  type CountData,
  type CountKind,
  type FeedFilters,
} from './keys'
import type { CachedList, Shared } from './ledger'
import { applyFlags, withFlags, type FeedData } from './lists'
import { emptiedBy, KINDS, type Change, type TabMessage, type Write } from './sync'

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an interface, so that declarations name it
export interface Folder extends ReturnType<typeof folderOf> {}

/** The folding of one ledger's answers, over what it shares. */
export function folderOf(shared: Shared) {
  const { sync, unsure, log, touched, lists, entering, remember } = shared
  const { client, queryClient, subscriberId, store, known } = sync
  const set = store.setState
  const filterOf = (key: readonly unknown[]) => key[3] as { read?: boolean; seen?: boolean }
  const countOf = (kind: CountKind) => queryClient.getQueryData<CountData>(inboxKeys.count(subscriberId, kind))
  const setCount = (kind: CountKind, data: CountData) =>
    queryClient.setQueryData(inboxKeys.count(subscriberId, kind), data)

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
      if (delta) setCount(kind, { ...data, count: Math.max(0, data.count + delta), sig: '', newest: undefined })
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

  /**
   * "Mark all" as the service now holds it: unread (unseen) lists and counts empty, every item marked. Returns
   * whether a list may now lack items never loaded here (a list of read or seen items): only then does the tab
   * that marked fetch its lists again; the others (all of its items marked) lack nothing, and other tabs
   * catch up on their next look (their counts' signature no longer matches the service's).
   */
  function foldAll(markAs: 'read' | 'seen'): boolean {
    let owed = false
    touched.set('*', ++sync.seq)
    for (const kind of KINDS) {
      const data = countOf(kind)
      if (data && emptiedBy(countFilter(kind), markAs))
        setCount(kind, { ...data, count: 0, capped: false, sig: '', newest: undefined })
    }
    for (const [id, item] of known) known.set(id, withFlags(item, marked(item, markAs)))
    for (const q of lists()) {
      const data = q.state.data
      const f = filterOf(q.queryKey)
      owed ||= !!(f.read || f.seen)
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
    return owed
  }

  /**
   * Every loaded page of a list, fetched again: 100 items a request (the API's most), cut into the list's pages,
   * so 10,000 items loaded 20 a page cost 100 requests, not 500. A service that sends fewer than asked while
   * saying more follow is asked page by page.
   */
  const fetchList = async ({ queryKey, state }: CachedList): Promise<FeedPage[]> => {
    const f = filterOf(queryKey) as FeedFilters
    const size = f.limit
    const per = Math.floor(100 / size) || 1
    const n = state.data.pageParams.length
    const get = (count: number, limit: number) =>
      Promise.all(Array.from({ length: count }, (_, page) => readFeed(sync, { ...f, limit, page })))
    const big = await get(Math.ceil(n / per), per * size)
    if (big.some((b) => b.hasMore && b.data.length < per * size)) return get(n, size)
    return state.data.pageParams.map((_, i) => {
      const b = big[(i / per) | 0]!
      const at = (i % per) * size
      return { ...b, data: b.data.slice(at, at + size), hasMore: at + size < b.data.length || b.hasMore }
    })
  }

  /**
   * One look at a time, shown as a query, so devtools and `useIsFetching` see it. A forced one waits for the one
   * running, as does one with another tab's counts; but Try again and the read owed after writes (`overtake`)
   * take over from one under way, which may be waiting on a service that hangs: that one commits nothing, and
   * whoever waits on it gets the outcome of the one that overtook it.
   */
  const refreshKey = [...inboxKeys.all(subscriberId), 'refresh']
  let running: Promise<boolean> | undefined
  /** The look that may commit: grows with each look started. */
  let current = 0
  const refresh = (force = false, given?: CountData[], at = sync.seq, overtake = false): Promise<boolean> => {
    if (running && !overtake)
      return force || given
        ? running.then(
            () => refresh(force, given, at),
            () => refresh(force, given, at),
          )
        : running
    const id = ++current
    const start = () =>
      queryClient.fetchQuery({
        queryKey: refreshKey,
        queryFn: () => look(force, given, at, id),
        // Offline, the live loop does not look; a look asked for anyway fails at once rather than waits.
        networkMode: 'always',
        staleTime: 0,
        gcTime: 0,
        retry: false,
      })
    const mine: Promise<boolean> = (
      running ? queryClient.cancelQueries({ queryKey: refreshKey }, { revert: false }).then(start) : start()
    )
      // The one overtaken: its waiters get the outcome of the one that overtook it.
      .catch((error: Error) => {
        if (id !== current && running) return running
        throw error
      })
      .finally(() => {
        if (running === mine) running = undefined
      })
    running = mine
    return mine
  }

  /**
   * Reads the counts and, when they changed (or `force`), every cached list; then commits all of it in one
   * batch. Waits while writes are on their way, and starts over when one lands meanwhile.
   */
  async function look(force: boolean, given: CountData[] | undefined, at: number, id: number): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      await sync.idle()
      if (id !== current) return false
      const from = sync.seq
      // Another tab's counts (the one that looks for this browser profile), unless this tab wrote since.
      let counts = attempt === 0 && at === sync.seq && given
      if (!counts) {
        // One after the other, one attempt each: while the service is down a look costs one request (the
        // live loop backs off on its own).
        counts = []
        for (const kind of KINDS) counts.push(await fetchCount(sync, kind, sync.method, { retry: false }))
      }
      const changed = force || counts.some((c, i) => countChanged(countOf(KINDS[i]!), c))
      if (!changed) return false
      const queries = lists()
      const pages = await Promise.all(queries.map(fetchList))
      // An item of a count's kind newer than the newest it counted came between the counts and the lists (or
      // after another tab read them): committed together they would disagree, so the counts are read again.
      const late = counts.some(
        ({ newest }, i) =>
          newest !== undefined &&
          pages.some((list) =>
            list.some((page) =>
              page.data.some(
                (item) =>
                  matches(item, countFilter(KINDS[i]!)) &&
                  Date.parse(item.createdAt ?? '') > (newest === null ? -Infinity : Date.parse(newest)),
              ),
            ),
          ),
      )
      if (late && attempt < 3) continue
      // Overtaken by a forced look while it read: that one commits.
      if (id !== current) return changed
      if (sync.seq !== from || store.getState().writes.length) {
        if (attempt < 3) continue
        shared.dirty = true
        return changed
      }
      notifyManager.batch(() => {
        held(
          pages.flat().flatMap((p) => p.data),
          from,
        )
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

  /**
   * Failed writes the service holds all the same (the request reached it, its answer did not come back): the
   * item no longer says it failed, and the other tabs, which never saw the write, are told what it changed.
   * Only failures from before the pages were asked for.
   */
  function held(items: FeedItem[], from: number): void {
    const { failures } = store.getState()
    // An item is in as many lists as it matches: each once.
    const changes = [...new Map(items.map((i) => [i._id, i])).values()].flatMap(({ _id, read, seen }): Change[] => {
      const failure = failures.get(_id)
      const asked = failure && failure.seq <= from && marked({ read, seen }, failure.markAs)
      return asked && asked.read === read && asked.seen === seen ? [[_id, { read, seen }]] : []
    })
    if (changes.length) {
      set((s) => {
        const next = new Map(s.failures)
        for (const [id] of changes) next.delete(id)
        return { failures: next, held: s.held + 1 }
      })
      sync.post({ t: 'items', changes })
    }
  }

  /**
   * Owed looks that failed since a write's outcome became unknown: the next one waits 0.5–1 s, then twice that,
   * up to 5–10 s.
   */
  let tries = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  /** Whether anything of this inbox is on screen: with nothing shown, nothing is owed the truth. */
  const shown = () =>
    queryClient
      .getQueryCache()
      .findAll({ queryKey: inboxKeys.all(subscriberId) })
      .some((q) => q.getObserversCount() > 0)

  /**
   * A refresh once no write is on its way, when one is owed. After a write whose outcome is unknown it is tried
   * again until the service answers (once back online), so that what is shown follows what the service holds
   * within a second or two of its answering, not at the next poll (never, with `pollInterval: 0`).
   */
  function afterWrites(): void {
    clearTimeout(timer)
    if (!shared.dirty || store.getState().writes.length) return
    shared.dirty = false
    // Not behind a look that may have been asked before the write and be stuck on a service that hangs.
    refresh(true, undefined, sync.seq, true).then(
      () => ((tries = 0), (shared.unknown = false)),
      () => {
        shared.dirty = true
        if (!shared.unknown || !shown()) return
        if (onlineManager.isOnline())
          timer = setTimeout(afterWrites, Math.min(5000, 500 * 2 ** tries++) * (1 + Math.random()))
        else {
          const off = onlineManager.subscribe((online) => online && (off(), afterWrites()))
        }
      },
    )
  }

  return {
    refresh,
    afterWrites,

    /** A write the service took: its answer folded in, and the write gone from what is laid over. */
    acknowledged(w: Write, messages: Message[]): undefined {
      const changes = messages.flatMap((m): Change[] => (m._id ? [[m._id, { read: m.read, seen: m.seen }]] : []))
      notifyManager.batch(() => {
        if (w.ids ? fold(changes) : foldAll(w.markAs as 'read')) shared.dirty = true
        set((s) => {
          const failures = new Map(s.failures)
          for (const [id] of changes) if ((failures.get(id)?.seq ?? Infinity) < w.seq) failures.delete(id)
          return { writes: s.writes.filter((x) => x !== w), failures }
        })
      })
      sync.post(w.ids ? { t: 'items', changes } : { t: 'all', markAs: w.markAs as 'read' })
      return undefined
    },

    /** "Mark all": pages through the unread (unseen) feed 100 at a time and marks the ids 100 at a time. */
    async markAll(markAs: 'read' | 'seen'): Promise<Message[]> {
      const done: Message[] = []
      for (const as of markAs === 'read' ? (['read', 'seen'] as const) : (['seen'] as const)) {
        const ids = new Set<string>()
        for (let page = 0, stale = 0; ; page++) {
          const found = await readFeed(sync, {
            ...(as === 'read' ? { read: false } : { seen: false }),
            limit: 100,
            page,
          })
          const before = ids.size
          for (const i of found.data) ids.add(i._id)
          // Pages that bring no new id end it as they end a list, though the service says more follow.
          stale = ids.size > before ? 0 : stale + 1
          if (!found.hasMore || stale >= STALE_PAGES) break
        }
        const list = [...ids]
        for (let i = 0; i < list.length; i += 100)
          done.push(...(await client.markAs(subscriberId, { messageId: list.slice(i, i + 100), markAs: as })))
      }
      return done
    },

    // Never rejects (a "Try again" button has nothing to catch with): a failure is told as the trouble of
    // looking for news, with the live loop's next look where it planned one, until a look works.
    retry: () =>
      Promise.all([
        refresh(true, undefined, sync.seq, true),
        queryClient.refetchQueries({
          queryKey: inboxKeys.all(subscriberId),
          predicate: (q) => q.state.status === 'error',
        }),
      ]).then(
        () => set({ trouble: null }),
        (error: Error) => set((s) => ({ trouble: { error, retryAt: s.trouble?.retryAt ?? null } })),
      ),

    /** Applies the changes another tab reports. */
    receive(message: TabMessage): void {
      if (message.t === 'items')
        notifyManager.batch(() => fold((message as { changes: Change[] }).changes) && (shared.dirty = true))
      else if (message.t === 'all') notifyManager.batch(() => foldAll(message.markAs as 'read'))
      afterWrites()
    },
  }
}
