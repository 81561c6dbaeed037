// @vitest-environment jsdom
import type { QueryClient } from '@tanstack/react-query'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { Inbox } from '../../src/components/Inbox/Inbox'
import { InboxContent, InboxHeader, InboxRoot, InboxTrigger } from '../../src/components/Inbox/parts'
import { InboxInline } from '../../src/components/layouts/InboxInline'
import { Feed } from '../../src/components/Feed/Feed'
import { InboxPage } from '../../src/components/layouts/InboxPage'
import { TopicSubscriptions } from '../../src/components/TopicSubscriptions/TopicSubscriptions'
import { Markdown } from '../../src/markdown'
import { setupService } from '../components/setup-service'
import { expectAccessible, renderWithInbox, serviceFeed } from '../components/setup'
import { INJECTIONS, isNonHttpUrl, XSS_FLAG } from '../security/corpus'
import { ACTION_MESSAGES, buildFixture, messages, TEST_SUBSCRIBER_ID, topic } from '../support/fixtures'

const fixture = () =>
  buildFixture({
    messages: messages(TEST_SUBSCRIBER_ID, 4, (i) => ({ subject: `Subject ${i}`, read: i >= 2, seen: i >= 2 })),
    topics: Array.from({ length: 3 }, (_, i) => topic(`topic-${i}`, [TEST_SUBSCRIBER_ID], { name: `Topic ${i}` })),
  })

describe('Markdown', () => {
  it('renders the subset as elements: bold, italic, code, safe links, lists and line breaks', () => {
    const { container } = render(
      <Markdown
        text={
          '**Build** _failed_ on `main`\nsee below\n\n- [log](https://ci.example/1)\n- [bad](javascript:alert`1`)\n\n2. two\n3. three'
        }
      />,
    )
    expect(container.innerHTML).toBe(
      '<p><strong>Build</strong> <em>failed</em> on <code>main</code><br>see below</p>' +
        '<ul><li><a href="https://ci.example/1" rel="noopener noreferrer nofollow">log</a></li><li><span>bad</span></li></ul>' +
        '<ol start="2"><li>two</li><li>three</li></ol>',
    )
  })

  it('keeps code spans whole inside bold and italic, and links URLs with balanced parentheses', () => {
    const html = (text: string) => render(<Markdown text={text} />).container.innerHTML
    expect(html('**a `co**de`**')).toBe('<p><strong>a <code>co**de</code></strong></p>')
    expect(html('*a `b*c`* and _x `y_z`_')).toBe('<p><em>a <code>b*c</code></em> and <em>x <code>y_z</code></em></p>')
    // A backtick that opens no code span is a character.
    expect(html('**a `b**')).toBe('<p><strong>a `b</strong></p>')
    expect(html('[wiki](https://en.wikipedia.org/wiki/Foo_(bar))')).toBe(
      '<p><a href="https://en.wikipedia.org/wiki/Foo_(bar)" rel="noopener noreferrer nofollow">wiki</a></p>',
    )
    expect(html('[a](b (c) d)')).toBe('<p>[a](b (c) d)</p>')
  })

  it('reads a megabyte of openers that close nothing as its first 2,000 characters, at once', () => {
    // Each `[` and `_` starts a span that looks up to 500 characters ahead: at a megabyte, seconds of work.
    const { container } = render(<Markdown text={'[_'.repeat(500_000)} />)
    expect(container.textContent).toMatch(/^\[[[_]{1,1999}…$/)
  })

  it('turns every string of the injection corpus into inert text and safe links only', () => {
    for (const { value } of INJECTIONS) {
      for (const text of [value, `**${value}**`, `[x](${value})`, `- ${value}`, `[${value}](https://ok.example/)`]) {
        const { container, unmount } = render(<Markdown text={text} />)
        const tags = new Set(Array.from(container.querySelectorAll('*'), (el) => el.tagName.toLowerCase()))
        for (const tag of tags)
          expect(['p', 'br', 'strong', 'em', 'code', 'a', 'span', 'ul', 'ol', 'li'], text).toContain(tag)
        for (const el of container.querySelectorAll('*')) {
          for (const attr of el.getAttributeNames()) expect(['href', 'rel', 'start'], text).toContain(attr)
        }
        for (const a of container.querySelectorAll('a')) expect(isNonHttpUrl(a.getAttribute('href')!), text).toBe(false)
        unmount()
      }
    }
    expect((window as unknown as Record<string, unknown>)[XSS_FLAG]).toBeUndefined()
  })
})

/** The most pages any cached list holds. */
const pagesLoaded = (queryClient: QueryClient) =>
  Math.max(
    0,
    ...queryClient
      .getQueryCache()
      .getAll()
      .map((q) => (q.state.data as { pages?: unknown[] } | undefined)?.pages?.length ?? 0),
  )

describe('parts and layouts in jsdom', () => {
  it('names the part used outside its root', () => {
    expect(() => renderWithInbox(<InboxTrigger />)).toThrow('`InboxTrigger` must be used within `<InboxRoot>`')
    expect(() => renderWithInbox(<InboxContent />)).toThrow('`InboxContent` must be used within `<InboxRoot>`')
  })

  it('lets an app own the open state of a root made of parts', async () => {
    const { user } = renderWithInbox(
      <InboxRoot defaultOpen>
        <InboxTrigger />
        <InboxContent aria-label="Mine">
          <button type="button">Inside</button>
        </InboxContent>
      </InboxRoot>,
      { fixture: fixture() },
    )
    const dialog = await screen.findByRole('dialog', { name: 'Mine' })
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true))
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /^Notifications/ }))
  })

  it('announces arrivals on the unread count of a trigger, and not an item the reader marks unread', async () => {
    const { user, client, service, queryClient, container } = renderWithInbox(
      <InboxRoot defaultOpen>
        <InboxTrigger countKind="unread" />
        <InboxContent>
          <Feed />
        </InboxContent>
      </InboxRoot>,
      { fixture: fixture() },
    )
    const dialog = await screen.findByRole('dialog')
    const region = container.querySelector('[aria-live]')!
    const toggles = await within(dialog).findAllByRole('button', { name: /^Mark as unread/ })
    await user.click(toggles[0]!)
    await waitFor(() => expect(service.state.messages(TEST_SUBSCRIBER_ID).filter((m) => !m.read)).toHaveLength(3))
    await act(() => queryClient.invalidateQueries())
    await screen.findByRole('button', { name: /3 unread/ })
    expect(region.textContent).toBe('')
    // An arrival is still told.
    await client.trigger({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID })
    await service.settle()
    await act(() => queryClient.invalidateQueries())
    await waitFor(() => expect(region.textContent).toBe('1 new notification'))
  })

  it('says so in the name of a trigger of your own when the counts cannot be read, as the bell does', async () => {
    const { service, queryClient } = renderWithInbox(
      <InboxRoot>
        <InboxTrigger asChild>
          <button type="button">Inbox</button>
        </InboxTrigger>
      </InboxRoot>,
      { fixture: fixture() },
    )
    await waitFor(() => expect(screen.getByRole('button').textContent).toBe('Inbox (2 unseen)'))
    const trigger = screen.getByRole('button')
    expect(trigger.hasAttribute('data-unavailable')).toBe(false)
    service.faults.add({ method: 'GET', path: /feed$/, status: 503 })
    // The next read fails: the count it had is no longer said.
    await act(() => queryClient.invalidateQueries().catch(() => {}))
    await waitFor(() => expect(trigger.textContent).toBe('Inbox (counts unavailable)'), { timeout: 10_000 })
    expect(trigger.hasAttribute('data-unavailable')).toBe(true)
  })

  it('names a popover without a heading "Notifications", as a labelled dialog must be', async () => {
    const { container } = renderWithInbox(
      <InboxRoot defaultOpen>
        <InboxTrigger />
        <InboxContent>
          <InboxHeader title={null} />
          <button type="button">Inside</button>
        </InboxContent>
      </InboxRoot>,
      { fixture: fixture() },
    )
    await screen.findByRole('dialog', { name: 'Notifications' })
    await expectAccessible(container)
  })

  it('shows the topics in the settings view, reached and paged by keyboard, axe clean', async () => {
    const { user, container } = renderWithInbox(
      <Inbox defaultOpen markSeenOnOpen={false} settings={<TopicSubscriptions limit={2} />} />,
      {
        fixture: fixture(),
      },
    )
    const dialog = await screen.findByRole('dialog')
    await user.click(within(dialog).getByRole('button', { name: 'Notification settings' }))
    expect(await within(dialog).findByRole('heading', { level: 2, name: 'Notification settings' })).toBeTruthy()
    const topics = await within(dialog).findByRole('region', { name: 'Topics' })
    expect(within(topics).getByRole('heading', { level: 3, name: 'Topics' })).toBeTruthy()
    await waitFor(() => expect(within(topics).getAllByRole('listitem')).toHaveLength(2))
    const first = within(topics)
      .getAllByRole('listitem')
      .map((li) => li.textContent)
    const next = within(topics).getByRole('button', { name: 'Next' })
    for (let i = 0; i < 60 && document.activeElement !== next; i++) await user.tab()
    expect(document.activeElement).toBe(next)
    await user.keyboard('{Enter}')
    await waitFor(() => expect(within(topics).getAllByRole('listitem')).toHaveLength(1))
    expect(first).not.toContain(within(topics).getByRole('listitem').textContent)
    await expectAccessible(container)
  })

  it('renders the inline inbox as a labelled region with its feed, axe clean', async () => {
    const { container } = renderWithInbox(<InboxInline markSeenOnOpen={false} />, { fixture: fixture() })
    const region = await screen.findByRole('region', { name: 'Notifications' })
    await within(region).findByRole('feed')
    expect(within(region).queryByRole('dialog')).toBeNull()
    await expectAccessible(container)
  })

  it("hands the detail pane's link to onNavigate, as the list's links are, for the app's router", async () => {
    const onNavigate = vi.fn((_url: string, _item: unknown, event: { preventDefault(): void }) =>
      event.preventDefault(),
    )
    const { user } = renderWithInbox(
      <InboxPage markSeenOnOpen={false} onNavigate={onNavigate} feedInitialRect={{ width: 400, height: 600 }} />,
      {
        fixture: buildFixture({
          messages: messages(TEST_SUBSCRIBER_ID, 2, (i) => ({
            subject: `Order ${i}`,
            cta: { type: 'redirect', data: { url: `/orders/${i}` } },
          })),
        }),
      },
    )
    await user.click(await screen.findByText('Order 1'))
    const detail = await screen.findByRole('region', { name: 'Order 1' })
    await user.click(within(detail).getByRole('link', { name: 'Open' }))
    expect(onNavigate).toHaveBeenCalledTimes(1)
    expect(onNavigate.mock.calls[0]![0]).toBe('/orders/1')
    expect(onNavigate.mock.calls[0]![1]).toMatchObject({ subject: 'Order 1' })
  })

  it('shows an item linked to further down the feed than is loaded, loading the pages before it', async () => {
    const fixture = buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 45, (i) => ({ subject: `Order ${i}` })) })
    const setup = setupService(fixture)
    const oldest = (await serviceFeed(setup.client)).data.at(-1)!
    const { container } = renderWithInbox(
      <InboxPage
        selectedId={oldest._id}
        limit={10}
        markSeenOnOpen={false}
        feedInitialRect={{ width: 400, height: 600 }}
      />,
      { setup },
    )
    const detail = await screen.findByRole('region', { name: oldest.subject! }, { timeout: 3000 })
    expect(detail).toBeTruthy()
    expect(container.querySelector('.inbox-page')!.hasAttribute('data-selected')).toBe(true)
    expect(pagesLoaded(setup.queryClient)).toBe(5)
  })

  it('stops after ten more pages for an item it cannot find, and leaves the list in view', async () => {
    const setup = setupService(buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 300) }))
    const { container } = renderWithInbox(
      <InboxPage
        selectedId="no-such-item"
        limit={10}
        markSeenOnOpen={false}
        feedInitialRect={{ width: 400, height: 600 }}
      />,
      { setup },
    )
    // The first page, ten more for the link, and one the list may load itself to fill its height; no more.
    await waitFor(() => expect(pagesLoaded(setup.queryClient)).toBeGreaterThanOrEqual(11), { timeout: 3000 })
    const loaded = pagesLoaded(setup.queryClient)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(pagesLoaded(setup.queryClient)).toBe(loaded)
    expect(loaded).toBeLessThanOrEqual(12)
    expect(container.querySelector('.inbox-page')!.hasAttribute('data-selected')).toBe(false)
  })

  it("shows the selected notification's action buttons in the detail pane, wired as in its row", async () => {
    const onAction = vi.fn()
    const onNavigate = vi.fn()
    const { user, client, container } = renderWithInbox(
      <InboxPage
        markSeenOnOpen={false}
        onAction={onAction}
        onNavigate={onNavigate}
        feedInitialRect={{ width: 400, height: 600 }}
      />,
      {
        fixture: buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 2, (i) => ACTION_MESSAGES[i]!) }),
      },
    )
    const [invite] = (await serviceFeed(client)).data
    await user.click(await screen.findByText('Invite'))
    const detail = await screen.findByRole('region', { name: 'Invite' })
    const accept = within(detail).getByRole('button', { name: 'Accept' })
    const decline = within(detail).getByRole('button', { name: 'Decline' })
    expect(accept.closest('[data-part="detail-actions"]')).toBe(decline.parentElement)
    expect([accept.dataset.variant, decline.dataset.variant]).toEqual(['primary', 'secondary'])

    // By keyboard: from the heading the selection focused, Tab reaches the actions before the page's own buttons.
    expect(document.activeElement).toBe(within(detail).getByRole('heading', { name: 'Invite' }))
    await user.tab()
    expect(document.activeElement).toBe(accept)
    await user.tab()
    expect(document.activeElement).toBe(decline)
    await user.keyboard('{Enter}')
    expect(onAction).toHaveBeenCalledTimes(1)
    expect(onAction).toHaveBeenLastCalledWith(
      { type: 'secondary', content: 'Decline' },
      expect.objectContaining({ _id: invite!._id, subject: 'Invite' }),
      expect.anything(),
    )
    // The press keeps focus and the selection, follows no link, and the item stays read as its selection left it.
    expect(document.activeElement).toBe(decline)
    await user.click(accept)
    expect(onAction).toHaveBeenLastCalledWith(
      { type: 'primary', content: 'Accept' },
      expect.objectContaining({ _id: invite!._id }),
      expect.anything(),
    )
    expect(onNavigate).not.toHaveBeenCalled()
    await waitFor(async () =>
      expect((await serviceFeed(client, { read: true })).data.map((m) => m._id)).toEqual([invite!._id]),
    )
    expect(screen.getByRole('region', { name: 'Invite' })).toBe(detail)
    await expectAccessible(container)

    // An action answered shows what came of it instead of its buttons.
    await user.click(screen.getByText('Answered'))
    const answered = await screen.findByRole('region', { name: 'Answered' })
    expect(within(answered).queryByRole('button', { name: 'Accept' })).toBeNull()
    expect(within(answered).getByText('Accepted').closest('[data-part="detail-done"]')).toBeTruthy()
    expect(onAction).toHaveBeenCalledTimes(2)
  })

  it('offers the actions of a notification whose link is javascript: without ever linking to it', async () => {
    const onAction = vi.fn()
    const onNavigate = vi.fn()
    const { user } = renderWithInbox(
      <InboxPage
        markSeenOnOpen={false}
        onAction={onAction}
        onNavigate={onNavigate}
        feedInitialRect={{ width: 400, height: 600 }}
        unstyled
      />,
      {
        fixture: buildFixture({
          messages: messages(TEST_SUBSCRIBER_ID, 1, {
            subject: 'Approve',
            cta: {
              type: 'redirect',
              data: { url: `javascript:window.${XSS_FLAG}=1` },
              action: { status: 'pending', buttons: [{ type: 'primary', content: 'Approve now' }] },
            },
          }),
        }),
      },
    )
    await user.click(await screen.findByText('Approve'))
    const detail = await screen.findByRole('region', { name: 'Approve' })
    const approve = within(detail).getByRole('button', { name: 'Approve now' })
    // Unstyled, the part keeps its class and data-part.
    expect(approve.closest('.inbox-detail__actions')?.getAttribute('data-part')).toBe('detail-actions')
    await user.click(approve)
    expect(onAction).toHaveBeenCalledTimes(1)
    expect(within(detail).queryByRole('link')).toBeNull()
    expect(detail.querySelector('a[href]')).toBeNull()
    expect(onNavigate).not.toHaveBeenCalled()
    expect(location.href).toBe('http://localhost:3000/')
    expect((window as unknown as Record<string, unknown>)[XSS_FLAG]).toBeUndefined()
  })
})
