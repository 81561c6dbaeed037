import { dehydrate } from '@tanstack/react-query'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { createInboxClient } from '../../src/api/client'
import { prefetchInbox } from '../../src/server'
import { useCounts } from '../../src/hooks/useCounts'
import { useFeed } from '../../src/hooks/useFeed'
import { useMarkAs } from '../../src/hooks/useMarkAs'
import { usePreferences } from '../../src/hooks/usePreferences'
import { useUpdatePreferences } from '../../src/hooks/usePreferences'
import { InboxProvider } from '../../src/provider/InboxProvider'
import { feedFixture, newQueryClient, setup } from './harness'

function Everything() {
  const feed = useFeed()
  const counts = useCounts()
  useMarkAs()
  const prefs = usePreferences()
  const update = useUpdatePreferences()
  return (
    <p>{`${feed.items.map((i) => i.content).join(',')}|${counts.unread}|${prefs.data ? 'prefs' : 'no prefs'}|${update.readOnly}`}</p>
  )
}

describe('server rendering (Node, no DOM)', () => {
  it('refuses to prefetch with a relative baseUrl, naming it, rather than render with nothing prefetched', async () => {
    const client = createInboxClient({ baseUrl: '/api/inbox', apiKey: 'key' })
    await expect(prefetchInbox(newQueryClient(), client, 'user-1')).rejects.toThrow(
      /^prefetchInbox needs a client with an absolute baseUrl on a server .*; got "\/api\/inbox"\.$/,
    )
  })

  it('renders the provider and hooks without window, document or storage', async () => {
    expect(typeof window).toBe('undefined')
    expect(typeof document).toBe('undefined')
    const h = setup({ fixture: feedFixture(2) })
    const queryClient = newQueryClient()
    await prefetchInbox(queryClient, h.client, 'user-1', { preferences: ['nonCritical'] })
    const html = renderToString(
      <InboxProvider subscriberId="user-1" client={h.client} queryClient={queryClient}>
        <Everything />
      </InboxProvider>,
    )
    expect(html).toContain('Message 0,Message 1|2|prefs|false')
    const state = dehydrate(queryClient)
    expect(state.queries.map((q) => q.queryKey[2])).toEqual(['feed', 'count', 'count', 'preferences'])
    // Rendering asked for nothing: the four requests are the prefetch.
    expect(h.requests).toHaveLength(4)
  })

  it('renders without data (loading) and without a provider-made client request', () => {
    const h = setup({ fixture: feedFixture(2) })
    const html = renderToString(
      <InboxProvider subscriberId="user-1" baseUrl="http://inbox.test" apiKey="k" fetch={h.client.options.fetch!}>
        <Everything />
      </InboxProvider>,
    )
    expect(html).toContain('<p>|0|no prefs|false</p>')
    expect(h.requests).toHaveLength(0)
  })
})
