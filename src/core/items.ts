/**
 * What a mark-as does to one item, and whether an item belongs in a list: pure, and shared by the counts
 * (from the bell's first render) and the lists (src/core/lists.ts).
 */
import type { FeedItem, JsonObject, MarkAs } from '../api/types'
import type { FeedData } from './lists'

/** The read and seen flags of one item. */
export interface Flags {
  read: boolean
  seen: boolean
}

/** Which items a list holds (the feed's filters without the page size). */
export interface FeedFilter {
  /** `false`: unread only, `true`: read only, absent: both. */
  read?: boolean | undefined
  /** `false`: unseen only, `true`: seen only, absent: both. */
  seen?: boolean | undefined
  /** A subset of the payload every item must match. */
  payload?: JsonObject | undefined
}

/** The flags an item has after `markAs`, as the service applies it ("mark all" uses `read` or `seen`). */
export function marked(state: Flags, markAs: MarkAs): Flags {
  return {
    read: markAs === 'read' ? true : markAs === 'unread' ? false : state.read,
    seen: markAs !== 'unseen',
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Whether every leaf of `filter` equals the value at the same path of `payload` (own keys only). */
export function matchesPayload(payload: unknown, filter: JsonObject): boolean {
  return Object.keys(filter).every((key) => {
    const expected = filter[key]
    const actual = isObject(payload) && Object.hasOwn(payload, key) ? payload[key] : undefined
    return isObject(expected)
      ? isObject(actual) && matchesPayload(actual, expected)
      : actual === expected ||
          ((isObject(actual) || Array.isArray(actual)) && JSON.stringify(actual) === JSON.stringify(expected))
  })
}

/** Whether an item with these flags belongs in a list with these filters. */
export function matches(item: FeedItem<object>, f: FeedFilter, state: Flags = item): boolean {
  return (
    (f.read === undefined || state.read === f.read) &&
    (f.seen === undefined || state.seen === f.seen) &&
    (!f.payload || matchesPayload(item.payload, f.payload))
  )
}

/** The items of a list in order (as the hooks show it), each id once (pages fetched by number can overlap after a change). */
export function itemsOf<P extends object>(data: FeedData<P> | undefined): FeedItem<P>[] {
  const seen = new Set<string>()
  const out: FeedItem<P>[] = []
  for (const page of data?.pages ?? [])
    for (const item of page.data) if (!seen.has(item._id)) (seen.add(item._id), out.push(item))
  return out
}
