/**
 * Keeps every cached feed list of a subscriber in step through mark-as and mark-all: the optimistic
 * change, its exact rollback, reconciling with the service's answer, telling other tabs, and
 * re-applying pending changes to pages that arrive while a change is in flight.
 * React-free: it works on a QueryClient and takes its types only from React Query.
 */
import type { MutationOptions, Query, QueryClient, QueryKey } from '@tanstack/react-query'
import type { FeedItem, FeedPage, InboxClient, JsonObject, MarkAs, Message } from '../api/types'
import type { CrossTabMessage } from './crossTab'
import {
  applyItemStates,
  applyMarkAll,
  feedItems,
  markAllState,
  markAsState,
  updateFeedData,
  withState,
  type FeedData,
  type ItemState,
} from './optimistic'
import { perSubscriber } from './perSubscriber'
import { feedFiltersOf, inboxKeys, type FeedFilters } from './queryKeys'

/** What the feed mutations need: the transport, the cache, whose inbox, and how to tell other tabs. */
export interface FeedSyncDeps {
  client: InboxClient
  queryClient: QueryClient
  subscriberId: string
  broadcast?: (message: CrossTabMessage) => void
}

type Snapshot = Map<string, { queryKey: QueryKey; data: unknown }>

/** One change on its way to the service. */
interface Intent {
  seq: number
  /** The ids it changes; `null` for every item (mark all). */
  ids: ReadonlySet<string> | null
  /** The flags an item gets under this change. */
  stateOf: (item: FeedItem) => ItemState | undefined
  /** Flags before the change, by id, for a rollback item by item. */
  prior: Map<string, ItemState>
  /** The changed items as they were cached, so lists that lack them can take them back. */
  known: Map<string, FeedItem>
  snapshot: Snapshot
  /** Another change was pending at some point during this one, so its snapshot is not the truth. */
  overlapped: boolean
  /** Resolves when the requests it must wait for have settled. */
  gate: Promise<void>
  release: () => void
}

/** Pending changes and bookkeeping of one subscriber's feed in one QueryClient. */
export class FeedLedger {
  /** Changes not yet answered, oldest first. */
  readonly pending: Intent[] = []
  /** Increases whenever a change settles or another tab reports one: a fetch that spans it may be stale. */
  epoch = 0
  private seq = 0
  private readonly chains = new Map<string, Promise<void>>()
  /** Lists to refetch once nothing is pending (their fetch was cancelled, or a change left a gap). */
  readonly refetch = new Set<string>()
  /** A change failed: refetch every active list once nothing is pending. */
  failed = false

  /**
   * Registers a change. Its requests run after earlier requests on the same ids (all ids for mark
   * all), so the service sees changes in the order they were made and the last intent wins.
   */
  register(ids: ReadonlySet<string> | null, stateOf: Intent['stateOf']): Intent {
    const waits: Promise<void>[] = []
    if (ids === null) waits.push(...this.chains.values())
    else {
      const all = this.chains.get('*')
      if (all) waits.push(all)
      for (const id of ids) {
        const chain = this.chains.get(id)
        if (chain) waits.push(chain)
      }
    }
    let release!: () => void
    const done = new Promise<void>((resolve) => {
      release = resolve
    })
    const keys = ids === null ? ['*'] : [...ids]
    for (const key of keys) this.chains.set(key, done)
    const intent: Intent = {
      seq: ++this.seq,
      ids,
      stateOf,
      prior: new Map(),
      known: new Map(),
      snapshot: new Map(),
      overlapped: this.pending.length > 0,
      gate: Promise.all(waits).then(() => undefined),
      release: () => {
        for (const key of keys) if (this.chains.get(key) === done) this.chains.delete(key)
        release()
      },
    }
    for (const other of this.pending) other.overlapped = true
    this.pending.push(intent)
    return intent
  }

  /** Removes a settled change. */
  settle(intent: Intent): void {
    const at = this.pending.indexOf(intent)
    if (at >= 0) this.pending.splice(at, 1)
    this.epoch++
  }

  /** Whether a pending change other than `except` concerns `id`. */
  isPending(id: string, except?: Intent): boolean {
    return this.pending.some((i) => i !== except && (i.ids === null || i.ids.has(id)))
  }
}

const ledgers = perSubscriber(() => new FeedLedger())

/** The ledger of a subscriber's feed in a QueryClient. */
export function feedLedger(queryClient: QueryClient, subscriberId: string): FeedLedger {
  return ledgers.get(queryClient, subscriberId)
}

/** Forgets a subscriber's ledger (after a subscriber switch). */
export function dropFeedLedger(queryClient: QueryClient, subscriberId: string): void {
  ledgers.drop(queryClient, subscriberId)
}

type FeedQuery = Query<FeedPage, Error, FeedData, QueryKey>

/** The cached feed lists of a subscriber that hold data. */
export function feedQueries(queryClient: QueryClient, subscriberId: string): FeedQuery[] {
  return queryClient
    .getQueryCache()
    .findAll({ queryKey: inboxKeys.feeds(subscriberId) })
    .filter((q) => {
      const data = q.state.data as FeedData | undefined
      return Array.isArray(data?.pages) && feedFiltersOf(q.queryKey) !== undefined
    }) as unknown as FeedQuery[]
}

/** Every cached item by id, from the most recently updated list first. */
export function knownItems(queryClient: QueryClient, subscriberId: string): Map<string, FeedItem> {
  const known = new Map<string, FeedItem>()
  const queries = [...feedQueries(queryClient, subscriberId)].sort(
    (a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt,
  )
  for (const q of queries) for (const item of feedItems(q.state.data)) if (!known.has(item._id)) known.set(item._id, item)
  return known
}

function lostItemsWithMore(before: FeedData, after: FeedData): boolean {
  const last = after.pages[after.pages.length - 1]
  return Boolean(last?.hasMore) && feedItems(after).length < feedItems(before).length
}

/**
 * Runs `update` over every cached list of the subscriber and writes the results in one batch, so
 * lists and counts re-render together. Returns the hashes of lists that lost items while more pages
 * exist (fetching the next page by number would now skip an item).
 */
export function updateFeeds(
  queryClient: QueryClient,
  subscriberId: string,
  update: (data: FeedData, filters: FeedFilters, query: FeedQuery) => FeedData,
): Set<string> {
  const next = new Map<FeedData, FeedData>()
  const gaps = new Set<string>()
  const hashes = new Set<string>()
  for (const q of feedQueries(queryClient, subscriberId)) {
    const data = q.state.data as FeedData
    const result = update(data, feedFiltersOf(q.queryKey) as FeedFilters, q)
    if (result === data) continue
    next.set(data, result)
    hashes.add(q.queryHash)
    if (lostItemsWithMore(data, result)) gaps.add(q.queryHash)
  }
  if (next.size > 0) {
    // setQueriesData writes every list inside one notification batch: one render for all of them.
    queryClient.setQueriesData<FeedData>(
      { queryKey: inboxKeys.feeds(subscriberId), predicate: (q) => hashes.has(q.queryHash) },
      (old) => (old && next.get(old)) ?? old,
    )
  }
  return gaps
}

function snapshotFeeds(queryClient: QueryClient, subscriberId: string): Snapshot {
  const snapshot: Snapshot = new Map()
  for (const q of feedQueries(queryClient, subscriberId)) {
    snapshot.set(q.queryHash, { queryKey: q.queryKey, data: q.state.data })
  }
  return snapshot
}

/**
 * Cancels refetches of lists that already hold data, so an answer that left the service before the
 * change cannot overwrite it; each cancelled list is refetched once when nothing is pending.
 * First loads and next-page fetches run on: the queryFn re-applies pending changes to what they bring.
 */
async function cancelRefetches(queryClient: QueryClient, subscriberId: string, ledger: FeedLedger): Promise<void> {
  const busy = new Set(
    queryClient
      .getQueryCache()
      .findAll({ queryKey: inboxKeys.feeds(subscriberId), fetchStatus: 'fetching' })
      .filter((q) => q.state.data !== undefined && !(q.state.fetchMeta as { fetchMore?: unknown } | null)?.fetchMore)
      .map((q) => q.queryHash),
  )
  if (busy.size === 0) return
  for (const hash of busy) ledger.refetch.add(hash)
  await queryClient.cancelQueries({ queryKey: inboxKeys.feeds(subscriberId), predicate: (q) => busy.has(q.queryHash) })
}

/** Puts back the flags an intent changed (for ids no later pending change concerns). */
function rollbackItems(queryClient: QueryClient, subscriberId: string, ledger: FeedLedger, intent: Intent, only?: Snapshot) {
  const states = new Map<string, ItemState>()
  for (const [id, state] of intent.prior) if (!ledger.isPending(id, intent)) states.set(id, state)
  if (states.size === 0) return
  const known = knownItems(queryClient, subscriberId)
  for (const [id, item] of intent.known) if (!known.has(id)) known.set(id, item)
  updateFeeds(queryClient, subscriberId, (data, filters, q) =>
    only?.has(q.queryHash) ? data : applyItemStates(data, filters, states, known),
  )
}

/** Undoes a failed change: the exact snapshot when no other change overlapped it, else item by item. */
function rollback(queryClient: QueryClient, subscriberId: string, ledger: FeedLedger, intent: Intent): void {
  if (!intent.overlapped && ledger.pending.length === 0) {
    const restore = new Map<string, unknown>()
    for (const [hash, entry] of intent.snapshot) restore.set(hash, entry.data)
    const current = new Map(feedQueries(queryClient, subscriberId).map((q) => [q.queryHash, q.state.data]))
    const next = new Map<unknown, unknown>()
    for (const [hash, data] of restore) if (current.has(hash)) next.set(current.get(hash), data)
    queryClient.setQueriesData(
      { queryKey: inboxKeys.feeds(subscriberId), predicate: (q) => restore.has(q.queryHash) && current.has(q.queryHash) },
      (old: unknown) => (next.has(old) ? next.get(old) : old),
    )
    // Lists that appeared after the snapshot are put back item by item.
    rollbackItems(queryClient, subscriberId, ledger, intent, intent.snapshot)
    return
  }
  rollbackItems(queryClient, subscriberId, ledger, intent)
}

/** Once nothing is pending: refetch (once each) the lists that need it; all active lists after a failure. */
function flush(queryClient: QueryClient, subscriberId: string, ledger: FeedLedger): void {
  if (ledger.pending.length > 0) return
  const all = ledger.failed
  const hashes = new Set(ledger.refetch)
  ledger.failed = false
  ledger.refetch.clear()
  if (!all && hashes.size === 0) return
  void queryClient.invalidateQueries({
    queryKey: inboxKeys.feeds(subscriberId),
    predicate: (q) => all || hashes.has(q.queryHash),
  })
}

/** A page as the service sent it, with the changes still pending applied (flags and removals). */
export function overlayPending<P extends JsonObject>(
  queryClient: QueryClient,
  subscriberId: string,
  filters: FeedFilters,
  page: FeedPage<P>,
): FeedPage<P> {
  const ledger = ledgers.peek(queryClient, subscriberId)
  if (!ledger || ledger.pending.length === 0) return page
  let data: FeedData<P> = { pages: [page], pageParams: [page.page] }
  for (const intent of ledger.pending) {
    data = updateFeedData(data, filters, intent.stateOf as (item: FeedItem<P>) => ItemState | undefined)
  }
  return data.pages[0] ?? page
}

/**
 * Fetches one page of a feed list. When a change settled while the request was out, the answer may
 * predate it, so it asks again (at most twice); changes still pending are applied to the answer.
 */
export async function fetchFeedPage<P extends JsonObject>(
  deps: { client: InboxClient; queryClient: QueryClient; subscriberId: string },
  filters: FeedFilters,
  page: number,
  signal?: AbortSignal,
): Promise<FeedPage<P>> {
  const ledger = feedLedger(deps.queryClient, deps.subscriberId)
  for (let attempt = 0; ; attempt++) {
    const epoch = ledger.epoch
    const result = await deps.client.getFeed<P>(deps.subscriberId, { ...filters, page }, signal ? { signal } : {})
    if (ledger.epoch !== epoch && attempt < 2) continue
    return overlayPending(deps.queryClient, deps.subscriberId, filters, result)
  }
}

/** The shared ends of the feed mutations: roll back on failure; release and flush once settled. */
function failureAndSettle<V extends object>(
  queryClient: QueryClient,
  subscriberId: string,
  ledger: FeedLedger,
  intents: WeakMap<V, Intent>,
) {
  return {
    onError: (_error: Error, vars: V, context: Intent | undefined) => {
      // Without a context onMutate itself failed; its intent is still registered and must go.
      const intent = context ?? intents.get(vars)
      if (!intent) return
      ledger.settle(intent)
      ledger.failed = true
      rollback(queryClient, subscriberId, ledger, intent)
    },
    onSettled: (_data: unknown, _error: Error | null, vars: V, intent: Intent | undefined) => {
      ;(intent ?? intents.get(vars))?.release()
      flush(queryClient, subscriberId, ledger)
    },
  }
}

function normalizeIds(ids: string | readonly string[]): string[] {
  const list = typeof ids === 'string' ? ids.split(',') : ids
  return [...new Set(list.map((id) => id.trim()).filter(Boolean))]
}

/** Variables of a mark-as call. */
export interface MarkAsVariables {
  /** One id, several, or a comma-separated string. */
  ids: string | readonly string[]
  markAs: MarkAs
  /** Sent with the request and with every retry of it. */
  idempotencyKey?: string
}

/**
 * Mutation options of mark-as: optimistic across every cached list (filtered ones and the counts
 * included) in one render, serialized per item, rolled back exactly on failure, reconciled with the
 * messages the service returns, told to other tabs. A success costs the one request.
 */
export function markAsMutationOptions(deps: FeedSyncDeps): MutationOptions<Message[], Error, MarkAsVariables, Intent> {
  const { client, queryClient, subscriberId, broadcast } = deps
  const ledger = feedLedger(queryClient, subscriberId)
  const intents = new WeakMap<MarkAsVariables, Intent>()
  return {
    mutationKey: [...inboxKeys.all(subscriberId), 'markAs'],
    onMutate: async (vars) => {
      const ids = new Set(normalizeIds(vars.ids))
      const intent = ledger.register(ids, (item) => (ids.has(item._id) ? markAsState(item, vars.markAs) : undefined))
      intents.set(vars, intent)
      await cancelRefetches(queryClient, subscriberId, ledger)
      const known = knownItems(queryClient, subscriberId)
      const states = new Map<string, ItemState>()
      for (const id of ids) {
        const item = known.get(id)
        if (!item) continue
        intent.prior.set(id, { read: item.read, seen: item.seen })
        intent.known.set(id, item)
        states.set(id, markAsState(item, vars.markAs))
      }
      intent.snapshot = snapshotFeeds(queryClient, subscriberId)
      const gaps = updateFeeds(queryClient, subscriberId, (data, filters) => applyItemStates(data, filters, states, known))
      for (const hash of gaps) ledger.refetch.add(hash)
      return intent
    },
    mutationFn: async (vars) => {
      const intent = intents.get(vars)
      await intent?.gate
      const ids = normalizeIds(vars.ids)
      if (ids.length === 0) return []
      return client.markAs(
        subscriberId,
        { messageId: ids, markAs: vars.markAs },
        vars.idempotencyKey ? { idempotencyKey: vars.idempotencyKey } : {},
      )
    },
    onSuccess: (messages, vars, intent) => {
      ledger.settle(intent)
      const answered = new Map<string, ItemState>()
      for (const m of messages) if (m._id) answered.set(m._id, { read: m.read, seen: m.seen })
      const states = new Map<string, ItemState>()
      for (const id of normalizeIds(vars.ids)) {
        const state = answered.get(id)
        if (state) {
          if (!ledger.isPending(id)) states.set(id, state)
        } else if (intent.known.has(id)) {
          // The service skipped an item we hold: our copy is wrong, so look again.
          ledger.failed = true
        }
      }
      if (states.size === 0) return
      const known = knownItems(queryClient, subscriberId)
      for (const [id, item] of intent.known) if (!known.has(id)) known.set(id, item)
      const gaps = updateFeeds(queryClient, subscriberId, (data, filters) => applyItemStates(data, filters, states, known))
      for (const hash of gaps) ledger.refetch.add(hash)
      const items: FeedItem[] = []
      for (const [id, state] of states) {
        const item = known.get(id)
        if (item) items.push(withState(item, state))
      }
      broadcast?.({ type: 'states', states: [...states], items })
    },
    ...failureAndSettle(queryClient, subscriberId, ledger, intents),
  }
}

/** Variables of one "mark all" run. */
export interface MarkAllVariables {
  /** Batch `n` is sent with `${idempotencyKey}-${n}`, the same on every retry. */
  idempotencyKey?: string
}

/** Most ids one mark-as request carries. */
export const MARK_BATCH = 100

/**
 * Mutation options of "mark all as read/seen": optimistic for what is loaded, then pages through
 * the unread (unseen) feed 100 at a time and marks the ids in batches of at most 100. "Read" leaves
 * everything read and seen: after the unread items it marks the few read but unseen ones seen.
 */
export function markAllMutationOptions(
  deps: FeedSyncDeps,
  kind: 'read' | 'seen',
): MutationOptions<Message[], Error, MarkAllVariables, Intent> {
  const { client, queryClient, subscriberId, broadcast } = deps
  const ledger = feedLedger(queryClient, subscriberId)
  const intents = new WeakMap<MarkAllVariables, Intent>()
  return {
    mutationKey: [...inboxKeys.all(subscriberId), 'markAll', kind],
    onMutate: async (vars) => {
      const intent = ledger.register(null, (item) => markAllState(item, kind))
      intents.set(vars, intent)
      await cancelRefetches(queryClient, subscriberId, ledger)
      const known = knownItems(queryClient, subscriberId)
      for (const [id, item] of known) {
        const next = markAllState(item, kind)
        if (next.read !== item.read || next.seen !== item.seen) {
          intent.prior.set(id, { read: item.read, seen: item.seen })
          intent.known.set(id, item)
        }
      }
      intent.snapshot = snapshotFeeds(queryClient, subscriberId)
      updateFeeds(queryClient, subscriberId, (data, filters) => applyMarkAll(data, filters, kind, known))
      return intent
    },
    mutationFn: async (vars) => {
      await intents.get(vars)?.gate
      let batch = 0
      const marked: Message[] = []
      /** Pages through the feed with `filter`, then marks what it found, at most 100 ids a request. */
      const markEvery = async (filter: { read?: boolean; seen?: boolean }, markAs: 'read' | 'seen') => {
        const ids = new Set<string>()
        for (let page = 0; page < 10_000; page++) {
          const result = await client.getFeed(subscriberId, { ...filter, limit: MARK_BATCH, page })
          for (const item of result.data) ids.add(item._id)
          if (!result.hasMore || result.data.length === 0) break
        }
        const all = [...ids]
        for (let i = 0; i < all.length; i += MARK_BATCH) {
          const key = vars.idempotencyKey ? { idempotencyKey: `${vars.idempotencyKey}-${batch}` } : {}
          batch++
          marked.push(...(await client.markAs(subscriberId, { messageId: all.slice(i, i + MARK_BATCH), markAs }, key)))
        }
      }
      if (kind === 'read') {
        await markEvery({ read: false }, 'read')
        // Read but unseen items (rare: marked unseen after reading) are seen too, so every badge clears.
        await markEvery({ seen: false }, 'seen')
      } else {
        await markEvery({ seen: false }, 'seen')
      }
      return marked
    },
    onSuccess: (_messages, _vars, intent) => {
      ledger.settle(intent)
      // Lists of read (seen) items may now lack items that were never loaded here.
      for (const q of feedQueries(queryClient, subscriberId)) {
        const filters = feedFiltersOf(q.queryKey)
        if (filters?.seen === true || (kind === 'read' && filters?.read === true)) ledger.refetch.add(q.queryHash)
      }
      broadcast?.({ type: 'markAll', kind })
    },
    ...failureAndSettle(queryClient, subscriberId, ledger, intents),
  }
}

/**
 * Applies a change another tab made: the same updater as there, so this tab asks the service for
 * nothing. Lists that may now lack items they cannot know are only marked stale.
 */
export function applyRemoteFeedChange(
  queryClient: QueryClient,
  subscriberId: string,
  message: Extract<CrossTabMessage, { type: 'states' | 'markAll' }>,
): void {
  const ledger = feedLedger(queryClient, subscriberId)
  ledger.epoch++
  const known = knownItems(queryClient, subscriberId)
  let stale = new Set<string>()
  if (message.type === 'states') {
    const states = new Map(message.states.filter(([id]) => !ledger.isPending(id)))
    for (const item of message.items) if (!known.has(item._id)) known.set(item._id, item)
    stale = updateFeeds(queryClient, subscriberId, (data, filters) => applyItemStates(data, filters, states, known))
  } else {
    const kind = message.kind
    updateFeeds(queryClient, subscriberId, (data, filters) => applyMarkAll(data, filters, kind, known))
    for (const q of feedQueries(queryClient, subscriberId)) {
      const filters = feedFiltersOf(q.queryKey)
      if (filters?.seen === true || (kind === 'read' && filters?.read === true)) stale.add(q.queryHash)
    }
  }
  if (stale.size > 0) {
    void queryClient.invalidateQueries({
      queryKey: inboxKeys.feeds(subscriberId),
      predicate: (q) => stale.has(q.queryHash),
      refetchType: 'none',
    })
  }
}
