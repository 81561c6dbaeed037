import { MutationObserver, QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { createInboxClient } from '../../src/api/client'
import { openCrossTab, crossTabChannelName, type CrossTabMessage } from '../../src/core/crossTab'
import { markAsMutationOptions } from '../../src/core/feedSync'
import { feedCount, feedItems, type FeedData } from '../../src/core/optimistic'
import { prefetchInbox } from '../../src/core/queries'
import { COUNT_FILTERS, inboxKeys } from '../../src/core/queryKeys'
import { buildFixture, messages } from '../support/fixtures'
import { startService } from '../support/service'

describe('React-free core', () => {
  it('runs mark-as on a bare QueryClient: lists and counts change before the answer and match the service after', async () => {
    const { service, fetch, baseUrl } = startService({ fixture: buildFixture({ messages: messages('user-1', 5) }) })
    const client = createInboxClient({ baseUrl, apiKey: service.apiKey, fetch, retry: false })
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    await prefetchInbox(queryClient, client, 'user-1')
    const posted: CrossTabMessage[] = []
    const observer = new MutationObserver(
      queryClient,
      markAsMutationOptions({ client, queryClient, subscriberId: 'user-1', broadcast: (m) => posted.push(m) }),
    )
    const unread = () => queryClient.getQueryData<FeedData>(inboxKeys.feed('user-1', COUNT_FILTERS.unread))
    const id = feedItems(unread())[0]!._id
    service.faults.add({ path: /mark-as$/, latency: 100 })
    const pending = observer.mutate({ ids: [id], markAs: 'read' })
    await new Promise((r) => setTimeout(r, 20))
    expect(feedCount(unread()).count).toBe(4)
    expect(service.state.messages('user-1').find((m) => m._id === id)?.read).toBe(false)
    await pending
    expect(service.state.messages('user-1').find((m) => m._id === id)?.read).toBe(true)
    expect(feedCount(unread()).count).toBe(4)
    expect(posted).toMatchObject([{ type: 'states', states: [[id, { read: true, seen: true }]] }])
  })
})

describe('cross-tab channel', () => {
  it('delivers to the other channels of the same name, not to itself or other names', async () => {
    const name = crossTabChannelName('http://x', 'u')
    const got: string[] = []
    const a = openCrossTab(name, () => got.push('a'))
    const b = openCrossTab(name, (m) => got.push(`b:${m.type}`))
    const c = openCrossTab(crossTabChannelName('http://x', 'v'), () => got.push('c'))
    a.post({ type: 'markAll', kind: 'read' })
    await new Promise((r) => setTimeout(r, 30))
    expect(got).toEqual(['b:markAll'])
    a.close()
    b.close()
    c.close()
    a.post({ type: 'markAll', kind: 'read' })
  })
})
