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
