// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { FeedItem } from '../../src/api/types'
import { Bell } from '../../src/components/Bell/Bell'
import { Feed } from '../../src/components/Feed/Feed'
import { clockSubscriberCount } from '../../src/components/internal/clock'
import { NotificationItem } from '../../src/components/NotificationItem/NotificationItem'
import type { ItemHelpers } from '../../src/components/NotificationItem/NotificationItem'
import { ACTION_MESSAGES, buildFixture, messages, TEST_SUBSCRIBER_ID } from '../support/fixtures'
import type { FixtureMessage } from '../support/fixtures'
import { expectAccessible, renderWithInbox, serviceFeed, setupService } from './setup'

/** Items as the service returns them for `parts`. */
async function itemsFor(parts: Partial<FixtureMessage>[]) {
  const setup = setupService(
    buildFixture({
      messages: messages(TEST_SUBSCRIBER_ID, parts.length, (i) => ({
        createdAt: new Date(Date.now() - i * 60_000).toISOString(),
        ...parts[i],
      })),
    }),
  )
  const page = await setup.client.getFeed(TEST_SUBSCRIBER_ID, { limit: 100 })
  return { setup, items: page.data }
}

function renderItem(
  item: FeedItem,
  setup: ReturnType<typeof setupService>,
  props: Partial<Parameters<typeof NotificationItem>[0]> = {},
) {
  return renderWithInbox(<NotificationItem item={item} {...props} />, { setup })
}

/** A Bell counting unread beside a Feed of two unread items; `first` is the first item's article. */
async function bellAndFeed() {
  const rendered = renderWithInbox(
    <>
      <Bell countKind="unread" />
      <Feed />
    </>,
    { fixture: buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 2, { subject: 'Hi' }) }) },
  )
  await screen.findByRole('button', { name: 'Notifications, 2 unread' })
  return { ...rendered, first: screen.getAllByRole('article')[0] }
}

describe('NotificationItem', () => {
  it('says "Notification" for one with neither subject nor content, and shows no button that says nothing; axe clean', async () => {
    const { setup, items } = await itemsFor([
      {
        subject: '',
        content: '  ',
        cta: {
          action: {
            status: 'pending',
            buttons: [
              { type: 'primary', content: ' ' },
              { type: 'secondary', content: 'Decline' },
            ],
          },
        },
      },
    ])
    const { container } = renderItem(items[0]!, setup)
    const article = screen.getByRole('article', { name: 'Notification Unread' })
    expect(within(article).getByRole('heading', { level: 3 }).textContent).toBe('Notification')
    expect(
      within(article)
        .getAllByRole('button')
        .map((b) => b.textContent || b.getAttribute('aria-label')),
    ).toEqual(['Decline', 'Mark as read'])
    await expectAccessible(container)
  })

  it('shows subject, content, a relative time and the unread and unseen marks', async () => {
    const { setup, items } = await itemsFor([{ subject: 'Build failed', content: 'main is red' }])
    const { container } = renderItem(items[0]!, setup)
    // Named by its title and, while unread, by saying so.
    const article = screen.getByRole('article', { name: 'Build failed Unread' })
    expect(article.hasAttribute('data-unread')).toBe(true)
    expect(article.hasAttribute('data-unseen')).toBe(true)
    expect(within(article).getByText('main is red')).toBeTruthy()
    expect(within(article).getByText('now').tagName).toBe('TIME')
    expect(within(article).getByText('Unread')).toBeTruthy()
    await expectAccessible(container)
  })

  it("names each mark-as button with its item's title, so that a list of buttons tells them apart", async () => {
    const { setup, items } = await itemsFor([
      { subject: 'Build failed', content: 'main is red' },
      { content: 'Deploy finished', read: true },
    ])
    renderItem(items[0]!, setup)
    renderItem(items[1]!, setup)
    // The tooltip stays the action's own words.
    expect(screen.getByRole('button', { name: 'Mark as read Build failed' }).title).toBe('Mark as read')
    expect(screen.getByRole('button', { name: 'Mark as unread Deploy finished' }).title).toBe('Mark as unread')
  })

  it('shows the avatar of a user, initials when it fails, an icon for system_icon, a decorative placeholder for none', async () => {
    const { setup, items } = await itemsFor([
      { actor: { type: 'user', data: 'https://cdn.example/ada.png' }, payload: { actorName: 'Ada Lane' } },
      { actor: { type: 'system_icon', data: 'warning' } },
      { actor: { type: 'none', data: null } },
    ])
    const { container } = renderWithInbox(
      <>
        {items.map((item) => (
          <NotificationItem key={item._id} item={item} />
        ))}
      </>,
      { setup },
    )
    const [user, icon, none] = screen.getAllByRole('article')
    const img = within(user!).getByRole('img', { name: 'Ada Lane' })
    expect(img.tagName).toBe('IMG')
    fireEvent.error(img)
    const fallback = within(user!).getByRole('img', { name: 'Ada Lane' })
    expect(fallback.tagName).toBe('SPAN')
    expect(fallback.textContent).toBe('AL')
    expect(icon!.querySelector('[data-kind="icon"]')?.getAttribute('data-icon')).toBe('warning')
    // Nothing to say about it, but it keeps the avatar's place so that titles line up.
    expect(none!.querySelector('.inbox-avatar')?.getAttribute('data-kind')).toBe('none')
    expect(none!.querySelector('.inbox-avatar')?.getAttribute('aria-hidden')).toBe('true')
    await expectAccessible(container)
  })

  it('says nothing of an avatar whose actor has no name: no "Sender" before every notification', async () => {
    const { setup, items } = await itemsFor([{ actor: { type: 'user', data: 'https://cdn.example/someone.png' } }])
    const { container } = renderWithInbox(<NotificationItem item={items[0]!} />, { setup })
    const article = screen.getByRole('article')
    const img = article.querySelector('img')!
    expect(img.getAttribute('alt')).toBe('')
    expect(within(article).queryByRole('img')).toBeNull()
    // Its fallback, once the picture fails: a person's glyph, hidden from screen readers as well.
    fireEvent.error(img)
    const fallback = article.querySelector('.inbox-avatar')!
    expect(fallback.getAttribute('data-kind')).toBe('initials')
    expect(fallback.getAttribute('aria-hidden')).toBe('true')
    expect(within(article).queryByRole('img')).toBeNull()
    await expectAccessible(container)
  })

  it('links the CTA (http(s) and relative only) and lets a router take it', async () => {
    const { setup, items } = await itemsFor([
      { subject: 'Relative', cta: { type: 'redirect', data: { url: '/orders/7' } } },
      { subject: 'Absolute', cta: { type: 'redirect', data: { url: 'https://example.com/a?b=1' } } },
      { subject: 'Script', cta: { type: 'redirect', data: { url: 'javascript:alert(1)' } } },
      // Paths to the eye, but browsers read both as https://evil.example/.
      { subject: 'Host', cta: { type: 'redirect', data: { url: '//evil.example/orders' } } },
      { subject: 'Backslash', cta: { type: 'redirect', data: { url: '/\\evil.example/orders' } } },
    ])
    const onNavigate = vi.fn((_u: string, _i: FeedItem, e: { preventDefault(): void }) => e.preventDefault())
    renderWithInbox(
      <>
        {items.map((item) => (
          <NotificationItem key={item._id} item={item} onNavigate={onNavigate} />
        ))}
      </>,
      { setup },
    )
    expect(screen.getByRole('link', { name: 'Relative' }).getAttribute('href')).toBe('/orders/7')
    expect(screen.getByRole('link', { name: 'Absolute' }).getAttribute('href')).toBe('https://example.com/a?b=1')
    expect(screen.queryByRole('link', { name: 'Script' })).toBeNull()
    // eslint-disable-next-line testing-library/prefer-presence-queries -- the text is there; what it must lack is a link around it
    expect(screen.getByText('Script').closest('a')).toBeNull()
    expect(screen.queryByRole('link', { name: 'Host' })).toBeNull()
    expect(screen.queryByRole('link', { name: 'Backslash' })).toBeNull()
    fireEvent.click(screen.getByRole('link', { name: 'Relative' }))
    expect(onNavigate).toHaveBeenCalledWith(
      '/orders/7',
      expect.objectContaining({ _id: items[0]!._id }),
      expect.anything(),
    )
    await waitFor(async () =>
      expect((await serviceFeed(setup.client, { read: true })).data.map((m) => m._id)).toEqual([items[0]!._id]),
    )
  })

  it('shows action buttons, calls onAction, and shows a done action', async () => {
    const { setup, items } = await itemsFor(ACTION_MESSAGES)
    const onAction = vi.fn()
    const { user, container } = renderWithInbox(
      <>
        {items.map((item) => (
          <NotificationItem key={item._id} item={item} onAction={onAction} />
        ))}
      </>,
      { setup },
    )
    const [invite, answered] = screen.getAllByRole('article')
    await user.click(within(invite!).getByRole('button', { name: 'Accept' }))
    expect(onAction).toHaveBeenCalledWith(
      { type: 'primary', content: 'Accept' },
      expect.objectContaining({ _id: items[0]!._id }),
      expect.anything(),
    )
    expect(within(answered!).queryByRole('button', { name: 'Accept' })).toBeNull()
    expect(within(answered!).getByText('Accepted')).toBeTruthy()
    await expectAccessible(container)
  })

  it('marks an item read on click: the item and the badge change before the service answers', async () => {
    const { user, service, client, first } = await bellAndFeed()
    service.faults.add({ path: /mark-as$/, latency: 1000 })
    await user.click(within(first!).getByText('Message 0'))
    await waitFor(() => expect(first!.hasAttribute('data-unread')).toBe(false))
    expect(screen.getByRole('button', { name: 'Notifications, 1 unread' })).toBeTruthy()
    expect((await serviceFeed(client, { read: false })).data).toHaveLength(2)
    await waitFor(async () => expect((await serviceFeed(client, { read: false })).data).toHaveLength(1))
  })

  it('rolls the change back with a visible error when the service fails', async () => {
    const { user, service, client, container, first } = await bellAndFeed()
    service.faults.add({ path: /mark-as$/, status: 500 })
    await user.click(within(first!).getByRole('button', { name: 'Mark as read Hi' }))
    expect(await within(first!).findByText('The change couldn’t be saved.')).toBeTruthy()
    expect(first!.hasAttribute('data-failed')).toBe(true)
    // Told once, in the live region, not by the row (which may come back into view many times).
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('The change couldn’t be saved.'))
    expect(first!.hasAttribute('data-unread')).toBe(true)
    expect(screen.getByRole('button', { name: 'Notifications, 2 unread' })).toBeTruthy()
    expect((await serviceFeed(client, { read: false })).data).toHaveLength(2)
    await expectAccessible(container)
  })

  it('lets a consumer click handler run first and keep the item unread with preventDefault', async () => {
    const { setup, items } = await itemsFor([{ subject: 'Keep me' }])
    const onClick = vi.fn((e: { preventDefault(): void }) => e.preventDefault())
    const { user } = renderItem(items[0]!, setup, {
      onClick,
      className: 'mine',
      style: { color: 'red' },
      'data-x': '1',
    } as never)
    const article = screen.getByRole('article')
    expect(article.className).toContain('mine')
    expect(article.style.color).toBe('red')
    expect(article.getAttribute('data-x')).toBe('1')
    await user.click(article)
    expect(onClick).toHaveBeenCalledTimes(1)
    await new Promise((r) => setTimeout(r, 50))
    expect((await serviceFeed(setup.client, { read: false })).data).toHaveLength(1)
  })

  it('keeps behaviour wired with a custom renderer', async () => {
    const { setup, items } = await itemsFor([{ subject: 'Custom' }])
    const { user } = renderItem(items[0]!, setup, {
      render: (item: FeedItem, helpers: ItemHelpers) => (
        <div>
          <strong>{item.subject}!</strong>
          <button type="button" onClick={() => void helpers.toggleRead()}>
            flip
          </button>
        </div>
      ),
      'aria-label': 'Custom item',
    } as never)
    expect(screen.getByText('Custom!')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'flip' }))
    await waitFor(async () => expect((await serviceFeed(setup.client, { read: false })).data).toHaveLength(0))
  })

  it('keeps relative times current with one shared clock', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })
    try {
      const { setup, items } = await itemsFor([{ subject: 'A' }, { subject: 'B' }, { subject: 'C' }])
      renderWithInbox(
        <>
          {items.map((item) => (
            <NotificationItem key={item._id} item={item} />
          ))}
        </>,
        { setup },
      )
      expect(clockSubscriberCount()).toBe(3)
      // Three rows, one interval.
      expect(vi.getTimerCount()).toBe(1)
      const time = screen.getByRole('article', { name: /^A( Unread)?$/ }).querySelector('time')!
      expect(time.textContent).toBe('now')
      act(() => {
        vi.advanceTimersByTime(5 * 60_000)
      })
      expect(time.textContent).toBe('5 minutes ago')
    } finally {
      vi.useRealTimers()
    }
  })
})
