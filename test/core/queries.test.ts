import { describe, expect, it } from 'vitest'
import type { FeedItem, FeedPage } from '../../src/api/types'
import { feedQueryOptions } from '../../src/core/queries'
import type { SubscriberClient } from '../../src/core/sync'

const deps = { client: {} as SubscriberClient, subscriberId: 'u1' }

/** `count` pages of 20 items each, every read of a page's items counted in `reads`. */
function pages(count: number, reads: { n: number }): FeedPage[] {
  return Array.from({ length: count }, (_, p) => {
    const data = Array.from({ length: 20 }, (_, i) => ({ _id: `${p}-${i}` }) as FeedItem)
    return {
      get data() {
        reads.n++
        return data
      },
      hasMore: true,
      page: p,
      pageSize: 20,
    } as FeedPage
  })
}

describe('feedQueryOptions', () => {
  it('walks the loaded pages once per set of pages, not on every render that asks whether more follow', () => {
    const next = feedQueryOptions(deps, {}).getNextPageParam as (
      last: FeedPage,
      all: FeedPage[],
      param: number,
      params: number[],
    ) => number | undefined
    const reads = { n: 0 }
    const all = pages(500, reads)
    const params = all.map((_, i) => i)
    // React Query asks on every render of a list (each scroll of a feed of 10,000 items, say).
    for (let render = 0; render < 50; render++) expect(next(all.at(-1)!, all, 499, params)).toBe(500)
    expect(reads.n).toBe(500)
    // A new set of pages (one more loaded) is walked anew.
    const more = [...all, ...pages(1, reads)]
    expect(next(more.at(-1)!, more, 500, [...params, 500])).toBe(501)
    expect(reads.n).toBe(1001)
  })
})
