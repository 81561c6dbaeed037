/**
 * The feed ledger at 10,000 loaded notifications, against the reference service in process: "mark all as read"
 * moves every unread item into a cached list of read ones in work that grows with the items, not with their
 * square. Counted (the dates the feed's order reads), never timed: `npm run bench` (bench/scale.ts) times it.
 */
import { QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FeedItem, FeedPage } from '../../src/api/types'
import { inboxKeys } from '../../src/core/keys'
import { itemsOf } from '../../src/core/items'
import { applyFlags, compare, type FeedData } from '../../src/core/lists'
import { createInboxSync, type Write } from '../../src/core/sync'
import { matches, type FeedFilter, type Flags } from '../../src/core/items'
import { buildFixture, messages, TEST_SUBSCRIBER_ID } from '../support/fixtures'
import { startService } from '../support/service'

const N = 10_000

afterEach(() => void vi.restoreAllMocks())

/**
 * Counts `Date.parse` from now on (the feed's order reads each item's date through it) and throws past
 * `budget`, so that work gone quadratic fails at once instead of running for minutes.
 */
function dateReads(budget: number): { count: number } {
  const parse = Date.parse
  const reads = { count: 0 }
  vi.spyOn(Date, 'parse').mockImplementation((s) => {
    if (++reads.count > budget) throw new Error(`more than ${budget} dates read`)
    return parse(s)
  })
  return reads
}

/** A ledger over the unread list and the list of read items, every page of both loaded: N each, in turn by date. */
async function loaded() {
  const { client } = startService({
    fixture: buildFixture({
      messages: messages(TEST_SUBSCRIBER_ID, 2 * N, (i) => ({ read: i % 2 === 1, seen: i % 2 === 1 })),
    }),
  })
  const queryClient = new QueryClient()
  const sync = createInboxSync(client, queryClient, TEST_SUBSCRIBER_ID)
  const key = (read: boolean) => inboxKeys.feed(TEST_SUBSCRIBER_ID, { read, limit: 100 })
  for (const read of [false, true]) {
    const pages: FeedPage[] = []
    for (let page = 0; page * 100 < N; page++)
      pages.push(await client.getFeed(TEST_SUBSCRIBER_ID, { read, limit: 100, page }))
    queryClient.setQueryData<FeedData>(key(read), { pages, pageParams: pages.map((_, i) => i) })
  }
  return { ledger: await sync.ledger(), list: (read: boolean) => queryClient.getQueryData<FeedData>(key(read))! }
}

/** Ids of a list's items, in order. */
const ids = (data: FeedData | undefined) => itemsOf(data).map((i) => i._id)

// The order reads two dates a comparison. Sorting the items that enter and one walk through the loaded ones
// stays under 30 reads an item; the quadratic walk read about 100 million dates for one list.
const BUDGET = 30 * 2 * N

describe('mark all with 10,000 unread and 10,000 read items loaded', () => {
  it('lays the write on its way over both lists, then folds the answer in, in work that grows with the items', async () => {
    const { ledger, list } = await loaded()
    const all = [...ids(list(false)), ...ids(list(true))].sort().reverse()
    const markAll: Write = { seq: 1, ids: null, markAs: 'read' }
    let reads = dateReads(BUDGET)
    const read = ledger.list(list(true), { read: true }, [markAll])
    const unread = ledger.list(list(false), { read: false }, [markAll])
    expect(reads.count).toBeLessThanOrEqual(BUDGET)
    vi.restoreAllMocks()
    // Every item in the read list, in the feed's order (ids follow the dates here), none left unread.
    expect(ids(read)).toEqual(all)
    expect(itemsOf(read).every((i) => i.read && i.seen)).toBe(true)
    expect(read!.pages[0]!.totalCount).toBe(2 * N)
    expect(ids(unread)).toEqual([])

    reads = dateReads(BUDGET)
    await ledger.receive({ t: 'all', markAs: 'read' })
    expect(reads.count).toBeLessThanOrEqual(BUDGET)
    vi.restoreAllMocks()
    expect(list(true)).toEqual(read)
    expect(ids(list(false))).toEqual([])
    // Loading 20,000 items page by page is most of it.
  }, 60_000)
})

/**
 * What a list takes in, item by item (the rule as applyFlags read it before it took the entering items in one
 * walk): each goes before the first loaded item it precedes, or after the last one when no more pages follow.
 */
function oneByOne(
  data: FeedData,
  f: FeedFilter,
  flagsOf: (item: FeedItem) => Flags | undefined,
  candidates: FeedItem[],
): FeedData {
  // The loaded items' own flags first (no candidate: no walk).
  const kept = applyFlags(data, f, flagsOf)
  const present = new Set(data.pages.flatMap((p) => p.data.map((i) => i._id)))
  const pages = kept.pages.map((p) => ({ ...p, data: [...p.data] }))
  const last = pages[pages.length - 1]
  let entered = 0
  for (const item of candidates.filter((c) => !present.has(c._id) && matches(c, f)).sort(compare)) {
    if (present.has(item._id) || !last) continue
    let p = pages.findIndex((page) => page.data.some((other) => compare(item, other) < 0))
    if (p < 0 && last.hasMore) continue
    if (p < 0) p = pages.length - 1
    const at = pages[p]!.data.findIndex((other) => compare(item, other) < 0)
    pages[p]!.data.splice(at < 0 ? pages[p]!.data.length : at, 0, item)
    present.add(item._id)
    entered++
  }
  // (The counts below never fall under what was removed, so adding what entered afterwards comes to the same.)
  if (!entered) return kept
  return {
    ...kept,
    pages: pages.map((p) => (typeof p.totalCount === 'number' ? { ...p, totalCount: p.totalCount + entered } : p)),
  }
}

describe('items entering a list in one walk', () => {
  it('land where they would one by one, however the pages are ordered', () => {
    // A small random generator, seeded: the same cases on every run.
    let seed = 7
    const random = (n: number) => ((seed = (seed * 48_271) % 2_147_483_647), seed % n)
    const item = (n: number): FeedItem =>
      ({
        ...messages(TEST_SUBSCRIBER_ID, 1)[0]!,
        _id: `id${n}`,
        // Few distinct dates (ties broken by id), some missing or unreadable.
        createdAt: [undefined, 'never', new Date(Date.UTC(2026, 0, 1, random(6))).toISOString()][random(3)]!,
        read: random(2) === 1,
        seen: random(2) === 1,
      }) as unknown as FeedItem
    for (let round = 0; round < 400; round++) {
      const pool = Array.from({ length: 12 }, (_, n) => item(n))
      // Pages as a service may send them: in order or not, overlapping, some empty, more to come or not.
      const pages: FeedPage[] = Array.from({ length: random(4) }, (_, page) => ({
        data: Array.from({ length: random(5) }, () => pool[random(pool.length)]!),
        page,
        pageSize: 5,
        hasMore: random(2) === 1,
        totalCount: 20,
      }))
      for (const p of pages) if (random(2)) p.data.sort(compare)
      const data: FeedData = { pages, pageParams: pages.map((p) => p.page) }
      const f: FeedFilter = [{}, { read: true }, { read: false }, { seen: false }][random(4)]!
      const flags = new Map(pool.filter(() => random(3) === 0).map((i) => [i._id, { read: !i.read, seen: true }]))
      const flagsOf = (i: FeedItem) => flags.get(i._id)
      // Candidates carry their new flags; some come twice.
      const candidates = pool.flatMap((i) => (flags.has(i._id) ? [{ ...i, ...flags.get(i._id) }] : []))
      candidates.push(...candidates.filter(() => random(4) === 0))
      const walked = applyFlags(data, f, flagsOf, candidates)
      const expected = oneByOne(data, f, flagsOf, candidates)
      expect(walked).toEqual(expected)
      // The same object when nothing changed, as React Query's cache wants it.
      expect(walked === data).toBe(expected === data)
    }
  })
})
