/**
 * Pure functions over cached feed lists. The same updater runs when the service acknowledges a change,
 * when another tab reports one and when a page arrives while changes are in flight, so every list and
 * every count moves in step.
 */
import type { InfiniteData } from '@tanstack/react-query'
import type { FeedItem, FeedPage, JsonObject } from '../api/types'
import { matches, type FeedFilter, type Flags } from './items'

/** A feed list as cached: the pages loaded so far and their page numbers. */
export type FeedData<P extends JsonObject = JsonObject> = InfiniteData<FeedPage<P>, number>

const time = (item: FeedItem<JsonObject>) => Date.parse(item.createdAt ?? '') || 0

/** The feed's order, newest first (`createdAt` desc, then `_id` desc); negative when `a` comes first. */
export function compare(a: FeedItem<JsonObject>, b: FeedItem<JsonObject>): number {
  return time(b) - time(a) || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0)
}

/** `item` with these flags; the same object when they already hold. */
export function withFlags<T extends Flags>(item: T, f: Flags): T {
  return item.read === f.read && item.seen === f.seen ? item : { ...item, read: f.read, seen: f.seen }
}

/** The items of a list in order, each id once (pages fetched by number can overlap after a change). */
export function itemsOf<P extends JsonObject>(data: FeedData<P> | undefined): FeedItem<P>[] {
  const seen = new Set<string>()
  const out: FeedItem<P>[] = []
  for (const page of data?.pages ?? [])
    for (const item of page.data) if (!seen.has(item._id)) (seen.add(item._id), out.push(item))
  return out
}

/**
 * New flags for the items of one list: an item that no longer matches leaves it; a candidate (already
 * carrying its new flags) that now matches enters it at its place in the order, where that place lies
 * within the loaded pages. Returns `data` itself when nothing changed.
 */
export function applyFlags<P extends JsonObject>(
  data: FeedData<P>,
  f: FeedFilter,
  flagsOf: (item: FeedItem<P>) => Flags | undefined,
  candidates: Iterable<FeedItem<P>> = [],
): FeedData<P> {
  let delta = 0
  const present = new Set<string>()
  let pages = data.pages.map((page) => {
    let changed = false
    const kept: FeedItem<P>[] = []
    for (const item of page.data) {
      present.add(item._id)
      const flags = flagsOf(item)
      const next = flags ? withFlags(item, flags) : item
      if (next !== item) changed = true
      if (next !== item && !matches(next, f)) delta--
      else kept.push(next)
    }
    return changed ? { ...page, data: kept } : page
  })
  let changed = pages.some((p, i) => p !== data.pages[i])
  const last = pages[pages.length - 1]
  const entering = [...candidates].filter((c) => !present.has(c._id) && matches(c, f)).sort(compare)
  for (const item of entering) {
    if (present.has(item._id) || !last) continue
    // Its place: before the first loaded item it precedes; after the last one only when nothing follows.
    let p = pages.findIndex((page) => page.data.some((other) => compare(item, other) < 0))
    if (p < 0 && last.hasMore) continue
    if (p < 0) p = pages.length - 1
    const page = pages[p]!
    let at = page.data.findIndex((other) => compare(item, other) < 0)
    if (at < 0) at = page.data.length
    pages = pages.map((x, i) => (i === p ? { ...x, data: [...x.data.slice(0, at), item, ...x.data.slice(at)] } : x))
    present.add(item._id)
    delta++
    changed = true
  }
  if (!changed) return data
  if (delta)
    pages = pages.map((p) =>
      typeof p.totalCount === 'number' ? { ...p, totalCount: Math.max(0, p.totalCount + delta) } : p,
    )
  return { ...data, pages }
}
