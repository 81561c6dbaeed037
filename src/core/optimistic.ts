/**
 * Pure updaters over cached data. The same functions run for an optimistic change, for its rollback,
 * for a change another tab reports and for a page that arrives while a change is still pending, so
 * every list and every count (which is just a filtered list) moves in step.
 */
import type { InfiniteData } from '@tanstack/query-core'
import type {
  FeedItem,
  FeedPage,
  Integration,
  JsonObject,
  MarkAs,
  Preferences,
  PreferenceChannels,
  Criticality,
  UpdatePreferencesBody,
} from '../api/types'
import type { FeedFilters } from './queryKeys'

/** A feed list as cached: the pages loaded so far and their page numbers. */
export type FeedData<P extends JsonObject = JsonObject> = InfiniteData<FeedPage<P>, unknown>

/** The read and seen flags of one item. */
export interface ItemState {
  read: boolean
  seen: boolean
}

/** The flags an item has after `markAs`, as the service applies it. */
export function markAsState(state: ItemState, markAs: MarkAs): ItemState {
  switch (markAs) {
    case 'read':
      return { read: true, seen: true }
    case 'unread':
      return { read: false, seen: true }
    case 'seen':
      return { read: state.read, seen: true }
    case 'unseen':
      return { read: state.read, seen: false }
  }
}

/** The flags an item has after "mark all as read" (`read`: read and seen) or "mark all as seen" (`seen`). */
export function markAllState(state: ItemState, kind: 'read' | 'seen'): ItemState {
  return kind === 'read' ? { read: true, seen: true } : { read: state.read, seen: true }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  return JSON.stringify(a) === JSON.stringify(b)
}

/** Whether every leaf of `filter` equals the value at the same path of `payload` (a subset match). */
export function matchesPayload(payload: unknown, filter: JsonObject): boolean {
  return Object.entries(filter).every(([key, expected]) => {
    const actual = isPlainObject(payload) ? payload[key] : undefined
    if (isPlainObject(expected)) return matchesPayload(actual, expected)
    return sameJson(actual, expected)
  })
}

/** Whether an item belongs in a list with these filters. */
export function matchesFilters(item: FeedItem<JsonObject>, filters: Omit<FeedFilters, 'limit'>): boolean {
  if (filters.read !== undefined && item.read !== filters.read) return false
  if (filters.seen !== undefined && item.seen !== filters.seen) return false
  if (filters.payload && !matchesPayload(item.payload, filters.payload)) return false
  return true
}

function timeOf(item: FeedItem<JsonObject>): number {
  const t = item.createdAt ? Date.parse(item.createdAt) : NaN
  return Number.isNaN(t) ? -Infinity : t
}

/** The feed's order: newest first (`createdAt` desc, then `_id` desc). Negative when `a` comes first. */
export function compareFeedItems(a: FeedItem<JsonObject>, b: FeedItem<JsonObject>): number {
  return timeOf(b) - timeOf(a) || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0)
}

/** `item` with these flags; the same object when they already hold. */
export function withState<T extends ItemState>(item: T, state: ItemState): T {
  return item.read === state.read && item.seen === state.seen ? item : { ...item, read: state.read, seen: state.seen }
}

function withTotal<P extends JsonObject>(page: FeedPage<P>, delta: number): FeedPage<P> {
  return delta !== 0 && typeof page.totalCount === 'number'
    ? { ...page, totalCount: Math.max(0, page.totalCount + delta) }
    : page
}

/**
 * Applies new flags to the items of one list: an item that no longer matches the list's filters
 * leaves it, a changed item that now matches enters it at its place in the order (only where that
 * place lies within the loaded pages). Returns `data` itself when nothing changed.
 *
 * @param stateOf - the new flags of an item, or `undefined` to leave it as it is
 * @param candidates - items (already carrying their new flags) that may enter the list
 */
export function updateFeedData<P extends JsonObject>(
  data: FeedData<P>,
  filters: Omit<FeedFilters, 'limit'>,
  stateOf: (item: FeedItem<P>) => ItemState | undefined,
  candidates: Iterable<FeedItem<P>> = [],
): FeedData<P> {
  let changed = false
  let delta = 0
  const present = new Set<string>()
  let pages = data.pages.map((page) => {
    let pageChanged = false
    const items: FeedItem<P>[] = []
    for (const item of page.data) {
      present.add(item._id)
      const state = stateOf(item)
      const next = state ? withState(item, state) : item
      if (next !== item && !matchesFilters(next, filters)) {
        pageChanged = true
        delta--
        continue
      }
      if (next !== item) pageChanged = true
      items.push(next)
    }
    if (!pageChanged) return page
    changed = true
    return { ...page, data: items }
  })

  const entering = [...candidates].filter((c) => !present.has(c._id) && matchesFilters(c, filters))
  entering.sort(compareFeedItems)
  for (const item of entering) {
    if (present.has(item._id)) continue
    const placed = insertSorted(pages, item)
    if (!placed) continue
    pages = placed
    present.add(item._id)
    delta++
    changed = true
  }

  if (!changed) return data
  if (delta !== 0) pages = pages.map((page) => withTotal(page, delta))
  return { ...data, pages }
}

/** Inserts at the item's place in the order, or `undefined` when that place is past the loaded pages. */
function insertSorted<P extends JsonObject>(pages: FeedPage<P>[], item: FeedItem<P>): FeedPage<P>[] | undefined {
  if (pages.length === 0) return undefined
  for (let p = 0; p < pages.length; p++) {
    const page = pages[p] as FeedPage<P>
    const at = page.data.findIndex((other) => compareFeedItems(item, other) < 0)
    if (at >= 0) {
      const data = [...page.data.slice(0, at), item, ...page.data.slice(at)]
      return pages.map((x, i) => (i === p ? { ...x, data } : x))
    }
  }
  const last = pages[pages.length - 1] as FeedPage<P>
  if (last.hasMore) return undefined
  return pages.map((x, i) => (i === pages.length - 1 ? { ...x, data: [...x.data, item] } : x))
}

/** Items of every known id with the given flags, for {@link updateFeedData}'s `candidates`. */
export function candidatesFor<P extends JsonObject>(
  states: ReadonlyMap<string, ItemState>,
  known: ReadonlyMap<string, FeedItem<P>>,
): FeedItem<P>[] {
  const out: FeedItem<P>[] = []
  for (const [id, state] of states) {
    const item = known.get(id)
    if (item) out.push(withState(item, state))
  }
  return out
}

/** Sets the flags of the given items in one list, moving them in or out of it. */
export function applyItemStates<P extends JsonObject>(
  data: FeedData<P>,
  filters: Omit<FeedFilters, 'limit'>,
  states: ReadonlyMap<string, ItemState>,
  known: ReadonlyMap<string, FeedItem<P>>,
): FeedData<P> {
  return updateFeedData(data, filters, (item) => states.get(item._id), candidatesFor(states, known))
}

/** Whether "mark all" leaves nothing in a list with these filters (loaded or not). */
export function emptiedByMarkAll(filters: Omit<FeedFilters, 'limit'>, kind: 'read' | 'seen'): boolean {
  return filters.seen === false || (kind === 'read' && filters.read === false)
}

/**
 * "Mark all as read/seen" on one list: lists of unread (unseen) items become empty, every other
 * item gets the new flags, and known items enter the lists they now match.
 */
export function applyMarkAll<P extends JsonObject>(
  data: FeedData<P>,
  filters: Omit<FeedFilters, 'limit'>,
  kind: 'read' | 'seen',
  known: ReadonlyMap<string, FeedItem<P>>,
): FeedData<P> {
  if (emptiedByMarkAll(filters, kind)) {
    const first = data.pages[0]
    if (!first || (data.pages.length === 1 && first.data.length === 0 && !first.hasMore)) return data
    return {
      pages: [{ ...first, data: [], hasMore: false, ...(typeof first.totalCount === 'number' ? { totalCount: 0 } : {}) }],
      pageParams: data.pageParams.slice(0, 1),
    }
  }
  const candidates: FeedItem<P>[] = []
  for (const item of known.values()) candidates.push(withState(item, markAllState(item, kind)))
  return updateFeedData(data, filters, (item) => markAllState(item, kind), candidates)
}

/** The items of a list in order, each id once (pages fetched by number can overlap after a change). */
export function feedItems<P extends JsonObject>(data: FeedData<P> | undefined): FeedItem<P>[] {
  if (!data) return []
  const seen = new Set<string>()
  const out: FeedItem<P>[] = []
  for (const page of data.pages) {
    for (const item of page.data) {
      if (seen.has(item._id)) continue
      seen.add(item._id)
      out.push(item)
    }
  }
  return out
}

/** Largest count shown as a number; above it a badge shows "99+". */
export const COUNT_CAP = 99

/** The count of a list: its loaded items, and whether more than {@link COUNT_CAP} exist. */
export function feedCount(data: FeedData | undefined): { count: number; capped: boolean } {
  const count = feedItems(data).length
  const last = data?.pages[data.pages.length - 1]
  return { count, capped: count > COUNT_CAP || Boolean(last?.hasMore) }
}

/** A short fingerprint of a list (ids, flags, whether more exist) to tell whether a refetch changed it. */
export function feedSignature(data: FeedData | undefined): string {
  if (!data) return ''
  const parts = feedItems(data).map((i) => `${i._id}${i.read ? 'r' : ''}${i.seen ? 's' : ''}`)
  const last = data.pages[data.pages.length - 1]
  return `${parts.join(',')}|${last?.hasMore ? 1 : 0}`
}

// ---------------------------------------------------------------- preferences

function mergeChannels(
  current: PreferenceChannels,
  changes: PreferenceChannels,
  onlyListed: boolean,
): PreferenceChannels {
  const out: PreferenceChannels = { ...current }
  for (const [channel, value] of Object.entries(changes) as [keyof PreferenceChannels, boolean | undefined][]) {
    if (value === undefined) continue
    if (onlyListed && !(channel in current)) continue
    out[channel] = value
  }
  return out
}

/**
 * What a preferences update will most likely look like, for showing it before the service answers
 * (the answer replaces it). A global change reaches every workflow whose channel still follows the
 * global value; a workflow change reaches that workflow only. A list of critical workflows is left
 * alone, since the service ignores the subscriber's choices for them.
 */
export function applyPreferencesUpdate(
  prefs: Preferences,
  body: UpdatePreferencesBody,
  criticality: Criticality = 'nonCritical',
): Preferences {
  const changes = body.channels ?? {}
  if (criticality === 'critical') return prefs
  if (body.workflowId !== undefined) {
    const id = body.workflowId
    let changed = false
    const workflows = prefs.workflows.map((wf) => {
      if (wf.workflow.identifier !== id && wf.workflow.slug !== id) return wf
      changed = true
      const channels = mergeChannels(wf.channels, changes, true)
      const overrides = wf.overrides.map((o) =>
        changes[o.channel] !== undefined ? { ...o, source: 'subscriber' as const } : o,
      )
      return { ...wf, channels, overrides }
    })
    return changed ? { ...prefs, workflows } : prefs
  }
  const before = prefs.global.channels
  const global = {
    ...prefs.global,
    channels: mergeChannels(before, changes, true),
    ...(body.schedule ? { schedule: body.schedule } : {}),
  }
  const workflows = prefs.workflows.map((wf) => {
    let channels = wf.channels
    let overrides = wf.overrides
    for (const [channel, value] of Object.entries(changes) as [keyof PreferenceChannels, boolean | undefined][]) {
      if (value === undefined || !(channel in wf.channels)) continue
      const source = wf.overrides.find((o) => o.channel === channel)?.source
      const followsGlobal = source === 'template' || (source === 'subscriber' && wf.channels[channel] === (before[channel] ?? true))
      if (!followsGlobal) continue
      channels = { ...channels, [channel]: value }
      overrides = overrides.map((o) => (o.channel === channel ? { ...o, source: 'subscriber' as const } : o))
    }
    return channels === wf.channels ? wf : { ...wf, channels, overrides }
  })
  return { ...prefs, global, workflows }
}

// ---------------------------------------------------------------- integrations

/** Channels whose integrations can be primary. */
export const PRIMARY_CHANNELS: readonly string[] = ['email', 'sms']

/**
 * Makes one integration primary: the others of its channel and environment lose `primary`, it becomes
 * active with no conditions. Returns `list` itself when the id is unknown or its channel has no primary.
 */
export function applySetPrimary<T extends Integration>(list: T[], integrationId: string): T[] {
  const target = list.find((i) => i._id === integrationId)
  if (!target || !PRIMARY_CHANNELS.includes(target.channel)) return list
  return list.map((i) => {
    if (i === target) return { ...i, active: true, primary: true, conditions: [] }
    if (i.primary && i.channel === target.channel && i._environmentId === target._environmentId) {
      return { ...i, primary: false }
    }
    return i
  })
}
