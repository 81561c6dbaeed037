// @vitest-environment jsdom
import { dehydrate, useSuspenseQuery } from '@tanstack/react-query'
import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/react'
import { Suspense, useState, type ReactElement } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { Bell } from '../../src/components/Bell/Bell'
import { Inbox } from '../../src/components/Inbox/Inbox'
import { afterEach, describe, expect, it } from 'vitest'
import { countQueryOptions, prefetchInbox } from '../../src/server'
import { useCounts } from '../../src/hooks/useCounts'
import { useFeed } from '../../src/hooks/useFeed'
import { useInboxContext } from '../../src/provider/context'
import { useMarkAs } from '../../src/hooks/useMarkAs'
import { InboxProvider } from '../../src/provider/InboxProvider'
import { buildFixture, messages, subscriber } from '../support/fixtures'
import { feedFixture, newQueryClient, settled, setup, sleep } from './harness'

afterEach(cleanup)

function Probe() {
  const feed = useFeed()
  const counts = useCounts()
  return (
    <div>
      <p data-testid="first">{feed.items[0]?.content ?? 'none'}</p>
      <p data-testid="count">{counts.isLoading ? 'loading' : `${counts.unread}/${counts.unseen}`}</p>
    </div>
  )
}

describe('InboxProvider', () => {
  it('a hook or component outside the provider throws naming itself', () => {
    expect(() => renderHook(() => useInboxContext())).toThrow('`useInboxContext` must be used within `<InboxProvider>`')
    expect(() => renderHook(() => useFeed())).toThrow('`useFeed` must be used within `<InboxProvider>`')
    expect(() => render(<Bell />)).toThrow('`Bell` must be used within `<InboxProvider>`')
    // An <Inbox> whose subscriberId came out undefined (no one signed in, say) says so.
    expect(() => render(<Inbox subscriberId={undefined} />)).toThrow(
      '`Inbox` must be used within `<InboxProvider>` or given a `subscriberId` (it has none)',
    )
  })

  it('creates its own QueryClient and client from baseUrl, apiKey and fetch, and sends getHeaders per request', async () => {
    const h = setup({ fixture: feedFixture(2) })
    const seen: string[] = []
    let token = 'one'
    const fetcher = ((input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(new Headers(init?.headers).get('x-token') ?? '')
      return h.client.options.fetch!(input, init)
    }) as typeof fetch
    const { result } = renderHook(() => ({ ctx: useInboxContext(), counts: useCounts() }), {
      wrapper: ({ children }) => (
        <InboxProvider
          subscriberId="user-1"
          baseUrl="http://inbox.test"
          apiKey={h.service.apiKey}
          fetch={fetcher}
          getHeaders={() => ({ 'x-token': token })}
        >
          {children}
        </InboxProvider>
      ),
    })
    await waitFor(() => expect(result.current.counts.unread).toBe(2))
    expect(result.current.ctx.queryClient).not.toBe(h.queryClient)
    token = 'two'
    await act(() => result.current.ctx.queryClient.refetchQueries())
    expect(seen.slice(0, 2)).toEqual(['one', 'one'])
    expect(seen.at(-1)).toBe('two')
  })

  it('waits while enabled is false', async () => {
    const h = setup({ fixture: feedFixture(2) })
    function Gate() {
      const [enabled, setEnabled] = useState(false)
      return (
        <InboxProvider subscriberId="user-1" client={h.client} queryClient={h.queryClient} enabled={enabled}>
          <button onClick={() => setEnabled(true)}>go</button>
          <Probe />
        </InboxProvider>
      )
    }
    render(<Gate />)
    await act(() => sleep(50))
    expect(h.requests).toHaveLength(0)
    act(() => screen.getByText('go').click())
    await waitFor(() => expect(screen.getByTestId('count').textContent).toBe('2/2'))
  })

  it("appBadge: the installed app's icon shows the unread count from the mount, a bell of unseen only and no polling too, and follows each mark at once", async () => {
    const badge: (number | 'cleared')[] = []
    Object.assign(navigator, {
      setAppBadge: (n: number) => (badge.push(n), Promise.resolve()),
      clearAppBadge: () => (badge.push('cleared'), Promise.resolve()),
    })
    try {
      const h = setup({ fixture: feedFixture(3), provider: { appBadge: true, pollInterval: 0 } })
      const { result } = renderHook(
        () => ({ feed: useFeed(), bell: useCounts({ unread: false }), mark: useMarkAs() }),
        {
          wrapper: h.wrapper,
        },
      )
      await waitFor(() => expect(badge.at(-1)).toBe(3))
      await waitFor(() => expect(result.current.feed.items).toHaveLength(3))
      await act(() => result.current.mark.markAs({ ids: result.current.feed.items[0]!._id, markAs: 'read' }))
      expect(badge.at(-1)).toBe(2)
      const ids = result.current.feed.items.map((i) => i._id)
      await act(() => result.current.mark.markAs({ ids, markAs: 'read' }))
      expect(badge.at(-1)).toBe('cleared')
      // Each number once, not once per event of the cache.
      expect(badge).toEqual([3, 2, 'cleared'])
    } finally {
      delete (navigator as { setAppBadge?: unknown }).setAppBadge
      delete (navigator as { clearAppBadge?: unknown }).clearAppBadge
    }
  })

  it('a subscriber switch starts from a clean cache and asks nothing more for the old subscriber', async () => {
    const fixture = buildFixture({
      subscribers: [subscriber('user-2')],
      messages: [...messages('user-1', 3), ...messages('user-2', 5, (i) => ({ content: `Other ${i}` }))],
    })
    const h = setup({ fixture })
    let switchTo!: (id: string) => void
    let mark!: ReturnType<typeof useMarkAs>['markAs']
    function Marker() {
      mark = useMarkAs().markAs
      return null
    }
    function App() {
      const [id, setId] = useState('user-1')
      switchTo = setId
      return (
        <InboxProvider subscriberId={id} client={h.client} queryClient={h.queryClient} pollInterval={30}>
          <Probe />
          <Marker />
        </InboxProvider>
      )
    }
    render(<App />)
    await waitFor(() => expect(screen.getByTestId('count').textContent).toBe('3/3'))
    const firstId = h.queryClient.getQueryData<{ pages: { data: { _id: string }[] }[] }>([
      'inbox',
      'user-1',
      'feed',
      { limit: 20 },
    ])!.pages[0]!.data[0]!._id
    // A slow mark-as for user-1 is still out when the switch happens.
    h.service.faults.add({ path: /mark-as$/, latency: 80 })
    let pending!: Promise<void>
    act(() => {
      pending = mark({ ids: firstId, markAs: 'read' })
    })
    await act(() => sleep(5))
    act(() => switchTo('user-2'))
    const switchedAt = h.requests.length
    await waitFor(() => expect(screen.getByTestId('count').textContent).toBe('5/5'))
    expect(screen.getByTestId('first').textContent).toBe('Other 0')
    await act(() => pending)
    await act(() => sleep(120))
    await settled(h.queryClient)
    const after = h.requests.slice(switchedAt)
    expect(after.length).toBeGreaterThan(0)
    expect(after.filter((r) => r.path.includes('/user-1/'))).toEqual([])
    expect(h.queryClient.getQueryCache().findAll({ queryKey: ['inbox', 'user-1'] })).toEqual([])
  })
})

describe('Suspense', () => {
  it("renders a child's useSuspenseQuery of the exported options under a boundary above the provider, for one request", async () => {
    const h = setup({ fixture: feedFixture(4) })
    function Badge() {
      const inbox = useInboxContext()
      const { data } = useSuspenseQuery(countQueryOptions(inbox, 'unread'), inbox.queryClient)
      return <p data-testid="badge">{data.count}</p>
    }
    // The provider is rendered anew with its layout each time the boundary tries again.
    function Layout() {
      return (
        <InboxProvider
          subscriberId="user-1"
          baseUrl={h.started.baseUrl}
          apiKey={h.service.apiKey}
          fetch={h.client.options.fetch}
          stream={false}
        >
          <Badge />
        </InboxProvider>
      )
    }
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Layout />
      </Suspense>,
    )
    await waitFor(() => expect(screen.getByTestId('badge').textContent).toBe('4'))
    await act(() => sleep(100))
    expect(h.feedRequests({ read: 'false' })).toHaveLength(1)
  })
})

describe('stream', () => {
  // The live loop leads 50–100 ms after it starts, then asks for the stream at once: 500 ms covers it.
  it.each([
    [undefined, 0],
    [true, 1],
  ])('with a ready client made with an API key and stream=%s, asks the API for /events %d times', async (stream, n) => {
    const h = setup({ fixture: feedFixture(2) })
    render(
      <InboxProvider subscriberId="user-1" client={h.client} stream={stream}>
        <Probe />
      </InboxProvider>,
    )
    await waitFor(() => expect(screen.getByTestId('count').textContent).toBe('2/2'))
    await act(() => sleep(500))
    expect(h.count('/events')).toBe(n)
  })
})

function OtherCount() {
  const counts = useCounts()
  return counts.isLoading ? 'loading' : String(counts.unread)
}

/** The server's `html` in the page, hydrated with `ui` as a browser would: what React could not hydrate is kept. */
async function hydrate(html: string, ui: ReactElement) {
  const container = document.createElement('div')
  container.innerHTML = html
  document.body.appendChild(container)
  const recoverable: unknown[] = []
  const root = await act(async () => hydrateRoot(container, ui, { onRecoverableError: (e) => recoverable.push(e) }))
  return { container, root, recoverable }
}

describe('server rendering and hydration', () => {
  it('renders on the server with prefetched data and hydrates without asking again', async () => {
    const h = setup({ fixture: feedFixture(4, (i) => ({ read: i >= 1, seen: i >= 2 })) })
    const serverClient = newQueryClient()
    await prefetchInbox(serverClient, h.client, 'user-1')
    const html = renderToString(
      <InboxProvider subscriberId="user-1" client={h.client} queryClient={serverClient}>
        <Probe />
      </InboxProvider>,
    )
    expect(html).toContain('Message 0')
    expect(html).toContain('1/2')
    const serverRequests = h.requests.length
    expect(serverRequests).toBe(3)
    // What a server would embed in the page.
    const state = JSON.parse(JSON.stringify(dehydrate(serverClient)))

    const { container, root, recoverable } = await hydrate(
      html,
      <InboxProvider subscriberId="user-1" client={h.client} initialState={state}>
        <Probe />
      </InboxProvider>,
    )
    // Past the live loop's election (it ends 50–100 ms after it starts): no data is asked for again, and no
    // event stream of the API, which has none (the client talks to it with an API key).
    await act(() => sleep(500))
    expect(recoverable).toEqual([])
    expect(container.querySelector('[data-testid="first"]')?.textContent).toBe('Message 0')
    expect(container.querySelector('[data-testid="count"]')?.textContent).toBe('1/2')
    expect(h.requests.slice(serverRequests)).toEqual([])
    act(() => root.unmount())
    container.remove()
  })

  it('hydrates a second provider of the same inbox given no server data as the server drew it: loading, then its own data', async () => {
    const h = setup({ fixture: feedFixture(4, (i) => ({ read: i >= 1, seen: i >= 2 })) })
    const serverClient = newQueryClient()
    await prefetchInbox(serverClient, h.client, 'user-1')
    // On a server, each provider has a QueryClient of its own: only the header's was given the prefetched data.
    const app = (header: object, other: object) => (
      <>
        <InboxProvider subscriberId="user-1" client={h.client} {...header}>
          <Probe />
        </InboxProvider>
        <InboxProvider subscriberId="user-1" client={h.client} {...other}>
          <p data-testid="other">
            <OtherCount />
          </p>
        </InboxProvider>
      </>
    )
    const html = renderToString(app({ queryClient: serverClient }, { queryClient: newQueryClient() }))
    expect(html).toContain('1/2')
    expect(html).toContain('<p data-testid="other">loading</p>')
    const state = JSON.parse(JSON.stringify(dehydrate(serverClient)))

    const { container, root, recoverable } = await hydrate(html, app({ initialState: state }, {}))
    expect(recoverable).toEqual([])
    await waitFor(() => expect(container.querySelector('[data-testid="other"]')?.textContent).toBe('1'))
    expect(container.querySelector('[data-testid="count"]')?.textContent).toBe('1/2')
    act(() => root.unmount())
    container.remove()
  })
})
