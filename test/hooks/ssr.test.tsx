import { dehydrate } from '@tanstack/react-query'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
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

  it('says in the server log what it could not load, once per kind of failure, and renders without it', async () => {
    const h = setup({ fixture: feedFixture(3) })
    // The first two reads fail (the feed's first page, then the unread count, a page of one), the rest answer.
    h.service.faults.add({ path: /notifications\/feed$/, status: 503, times: 2 })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const queryClient = newQueryClient()
      await prefetchInbox(queryClient, h.client, 'user-1')
      await prefetchInbox(newQueryClient(), h.client, 'user-1')
      const said = warn.mock.calls.map(([message]) => String(message))
      expect(said).toHaveLength(2)
      expect(said[0]).toMatch(/^inbox-kit: prefetchInbox could not load \["feed",.* of subscriber "user-1" \(503: /)
      expect(said[1]).toMatch(/could not load \["count","unread"\]/)
      // The unseen count came: the page renders it, and the browser asks for the rest.
      expect(dehydrate(queryClient).queries.map((q) => q.queryKey.slice(2))).toEqual([['count', 'unseen']])
    } finally {
      warn.mockRestore()
    }
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
