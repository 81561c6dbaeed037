/**
 * How the hooks reach the ledger (src/core/ledger.ts), which loads after the first render: a feed list's pages
 * fetch it beside themselves, and a write waits for it only when it is not there yet. Apart from the sync object,
 * so that the bell's first chunk, which has the sync object, has none of this.
 */
import type { FeedPage } from '../api/types'
import { inboxKeys, readFeed, type FeedFilters } from './keys'
import type { Ledger } from './ledger'
import type { InboxSync } from './sync'

/**
 * `f` of the ledger: called at once when the ledger is there (a click shows in the same render; it always is
 * while a write is on its way), else once it is loaded. Rejects when it cannot be loaded.
 */
export function withLedger<T>(sync: InboxSync, f: (ledger: Ledger) => T): Promise<Awaited<T>> {
  const loaded = sync.slots.ledger as Ledger | undefined
  return (loaded ? Promise.resolve(f(loaded)) : sync.ledger().then(f)) as Promise<Awaited<T>>
}

/**
 * The queryFn of a feed list: a page, with changes acknowledged meanwhile taken in. The ledger, when not yet
 * there, is fetched beside the page, not before it.
 */
export const pageFn =
  (sync: InboxSync, f: FeedFilters) =>
  async ({ pageParam }: { pageParam: number }): Promise<FeedPage> => {
    const ledger = sync.ledger()
    ledger.catch(() => {})
    const counts = pageParam === 0 ? firstCounts(sync) : undefined
    const from = sync.seq
    const page = await readFeed(sync, { ...f, page: pageParam })
    if (counts) await counts
    return (await ledger).took(page, f, pageParam, from)
  }

/**
 * The counts on their first read, once they are in the cache (`undefined` when none is). A first list is
 * fetched beside them but answers after them, so that its rows reach React after the counts do: no frame
 * shows them beside a bell without its count. Counts mounted with the list start their reads in the same
 * commit, some after the list's: hence the look again a microtask later.
 */
function firstCounts({ queryClient, subscriberId }: InboxSync) {
  const pending = () =>
    queryClient.getQueryCache().findAll({
      queryKey: [...inboxKeys.all(subscriberId), 'count'],
      predicate: (q) => q.state.status === 'pending',
    })
  return pending().length
    ? Promise.resolve().then(() => Promise.all(pending().map((q) => (q.promise ?? Promise.resolve()).catch(() => {}))))
    : undefined
}
