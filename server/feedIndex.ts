import { insertSorted, removeSorted } from './sorted'
import type { MessageRecord } from './types'

/** Ascending (createdAt, _id): the feed reads these arrays from the end. */
export function compareMessages(a: MessageRecord, b: MessageRecord): number {
  return a.createdMs - b.createdMs || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0)
}

function keysOf(read: boolean, seen: boolean): string[] {
  const r = read ? 'r1' : 'r0'
  const s = seen ? 's1' : 's0'
  return ['all', r, s, r + s]
}

/**
 * The in_app messages of one subscriber, kept sorted once per filter combination
 * (none, read, seen, read+seen), so any filtered page is a slice.
 */
export class FeedIndex {
  private readonly lists = new Map<string, MessageRecord[]>()

  /** Adds in order; O(1) for the newest message, which is the usual case. */
  add(message: MessageRecord): void {
    for (const key of keysOf(message.read, message.seen)) insertSorted(this.listFor(key), message, compareMessages)
  }

  /** Call after changing read/seen of `message` from the given previous values. */
  move(message: MessageRecord, wasRead: boolean, wasSeen: boolean): void {
    const before = keysOf(wasRead, wasSeen)
    const after = keysOf(message.read, message.seen)
    for (const key of before) if (!after.includes(key)) removeSorted(this.listFor(key), message, compareMessages)
    for (const key of after) if (!before.includes(key)) insertSorted(this.listFor(key), message, compareMessages)
  }

  /**
   * Applies many read/seen changes at once: one pass per affected list instead of one splice per
   * message, so marking a batch costs O(n + k log k) rather than O(k·n).
   */
  moveMany(changes: { message: MessageRecord; wasRead: boolean; wasSeen: boolean }[]): void {
    if (changes.length <= 8) {
      for (const c of changes) this.move(c.message, c.wasRead, c.wasSeen)
      return
    }
    const removals = new Map<string, Set<MessageRecord>>()
    const inserts = new Map<string, MessageRecord[]>()
    for (const { message, wasRead, wasSeen } of changes) {
      const before = keysOf(wasRead, wasSeen)
      const after = keysOf(message.read, message.seen)
      for (const key of before) if (!after.includes(key)) getOr(removals, key, () => new Set()).add(message)
      for (const key of after) if (!before.includes(key)) getOr(inserts, key, () => []).push(message)
    }
    for (const key of new Set([...removals.keys(), ...inserts.keys()])) {
      const gone = removals.get(key)
      const kept = gone ? this.listFor(key).filter((m) => !gone.has(m)) : this.listFor(key)
      const added = (inserts.get(key) ?? []).sort(compareMessages)
      this.lists.set(key, added.length ? merge(kept, added) : kept)
    }
  }

  /** Ascending list matching the filters. */
  list(read?: boolean, seen?: boolean): readonly MessageRecord[] {
    let key = 'all'
    if (read !== undefined && seen !== undefined) key = (read ? 'r1' : 'r0') + (seen ? 's1' : 's0')
    else if (read !== undefined) key = read ? 'r1' : 'r0'
    else if (seen !== undefined) key = seen ? 's1' : 's0'
    return this.lists.get(key) ?? []
  }

  private listFor(key: string): MessageRecord[] {
    let list = this.lists.get(key)
    if (!list) {
      list = []
      this.lists.set(key, list)
    }
    return list
  }
}

function getOr<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key)
  if (value === undefined) map.set(key, (value = make()))
  return value
}

function merge(a: MessageRecord[], b: MessageRecord[]): MessageRecord[] {
  const out: MessageRecord[] = new Array(a.length + b.length)
  let i = 0
  let j = 0
  let k = 0
  while (i < a.length && j < b.length) out[k++] = compareMessages(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!
  while (i < a.length) out[k++] = a[i++]!
  while (j < b.length) out[k++] = b[j++]!
  return out
}
