// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { ReactElement } from 'react'
import { describe, expect, it, vi } from 'vitest'
import type { FeedPage } from '../../src/api/types'
import { Feed } from '../../src/components/Feed/Feed'
import { buildFixture, inApp, messages, TEST_SUBSCRIBER_ID, workflow } from '../support/fixtures'
import { inboxKeys } from '../../src/core/queries'
import { expectAccessible, renderWithInbox, serviceFeed, setupService } from './setup'

const HOUR = 3_600_000
const ago = (ms: number) => new Date(Date.now() - ms).toISOString()

function fixture(count: number, extra: (i: number) => Record<string, unknown> = () => ({})) {
  return buildFixture({
    workflows: [workflow('test-workflow', [inApp('Hello {{subscriber.firstName}}')])],
    messages: messages(TEST_SUBSCRIBER_ID, count, (i) => ({
      subject: `Subject ${i}`,
      createdAt: ago(i * 60_000),
      ...extra(i),
    })),
  })
}

const articles = () => screen.queryAllByRole('article')

/** A service of `n` items and a cache holding all of them, loaded 100 a page one page at a time as scrolling would. */
async function loadedSetup(n = 10_000) {
  const setup = setupService(buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, n) }))
  const pages = []
  for (let page = 0; page * 100 < n; page++)
    pages.push(await setup.client.getFeed(TEST_SUBSCRIBER_ID, { limit: 100, page }))
  setup.queryClient.setQueryData(inboxKeys.feed(TEST_SUBSCRIBER_ID, { limit: 100 }), {
    pages,
    pageParams: pages.map((_, i) => i),
  })
  return setup
}

const WALKS = [
  'indexOf',
  'lastIndexOf',
  'includes',
  'find',
  'findIndex',
  'some',
  'every',
  'filter',
  'map',
  'forEach',
] as const

/**
 * Runs `run` (a render, synchronous) and counts the elements of arrays of 1,000 or more that array methods walk
 * through meanwhile (a whole array a call): what a render does over all the loaded items rather than the rows drawn.
 */
function walked(run: () => void): number {
  let count = 0
  const originals = WALKS.map((name) => [name, Array.prototype[name]] as const)
  for (const [name, original] of originals)
    Object.defineProperty(Array.prototype, name, {
      configurable: true,
      writable: true,
      value: function (this: unknown[], ...args: unknown[]) {
        if (this.length >= 1_000) count += this.length
        return (original as (...a: unknown[]) => unknown).apply(this, args)
      },
    })
  try {
    run()
  } finally {
    for (const [name, original] of originals)
      Object.defineProperty(Array.prototype, name, { configurable: true, writable: true, value: original })
  }
  return count
}
const titles = () => articles().map((a) => a.querySelector('h3')?.textContent)

describe('Feed', () => {
  it('shows a loading skeleton, then the items', async () => {
    const { container } = renderWithInbox(<Feed />, { fixture: fixture(3), service: { latency: 60 } })
    const status = screen.getByRole('status', { busy: true })
    expect(status.textContent).toContain('Loading notifications')
    await expectAccessible(container)
    await waitFor(() => expect(titles()).toEqual(['Subject 0', 'Subject 1', 'Subject 2']))
    expect(screen.getByRole('feed', { name: 'Notifications' })).toBeTruthy()
    await expectAccessible(container)
  })

  it('shows the empty state, or what renderEmpty gives', async () => {
    const { container, unmount } = renderWithInbox(<Feed />, { fixture: fixture(0) })
    expect(await screen.findByText('You’re all caught up')).toBeTruthy()
    await expectAccessible(container)
    unmount()
    renderWithInbox(<Feed renderEmpty={() => <p>Nothing here</p>} />, { fixture: fixture(0) })
    expect(await screen.findByText('Nothing here')).toBeTruthy()
  })

  it('shows an error with a retry that recovers', async () => {
    const { service, user, container } = renderWithInbox(<Feed />, {
      fixture: fixture(2),
      faults: [{ path: /notifications\/feed$/, status: 500 }],
    })
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Notifications couldn’t be loaded')
    await expectAccessible(container)
    // Still failing: focus goes from the Try again that went to the one that came.
    await user.click(within(alert).getByRole('button', { name: 'Try again' }))
    await waitFor(() => {
      const again = screen.getByRole('button', { name: 'Try again' })
      expect(document.activeElement).toBe(again)
    })
    service.faults.clear()
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    await waitFor(() => expect(titles()).toEqual(['Subject 0', 'Subject 1']))
    // Recovered: focus on the first item the list brought, not on the list's frame.
    await waitFor(() => expect(document.activeElement).toBe(screen.getAllByRole('article')[0]))
  })

  it('loads a list that failed during an outage once the live loop finds the service back, with no Try again', async () => {
    const { service } = renderWithInbox(<Feed />, {
      fixture: fixture(2),
      // Down from the first request on: the list's first load fails, and so does the live loop's first look.
      faults: [{ status: 503 }],
      provider: { pollInterval: 100 },
    })
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Notifications couldn’t be loaded')
    // Past the live loop's first look (100 ms after it starts), which fails too.
    await act(() => new Promise((resolve) => setTimeout(resolve, 500)))
    service.faults.clear()
    // The next look (after its backoff, 1–2 s) answers: the list is asked for again.
    await waitFor(() => expect(titles()).toEqual(['Subject 0', 'Subject 1']), { timeout: 5000 })
  })

  it('threads items by a payload value that is an object: equal values form one thread, others apart', async () => {
    const prs = [
      { repo: 'kit', n: 1 },
      { repo: 'kit', n: 2 },
      { repo: 'kit', n: 1 },
    ]
    renderWithInbox(<Feed groupBy="pr" />, { fixture: fixture(3, (i) => ({ payload: { pr: prs[i] } })) })
    await waitFor(() => expect(titles()).toEqual(['Subject 0', 'Subject 1']))
    expect(screen.getAllByRole('button', { expanded: false }).map((b) => b.textContent)).toEqual(['Show 1 more'])
  })

  it('groups items by day: Today, Yesterday, then dates', async () => {
    const now = new Date()
    const noonToday = new Date(now.getFullYear(), now.getMonth(), now.getDate(), 0, 30).getTime()
    const times = [Math.min(Date.now(), noonToday), noonToday - 24 * HOUR, noonToday - 3 * 24 * HOUR]
    const f = buildFixture({
      messages: times.map((t, i) => ({
        subscriberId: TEST_SUBSCRIBER_ID,
        workflow: 'test-workflow',
        createdAt: new Date(t).toISOString(),
        content: `M${i}`,
      })),
    })
    const { container } = renderWithInbox(<Feed />, { fixture: f })
    await waitFor(() => expect(articles()).toHaveLength(3))
    const days = Array.from(container.querySelectorAll('.inbox-feed__day')).map((d) => d.textContent)
    expect(days[0]).toBe('Today')
    expect(days[1]).toBe('Yesterday')
    expect(days[2]).toBe(
      new Date(times[2]!).toLocaleDateString('en', {
        weekday: 'long',
        month: 'long',
        day: 'numeric',
        ...(new Date(times[2]!).getFullYear() !== now.getFullYear() ? { year: 'numeric', weekday: undefined } : {}),
      }),
    )
  })

  it('puts an item whose date is missing or not a date under the day before it, with no empty header', async () => {
    // The service's own page, with the dates of two items spoilt on the way.
    const setup = setupService(fixture(3))
    const page = await serviceFeed(setup.client)
    page.data[1]!.createdAt = null as never
    page.data[2]!.createdAt = 'not a date'
    setup.service.faults.add({ path: /notifications\/feed$/, body: page })
    const { container } = renderWithInbox(<Feed />, { setup })
    await waitFor(() => expect(articles()).toHaveLength(3))
    expect(Array.from(container.querySelectorAll('.inbox-feed__day')).map((d) => d.textContent)).toEqual(['Today'])
  })

  it('shows items a misbehaving service sent out of date order each once, a day coming back under a header of its own', async () => {
    const setup = setupService(fixture(6))
    // The service's own answer, its dates rewritten out of order (and two unreadable).
    const dates = [
      '2026-01-05T10:00:00Z',
      '2025-12-01T10:00:00Z',
      '2026-01-05T09:00:00Z',
      'x',
      '2025-12-01T09:00:00Z',
      '',
    ]
    const fetch = setup.service.fetch.bind(setup.service)
    setup.service.fetch = async (request: Request) => {
      const response = await fetch(request)
      if (!new URL(request.url).pathname.endsWith('/feed')) return response
      const body = (await response.json()) as { data: { createdAt: string }[] }
      body.data.forEach((item, i) => (item.createdAt = dates[i % dates.length]!))
      return Response.json(body)
    }
    const error = vi.spyOn(console, 'error')
    const { container } = renderWithInbox(<Feed />, { setup })
    await waitFor(() => expect(articles()).toHaveLength(6))
    expect(titles()).toEqual(['Subject 0', 'Subject 1', 'Subject 2', 'Subject 3', 'Subject 4', 'Subject 5'])
    const days = Array.from(container.querySelectorAll('.inbox-feed__day'), (d) => d.textContent)
    // The unreadable dates stay under the day before them.
    expect(days).toHaveLength(4)
    expect(days.filter((d) => d === 'Monday, January 5')).toHaveLength(2)
    expect(error.mock.calls.filter(([message]) => /same key/.test(String(message)))).toEqual([])
  })

  /** The Feed over the service's own feed answers, rewritten on the way by `rewrite` (the body's text). */
  function renderRewritten(ui: ReactElement, rewrite: (body: FeedPage) => string) {
    const setup = setupService(fixture(3))
    const fetch = setup.service.fetch.bind(setup.service)
    setup.service.fetch = async (request: Request) => {
      const response = await fetch(request)
      if (!new URL(request.url).pathname.endsWith('/feed')) return response
      return new Response(rewrite((await response.json()) as FeedPage), {
        headers: { 'content-type': 'application/json' },
      })
    }
    return renderWithInbox(ui, { setup })
  }

  it('threads by a payload value nested too deep to write out (a hostile service) without throwing', async () => {
    // Written out by hand: nothing here could write it.
    renderRewritten(<Feed groupBy="pr" />, (body) => {
      body.data[0]!.payload = { pr: '@' }
      return JSON.stringify(body).replace('"@"', '['.repeat(20_000) + '"end"' + ']'.repeat(20_000))
    })
    await waitFor(() => expect(titles()).toEqual(['Subject 0', 'Subject 1', 'Subject 2']))
  })

  it('tells the set size from a count that is no whole number, or fewer than are listed, as at least what is listed', async () => {
    renderRewritten(<Feed />, (body) => JSON.stringify({ ...body, hasMore: true, totalCount: 2.5 }))
    await waitFor(() => expect(titles()).toEqual(['Subject 0', 'Subject 1', 'Subject 2']))
    expect(articles().map((a) => a.getAttribute('aria-setsize'))).toEqual(['3', '3', '3'])
  })

  it('moves focus with ArrowDown, ArrowUp, Home and End; one item is in the tab order', async () => {
    const { user } = renderWithInbox(<Feed />, { fixture: fixture(5) })
    await waitFor(() => expect(articles()).toHaveLength(5))
    expect(articles().filter((a) => a.tabIndex === 0)).toHaveLength(1)
    await user.tab()
    expect(document.activeElement).toBe(articles()[0])
    await user.keyboard('{ArrowDown}')
    expect(document.activeElement).toBe(articles()[1])
    await user.keyboard('{End}')
    expect(document.activeElement).toBe(articles()[4])
    expect(articles()[4]!.getAttribute('aria-posinset')).toBe('5')
    expect(articles()[4]!.getAttribute('aria-setsize')).toBe('5')
    await user.keyboard('{ArrowUp}')
    expect(document.activeElement).toBe(articles()[3])
    await user.keyboard('{Home}')
    expect(document.activeElement).toBe(articles()[0])
    expect(articles().filter((a) => a.tabIndex === 0)).toEqual([articles()[0]])
  })

  it('toggles read with the r key, before the service answers', async () => {
    const { user, service, client } = renderWithInbox(<Feed />, { fixture: fixture(2) })
    await waitFor(() => expect(articles()).toHaveLength(2))
    await user.tab()
    const first = articles()[0]!
    expect(first.hasAttribute('data-unread')).toBe(true)
    service.faults.add({ path: /mark-as$/, latency: 1000, times: 1 })
    await user.keyboard('r')
    await waitFor(() => expect(first.hasAttribute('data-unread')).toBe(false))
    expect((await serviceFeed(client, { read: false })).data).toHaveLength(2)
    await waitFor(async () => expect((await serviceFeed(client, { read: false })).data).toHaveLength(1))
    await user.keyboard('r')
    await waitFor(async () => expect((await serviceFeed(client, { read: false })).data).toHaveLength(2))
    expect(first.hasAttribute('data-unread')).toBe(true)
  })

  it('opens the focused item with Enter: its link through onNavigate, or marks it read', async () => {
    const onNavigate = vi.fn((_url: string, _item: unknown, event: { preventDefault(): void }) =>
      event.preventDefault(),
    )
    const { user, client } = renderWithInbox(<Feed onNavigate={onNavigate} />, {
      fixture: fixture(2, (i) => (i === 0 ? { cta: { type: 'redirect', data: { url: '/orders/7' } } } : {})),
    })
    await waitFor(() => expect(articles()).toHaveLength(2))
    await user.tab()
    await user.keyboard('{Enter}')
    expect(onNavigate).toHaveBeenCalledTimes(1)
    expect(onNavigate.mock.calls[0]![0]).toBe('/orders/7')
    await user.keyboard('{ArrowDown}{Enter}')
    await waitFor(async () => expect((await serviceFeed(client, { read: false })).data).toHaveLength(0))
    expect(onNavigate).toHaveBeenCalledTimes(1)
  })

  it('runs onItemClick before anything else, its link too: preventDefault() keeps the item unread and the link not followed', async () => {
    const onNavigate = vi.fn((_url: string, _item: unknown, event: { preventDefault(): void }) =>
      event.preventDefault(),
    )
    let keep = true
    const onItemClick = vi.fn((_item: unknown, event: { preventDefault(): void }) => {
      expect(onNavigate).not.toHaveBeenCalled()
      if (keep) event.preventDefault()
    })
    const { client } = renderWithInbox(<Feed onItemClick={onItemClick} onNavigate={onNavigate} />, {
      fixture: fixture(2, (i) => (i === 0 ? { cta: { type: 'redirect', data: { url: '/orders/7' } } } : {})),
    })
    await waitFor(() => expect(articles()).toHaveLength(2))
    const link = screen.getByRole('link', { name: 'Subject 0' })
    fireEvent.click(link)
    fireEvent.click(screen.getByText('Subject 1'))
    expect(onItemClick.mock.calls.map(([item]) => (item as { subject: string }).subject)).toEqual([
      'Subject 0',
      'Subject 1',
    ])
    expect(onNavigate).not.toHaveBeenCalled()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect((await serviceFeed(client, { read: false })).data).toHaveLength(2)
    expect(articles().filter((a) => a.hasAttribute('data-unread'))).toHaveLength(2)
    // Not prevented: the link is followed and the item read.
    keep = false
    fireEvent.click(link)
    expect(onNavigate).toHaveBeenCalledTimes(1)
    await waitFor(async () => expect((await serviceFeed(client, { read: false })).data).toHaveLength(1))
  })

  it('loads the next page when the reader nears the end', async () => {
    const { user, client } = renderWithInbox(<Feed limit={10} initialRect={{ width: 400, height: 300 }} />, {
      fixture: fixture(25),
    })
    await waitFor(() => expect(articles().length).toBeGreaterThan(0))
    expect(articles()[0]!.getAttribute('aria-setsize')).toBe('25')
    await user.tab()
    expect(screen.getAllByRole('article').length).toBeLessThan(10)
    await user.keyboard('{End}')
    // Reaching the end of page 0 brings page 1; End again reaches its last item, and brings page 2.
    await waitFor(async () => {
      await user.keyboard('{End}')
      expect(document.activeElement?.getAttribute('aria-posinset')).toBe('25')
    })
    expect(document.activeElement?.querySelector('h3')?.textContent).toBe('Subject 24')
    expect((await serviceFeed(client)).data).toHaveLength(25)
  })

  it('holds new items back behind an "N new notifications" button while the reader is scrolled down', async () => {
    const { client, service, queryClient, user, container } = renderWithInbox(
      <Feed initialRect={{ width: 400, height: 300 }} />,
      { fixture: fixture(12) },
    )
    await waitFor(() => expect(articles().length).toBeGreaterThan(0))
    const scroller = container.querySelector('.inbox-feed__scroller') as HTMLElement
    scroller.scrollTop = 400
    fireEvent.scroll(scroller)
    await client.trigger({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID })
    await service.settle()
    await act(() => queryClient.invalidateQueries())
    const button = await screen.findByRole('button', { name: '1 new notification' })
    expect(screen.queryByText('Hello Ada')).toBeNull()
    await user.click(button)
    await waitFor(() => expect(articles()[0]!.querySelector('h3')?.textContent).toBe('Hello Ada'))
    expect(scroller.scrollTop).toBe(0)
    expect(screen.queryByRole('button', { name: /new notification/ })).toBeNull()
  })

  it('renders only the rows in view with 10,000 items loaded', async () => {
    const setup = await loadedSetup()
    const { user } = renderWithInbox(<Feed limit={100} initialRect={{ width: 400, height: 500 }} />, { setup })
    await waitFor(() => expect(articles().length).toBeGreaterThan(0))
    const bound = Math.ceil(500 / 88) + 2 * 4 + 2
    expect(articles().length).toBeLessThanOrEqual(bound)
    expect(articles()[0]!.getAttribute('aria-setsize')).toBe('10000')
    await user.tab()
    await user.keyboard('{End}')
    expect(document.activeElement?.getAttribute('aria-posinset')).toBe('10000')
    expect(document.activeElement?.querySelector('h3')?.textContent).toBe('Message 9999')
    expect(articles().length).toBeLessThanOrEqual(bound)
    await user.keyboard('{PageUp}{ArrowUp}')
    expect(Number(document.activeElement?.getAttribute('aria-posinset'))).toBeLessThan(9999)
    expect(articles().length).toBeLessThanOrEqual(bound)
    await user.keyboard('{Home}')
    expect(document.activeElement?.getAttribute('aria-posinset')).toBe('1')
    expect(articles().length).toBeLessThanOrEqual(bound)
  })

  it('draws a scroll step or a focus move with 10,000 items loaded without walking through them', async () => {
    const { container } = renderWithInbox(<Feed limit={100} initialRect={{ width: 400, height: 500 }} />, {
      setup: await loadedSetup(),
    })
    await waitFor(() => expect(articles().length).toBeGreaterThan(0))
    const scroller = container.querySelector('.inbox-feed__scroller') as HTMLElement
    // Row 5,000 or so at the top: each row's place in the list was a search through the items before it.
    Object.defineProperty(scroller, 'scrollTop', { value: 5_000 * 88, writable: true })
    expect(walked(() => fireEvent.scroll(scroller))).toBe(0)
    const shown = articles().map((a) => [a.getAttribute('aria-posinset'), a.querySelector('h3')?.textContent])
    expect(shown.length).toBeGreaterThan(5)
    for (const [posinset, title] of shown) expect(title).toBe(`Message ${Number(posinset) - 1}`)
    // (The first item, in the tab order, stays rendered above them.)
    expect(Number(shown[1]![0])).toBeGreaterThan(4_000)
    // Focus on a row, and the arrow key to the next: the row's place and the next row's, looked up.
    const article = articles()[2]!
    const place = Number(article.getAttribute('aria-posinset'))
    expect(walked(() => fireEvent.focus(article))).toBe(0)
    expect(article.tabIndex).toBe(0)
    expect(walked(() => fireEvent.keyDown(article, { key: 'ArrowDown' }))).toBe(0)
    const next = articles().find((a) => a.tabIndex === 0)
    expect(next?.getAttribute('aria-posinset')).toBe(String(place + 1))
  })
})
