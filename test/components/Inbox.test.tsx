// @vitest-environment jsdom
import { ar } from '../../src/locales/ar'
import { de } from '../../src/locales/de'
import { act, screen, waitFor, within } from '@testing-library/react'
import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { Inbox } from '../../src/components/Inbox/Inbox'
import { NotificationItem } from '../../src/components/NotificationItem/NotificationItem'
import { createInboxClient } from '../../src/api/client'
import { inboxKeys } from '../../src/core/keys'
import type { InboxProviderProps } from '../../src/provider/InboxProvider'
import { buildFixture, inApp, messages, TEST_SUBSCRIBER_ID, workflow } from '../support/fixtures'
import { expectAccessible, renderWithInbox, serviceFeed, setupService } from './setup'

const fixture = (count = 6) =>
  buildFixture({
    workflows: [workflow('test-workflow', [inApp('Hello {{subscriber.firstName}}')])],
    messages: messages(TEST_SUBSCRIBER_ID, count, (i) => ({ subject: `Subject ${i}`, read: i >= 3, seen: i >= 3 })),
  })

async function openWithKeyboard(user: ReturnType<typeof userEvent.setup>, key = '{Enter}') {
  await user.tab()
  const bell = screen.getByRole('button', { name: /^Notifications/ })
  expect(document.activeElement).toBe(bell)
  await user.keyboard(key)
  return { bell, dialog: await screen.findByRole('dialog', { name: 'Notifications' }) }
}

describe('Inbox', () => {
  it('opens with Enter into a labelled dialog that holds focus; Escape closes it and focus returns to the Bell', async () => {
    const { user, container } = renderWithInbox(<Inbox markSeenOnOpen={false} />, { fixture: fixture() })
    await screen.findByRole('button', { name: 'Notifications, 3 unseen' })
    const { bell, dialog } = await openWithKeyboard(user)
    expect(bell.getAttribute('aria-expanded')).toBe('true')
    expect(dialog.contains(document.activeElement)).toBe(true)
    await screen.findByRole('feed')
    await expectAccessible(container)

    await user.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(bell)
    expect(bell.getAttribute('aria-expanded')).toBe('false')
  })

  it('opens with Space too', async () => {
    const { user } = renderWithInbox(<Inbox />, { fixture: fixture() })
    const { dialog } = await openWithKeyboard(user, ' ')
    expect(dialog).toBeTruthy()
  })

  it('keeps Tab and Shift+Tab inside the dialog', async () => {
    const { user } = renderWithInbox(<Inbox markSeenOnOpen={false} />, { fixture: fixture() })
    const { dialog } = await openWithKeyboard(user)
    await screen.findByRole('feed')
    const seen = new Set<Element>()
    for (let i = 0; i < 30; i++) {
      await user.tab()
      expect(dialog.contains(document.activeElement)).toBe(true)
      seen.add(document.activeElement!)
    }
    for (let i = 0; i < 10; i++) {
      await user.tab({ shift: true })
      expect(dialog.contains(document.activeElement)).toBe(true)
    }
    // It cycles: the header buttons and the tab were all reached.
    expect(seen.has(screen.getByRole('button', { name: 'Mark all as read' }))).toBe(true)
    expect(seen.has(screen.getByRole('tab', { name: 'All' }))).toBe(true)
  })

  it('closes with its close button and returns focus to the Bell', async () => {
    const { user } = renderWithInbox(<Inbox />, { fixture: fixture() })
    const { bell, dialog } = await openWithKeyboard(user)
    await user.click(within(dialog).getByRole('button', { name: 'Close' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(bell)
  })

  it("closes when a notification's link is followed in the tab (the app's router taking it), not on a click that opens it elsewhere", async () => {
    const followed: string[] = []
    const { user } = renderWithInbox(
      <Inbox
        markSeenOnOpen={false}
        onNavigate={(url, _item, event) => {
          event.preventDefault()
          followed.push(url)
        }}
      />,
      {
        fixture: buildFixture({
          messages: messages(TEST_SUBSCRIBER_ID, 2, (i) => ({
            subject: `Deploy ${i}`,
            cta: { data: { url: `/deploys/${i}` } },
          })),
        }),
      },
    )
    const { bell, dialog } = await openWithKeyboard(user)
    const link = await within(dialog).findByRole('link', { name: 'Deploy 1' })
    // Ctrl+click: a new tab in a browser; the popover stays.
    await user.keyboard('{Control>}')
    await user.click(link)
    await user.keyboard('{/Control}')
    expect(followed).toEqual(['/deploys/1'])
    expect(screen.getByRole('dialog')).toBeTruthy()
    // Enter on a row follows its link here: the popover closes, focus back on the bell.
    within(dialog)
      .getByRole('article', { name: /^Deploy 0/ })
      .focus()
    await user.keyboard('{Enter}')
    expect(followed).toEqual(['/deploys/1', '/deploys/0'])
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(document.activeElement).toBe(bell)
  })

  it('closes on a click outside', async () => {
    const { user } = renderWithInbox(
      <>
        <p>Outside</p>
        <Inbox defaultOpen />
      </>,
      { fixture: fixture() },
    )
    await screen.findByRole('dialog')
    await user.click(screen.getByText('Outside'))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('can be controlled with open and onOpenChange', async () => {
    const changes: boolean[] = []
    function Controlled() {
      const [open, setOpen] = useState(false)
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Open from outside
          </button>
          <Inbox
            open={open}
            onOpenChange={(next) => {
              changes.push(next)
              setOpen(next)
            }}
          />
        </>
      )
    }
    const { user } = renderWithInbox(<Controlled />, { fixture: fixture() })
    await user.click(screen.getByRole('button', { name: 'Open from outside' }))
    const dialog = await screen.findByRole('dialog')
    await user.click(within(dialog).getByRole('button', { name: 'Mark all as read' }).ownerDocument.body)
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(changes).toEqual([false])
    await user.click(screen.getByRole('button', { name: /^Notifications/ }))
    expect(await screen.findByRole('dialog')).toBeTruthy()
    expect(changes).toEqual([false, true])
  })

  it('gives focus back to the bell when the app closes the popover through open, not when focus moved on', async () => {
    let setOpen: (open: boolean) => void = () => {}
    function Controlled() {
      const [open, set] = useState(true)
      setOpen = set
      return (
        <>
          <button type="button">Elsewhere</button>
          <Inbox open={open} onOpenChange={set} />
        </>
      )
    }
    renderWithInbox(<Controlled />, { fixture: fixture() })
    const dialog = await screen.findByRole('dialog')
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true))
    act(() => setOpen(false))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /^Notifications/ }))
    // Opened again, then focus moves to the app's own button before the app closes it: it stays there.
    act(() => setOpen(true))
    await screen.findByRole('dialog')
    act(() => screen.getByRole('button', { name: 'Elsewhere' }).focus())
    act(() => setOpen(false))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Elsewhere' }))
  })

  it('keeps its open state per instance: two inboxes under one provider open on their own, defaultOpen per instance', async () => {
    const { user } = renderWithInbox(
      <>
        <Inbox markSeenOnOpen={false} aria-label="first" />
        <Inbox markSeenOnOpen={false} aria-label="second" defaultOpen />
      </>,
      { fixture: fixture() },
    )
    const [first, second] = [screen.getByLabelText('first'), screen.getByLabelText('second')]
    expect(within(first).queryByRole('dialog')).toBeNull()
    expect(await within(second).findByRole('dialog')).toBeTruthy()
    await user.click(within(second).getByRole('button', { name: 'Close' }))
    expect(within(second).queryByRole('dialog')).toBeNull()
    await user.click(within(first).getByRole('button', { name: /^Notifications/ }))
    expect(await within(first).findByRole('dialog')).toBeTruthy()
    expect(within(second).queryByRole('dialog')).toBeNull()
  })

  it('marks what is in view as seen when it opens', async () => {
    const { user, client } = renderWithInbox(<Inbox />, { fixture: fixture() })
    await screen.findByRole('button', { name: 'Notifications, 3 unseen' })
    await user.click(screen.getByRole('button', { name: /^Notifications/ }))
    await screen.findByRole('feed')
    await waitFor(async () => expect((await serviceFeed(client, { seen: false })).data).toHaveLength(0))
    await screen.findByRole('button', { name: 'Notifications' })
  })

  it('says nothing when marking seen what is in view fails, keeps the count, and does not ask again while shown', async () => {
    const setup = setupService(fixture())
    const serve = setup.service.fetch.bind(setup.service)
    const seenWrites: string[] = []
    setup.service.fetch = (request) => {
      if (request.url.endsWith('/mark-as')) seenWrites.push(request.url)
      return serve(request)
    }
    setup.service.faults.add({ path: /mark-as$/, status: 500 })
    const { user } = renderWithInbox(<Inbox />, { setup })
    await screen.findByRole('button', { name: 'Notifications, 3 unseen' })
    await user.click(screen.getByRole('button', { name: /^Notifications/ }))
    const feed = await screen.findByRole('feed')
    await waitFor(() => expect(seenWrites).toHaveLength(1))
    // The write failed and was undone: the badge counts the three again once the service was asked.
    await screen.findByRole('button', { name: 'Notifications, 3 unseen' })
    expect(feed.querySelectorAll('[data-failed]')).toHaveLength(0)
    expect(screen.queryByRole('alert')).toBeNull()
    expect(document.querySelector('[aria-live]')?.textContent ?? '').not.toMatch(/couldn’t be saved/)
    await new Promise((resolve) => setTimeout(resolve, 600))
    expect(seenWrites).toHaveLength(1)
  })

  it('marks all as read at once, before the service answers', async () => {
    const { user, service, client } = renderWithInbox(<Inbox countKind="unread" markSeenOnOpen={false} />, {
      fixture: fixture(),
    })
    await screen.findByRole('button', { name: 'Notifications, 3 unread' })
    await user.click(screen.getByRole('button', { name: /^Notifications/ }))
    const feed = await screen.findByRole('feed')
    expect(feed.querySelectorAll('article[data-unread]')).toHaveLength(3)
    const release = service.faults.add({ path: /mark-as$/, latency: 1000 })
    await user.click(screen.getByRole('button', { name: 'Mark all as read' }))
    // Optimistic: the badge and the items change while the request is still in flight.
    await waitFor(() => expect(feed.querySelectorAll('article[data-unread]')).toHaveLength(0))
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy()
    expect((await serviceFeed(client, { read: false })).data.length).toBeGreaterThan(0)
    await waitFor(async () => expect((await serviceFeed(client, { read: false })).data).toHaveLength(0))
    release()
  })

  it('rolls mark-all back with a visible error when the service fails', async () => {
    const { user, service, client } = renderWithInbox(<Inbox countKind="unread" markSeenOnOpen={false} />, {
      fixture: fixture(),
    })
    await screen.findByRole('button', { name: 'Notifications, 3 unread' })
    await user.click(screen.getByRole('button', { name: /^Notifications/ }))
    const feed = await screen.findByRole('feed')
    service.faults.add({ path: /mark-as$/, status: 500 })
    await user.click(screen.getByRole('button', { name: 'Mark all as read' }))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Not all notifications could be marked as read.')
    await waitFor(() => expect(feed.querySelectorAll('article[data-unread]')).toHaveLength(3))
    expect(screen.getByRole('button', { name: 'Notifications, 3 unread' })).toBeTruthy()
    expect((await serviceFeed(client, { read: false })).data).toHaveLength(3)
    // Said once, by the alert: the live region does not say it again in other words.
    expect(screen.getByRole('status').textContent).toBe('')
  })

  it('switches to the Unread tab with the arrow keys and lists only unread items', async () => {
    const { user } = renderWithInbox(<Inbox markSeenOnOpen={false} />, { fixture: fixture() })
    await user.click(screen.getByRole('button', { name: /^Notifications/ }))
    await screen.findByRole('feed')
    const all = screen.getByRole('tab', { name: 'All' })
    expect(all.getAttribute('aria-selected')).toBe('true')
    all.focus()
    await user.keyboard('{ArrowRight}')
    const unread = screen.getByRole('tab', { name: /^Unread/ })
    expect(unread.getAttribute('aria-selected')).toBe('true')
    expect(document.activeElement).toBe(unread)
    const panel = screen.getByRole('tabpanel')
    expect(panel.getAttribute('aria-labelledby')).toBe(unread.id)
    await waitFor(() => expect(within(panel).getAllByRole('article')).toHaveLength(3))
    for (const article of within(panel).getAllByRole('article')) expect(article.hasAttribute('data-unread')).toBe(true)
  })

  it('keeps focus in the Unread list when r marks the focused item read and it leaves', async () => {
    const { user } = renderWithInbox(<Inbox markSeenOnOpen={false} />, { fixture: fixture() })
    await user.click(screen.getByRole('button', { name: /^Notifications/ }))
    await user.click(await screen.findByRole('tab', { name: /^Unread/ }))
    const panel = screen.getByRole('tabpanel')
    await waitFor(() => expect(within(panel).getAllByRole('article')).toHaveLength(3))
    within(panel).getAllByRole('article')[0]!.focus()
    await user.keyboard('r')
    await waitFor(() => expect(within(panel).getAllByRole('article')).toHaveLength(2))
    await waitFor(() => expect(document.activeElement).toBe(within(panel).getAllByRole('article')[0]))
    expect(document.activeElement?.querySelector('h3')?.textContent).toBe('Subject 1')
  })

  it('keeps focus in the list when r marks the last unread item read: on the list, which says it is empty', async () => {
    const { user } = renderWithInbox(<Inbox markSeenOnOpen={false} />, { fixture: fixture(1) })
    await user.click(screen.getByRole('button', { name: /^Notifications/ }))
    await user.click(await screen.findByRole('tab', { name: /^Unread/ }))
    const panel = screen.getByRole('tabpanel')
    ;(await within(panel).findByRole('article')).focus()
    await user.keyboard('r')
    await waitFor(() => expect(within(panel).queryAllByRole('article')).toHaveLength(0))
    await waitFor(() => expect(panel.contains(document.activeElement)).toBe(true))
    expect(document.activeElement?.textContent).toContain('No unread notifications')
  })

  it('adds tabs defined by feed filters', async () => {
    const f = buildFixture({
      messages: messages(TEST_SUBSCRIBER_ID, 4, (i) => ({
        subject: `S${i}`,
        payload: { kind: i % 2 ? 'billing' : 'social' },
      })),
    })
    const { user } = renderWithInbox(
      <Inbox
        tabs={[{ id: 'billing', label: 'Billing', filter: { payload: { kind: 'billing' } } }]}
        markSeenOnOpen={false}
      />,
      { fixture: f },
    )
    await user.click(screen.getByRole('button', { name: /^Notifications/ }))
    await user.click(await screen.findByRole('tab', { name: 'Billing' }))
    const panel = screen.getByRole('tabpanel')
    await waitFor(() =>
      expect(
        within(panel)
          .getAllByRole('article')
          .map((a) => a.getAttribute('aria-labelledby') && a.querySelector('h3')?.textContent),
      ).toEqual(['S1', 'S3']),
    )
  })

  it('goes to the preferences and back', async () => {
    const { user, container } = renderWithInbox(<Inbox />, { fixture: fixture() })
    await user.click(screen.getByRole('button', { name: /^Notifications/ }))
    await user.click(await screen.findByRole('button', { name: 'Notification settings' }))
    expect(await screen.findByRole('dialog', { name: 'Notification settings' })).toBeTruthy()
    expect((await screen.findAllByRole('switch', { name: 'In-app' })).length).toBeGreaterThan(0)
    expect(screen.getByRole('heading', { name: 'All notifications' }).tagName).toBe('H3')
    await expectAccessible(container)
    await user.click(screen.getByRole('button', { name: 'Back to notifications' }))
    expect(await screen.findByRole('feed')).toBeTruthy()
  })

  it('moves focus between the settings button and the back button as the views change', async () => {
    const { user } = renderWithInbox(<Inbox />, { fixture: fixture() })
    await openWithKeyboard(user)
    const settings = await screen.findByRole('button', { name: 'Notification settings' })
    settings.focus()
    await user.keyboard('{Enter}')
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Back to notifications' })),
    )
    await user.keyboard('{Enter}')
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Notification settings' })),
    )
  })

  it('keeps focus on Mark all as read once everything is read, and a press then sends nothing', async () => {
    const { user, service } = renderWithInbox(<Inbox countKind="unread" markSeenOnOpen={false} />, {
      fixture: fixture(),
    })
    await screen.findByRole('button', { name: 'Notifications, 3 unread' })
    await user.click(screen.getByRole('button', { name: /^Notifications/ }))
    await screen.findByRole('feed')
    const markAll = screen.getByRole('button', { name: 'Mark all as read' })
    markAll.focus()
    await user.keyboard('{Enter}')
    await waitFor(() => expect(markAll.getAttribute('aria-disabled')).toBe('true'))
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Notifications, \d+ unread/ })).toBeNull())
    expect(document.activeElement).toBe(markAll)
    const sent = service.state.messages(TEST_SUBSCRIBER_ID).filter((m) => m.read).length
    await user.keyboard('{Enter}')
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(service.state.messages(TEST_SUBSCRIBER_ID).filter((m) => m.read).length).toBe(sent)
    expect(document.activeElement).toBe(markAll)
  })

  it('announces new notifications in one polite live region', async () => {
    const { client, service, queryClient, container } = renderWithInbox(<Inbox />, { fixture: fixture() })
    await screen.findByRole('button', { name: 'Notifications, 3 unseen' })
    const regions = container.querySelectorAll('[aria-live]')
    expect(regions).toHaveLength(1)
    expect(regions[0]!.getAttribute('aria-live')).toBe('polite')
    expect(regions[0]!.textContent).toBe('')
    await client.trigger({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID })
    await client.trigger({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID })
    await service.settle()
    await act(() => queryClient.invalidateQueries())
    await waitFor(() => expect(regions[0]!.textContent).toBe('2 new notifications'))
    expect(screen.getByRole('button', { name: 'Notifications, 5 unseen' })).toBeTruthy()
    // The same words again come in a new node, so that screen readers say them again.
    const first = regions[0]!.firstChild
    await client.trigger({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID })
    await client.trigger({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID })
    await service.settle()
    await act(() => queryClient.invalidateQueries())
    await screen.findByRole('button', { name: 'Notifications, 7 unseen' })
    expect(regions[0]!.textContent).toBe('2 new notifications')
    expect(regions[0]!.firstChild).not.toBe(first)
    expect(regions[0]!.childNodes).toHaveLength(1)
  })

  it('shows a subscriber the service does not know yet an empty inbox, not an error, until their first notification', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const { client, service, queryClient, user } = renderWithInbox(<Inbox markSeenOnOpen={false} />, {
        fixture: fixture(),
        provider: { subscriberId: 'brand-new-user' },
      })
      // The service has no such subscriber: every read of the feed is a 404 "Subscriber … not found".
      const asked = await service.fetch(
        new Request('http://inbox.test/v1/subscribers/brand-new-user/notifications/feed', {
          headers: { authorization: `ApiKey ${service.apiKey}` },
        }),
      )
      expect(asked.status).toBe(404)
      const bell = await screen.findByRole('button', { name: 'Notifications' })
      await user.click(bell)
      const dialog = await screen.findByRole('dialog')
      await within(dialog).findByText('You’re all caught up')
      expect(within(dialog).queryByRole('alert')).toBeNull()
      // Nor are there settings to show yet: it says so, with no error.
      await user.click(within(dialog).getByRole('button', { name: 'Notification settings' }))
      await within(dialog).findByText('There is nothing to configure yet.')
      expect(within(dialog).queryByRole('alert')).toBeNull()
      await user.click(within(dialog).getByRole('button', { name: 'Back to notifications' }))
      expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('brand-new-user'))).toEqual([
        'inbox-kit: subscriber "brand-new-user" does not exist on the service yet, so the inbox shows it empty until its first notification; if it should exist, check `subscriberId`.',
      ])
      // The first notification makes the subscriber: the inbox shows it.
      await client.trigger({ name: 'test-workflow', to: 'brand-new-user' })
      await service.settle()
      await act(() => queryClient.invalidateQueries())
      await screen.findByRole('button', { name: 'Notifications, 1 unseen' })
      await waitFor(() => expect(within(dialog).getAllByRole('article')).toHaveLength(1))
    } finally {
      warn.mockRestore()
    }
  })

  it('brings its own provider when given a subscriberId', async () => {
    const s = setupService(fixture())
    render(
      <Inbox
        subscriberId={TEST_SUBSCRIBER_ID}
        client={s.client}
        pollInterval={0}
        theme="dark"
        className="app-inbox"
        data-testid="root"
      />,
    )
    const bell = await screen.findByRole('button', { name: 'Notifications, 3 unseen' })
    const root = screen.getByTestId('root')
    expect(root.className).toContain('app-inbox')
    expect(root.getAttribute('data-inbox-theme')).toBe('dark')
    expect(root.contains(bell)).toBe(true)
  })

  it("inside the app's provider, takes its own theme, strings and locale, and says which other props it ignores", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const { user } = renderWithInbox(
        <>
          <Inbox data-testid="own" theme="dark" messages={de} pollInterval={5} markSeenOnOpen={false} />
          <Inbox data-testid="app" markSeenOnOpen={false} />
        </>,
        { fixture: fixture(), provider: { theme: 'light' } },
      )
      const own = screen.getByTestId('own')
      const app = screen.getByTestId('app')
      expect([own.getAttribute('data-inbox-theme'), app.getAttribute('data-inbox-theme')]).toEqual(['dark', 'light'])
      await within(own).findByRole('button', { name: 'Benachrichtigungen, 3 ungesehen' })
      await within(app).findByRole('button', { name: 'Notifications, 3 unseen' })
      await user.click(within(own).getByRole('button', { name: /^Benachrichtigungen/ }))
      const dialog = await screen.findByRole('dialog', { name: 'Benachrichtigungen' })
      expect(dialog.closest('[lang]')?.getAttribute('lang')).toBe('de')
      await within(dialog).findByRole('tab', { name: /^Ungelesen/ })
      expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => m.startsWith('inbox-kit: <Inbox>'))).toEqual([
        'inbox-kit: <Inbox> without a subscriberId uses the <InboxProvider> around it, which ignores `pollInterval` given to <Inbox>: give them to the provider (or a subscriberId to <Inbox>).',
      ])
    } finally {
      warn.mockRestore()
    }
  })

  it("keeps every part's class and data-part with unstyled, marking the root so the stylesheet leaves it alone", async () => {
    const parts = async (unstyled: boolean) => {
      const { container, unmount } = renderWithInbox(<Inbox unstyled={unstyled} defaultOpen markSeenOnOpen={false} />, {
        fixture: fixture(),
      })
      await screen.findByRole('feed')
      await waitFor(() => expect(container.querySelectorAll('article[data-unread]').length).toBe(3))
      expect(container.querySelector('[data-inbox-root]')!.hasAttribute('data-inbox-unstyled')).toBe(unstyled)
      const found = Array.from(
        container.querySelectorAll('[data-part]'),
        (el) => `${el.getAttribute('data-part')} ${el.className}`,
      )
      unmount()
      return found
    }
    const styled = await parts(false)
    const unstyled = await parts(true)
    expect(unstyled).toEqual(styled)
    for (const part of [
      'inbox inbox',
      'bell inbox-bell',
      'popover inbox-popover',
      'header inbox-header',
      'item inbox-item',
      'item-title inbox-item__title',
    ]) {
      expect(unstyled).toContain(part)
    }
  })

  it('gives a part asked to be unstyled inside a styled inbox its own unstyled mark', async () => {
    const { container } = renderWithInbox(
      <Inbox defaultOpen markSeenOnOpen={false} renderItem={(item) => <NotificationItem item={item} unstyled />} />,
      { fixture: fixture() },
    )
    await screen.findByRole('feed')
    await waitFor(() => expect(container.querySelectorAll('article article').length).toBeGreaterThan(0))
    expect(container.querySelector('article article')!.hasAttribute('data-inbox-unstyled')).toBe(true)
    expect(container.querySelector('[data-part="header"]')!.closest('[data-inbox-unstyled]')).toBeNull()
  })
})

describe('Inbox on a sign of intent', () => {
  /** The inbox over a client that logs the list requests it sends (not the counts' `limit=1` ones). */
  function renderLogged(provider: Partial<InboxProviderProps> = {}) {
    const setup = setupService(fixture())
    const lists: string[] = []
    const client = createInboxClient({
      baseUrl: setup.baseUrl,
      apiKey: setup.service.apiKey,
      retry: false,
      fetch: (input, init) => {
        if (String(input).includes('limit=20')) lists.push(String(input))
        return setup.fetch(input, init)
      },
    })
    return { ...renderWithInbox(<Inbox markSeenOnOpen={false} />, { setup, provider: { client, ...provider } }), lists }
  }

  it('loads the list it opens on while the pointer rests on the bell, once: the click shows its rows at once', async () => {
    const { user, lists, queryClient } = renderLogged()
    const bell = await screen.findByRole('button', { name: 'Notifications, 3 unseen' })
    expect(lists).toEqual([])
    await user.hover(bell)
    await waitFor(() => expect(queryClient.getQueryState(inboxKeys.feed(TEST_SUBSCRIBER_ID))?.status).toBe('success'))
    expect(lists).toHaveLength(1)
    // Cached: another pass of the pointer asks nothing again.
    await user.unhover(bell)
    await user.hover(bell)
    await user.click(bell)
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' })
    // In the dialog's first render: no loading state in between.
    expect(within(dialog).getAllByRole('article')).toHaveLength(6)
    expect(lists).toHaveLength(1)
  })

  it('asks nothing while the provider waits (`enabled={false}`)', async () => {
    const { user, lists } = renderLogged({ enabled: false })
    const bell = await screen.findByRole('button', { name: 'Notifications' })
    await user.hover(bell)
    await user.click(bell)
    await screen.findByRole('dialog', { name: 'Notifications' })
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)))
    expect(lists).toEqual([])
  })
})

describe('Inbox in a right-to-left locale', () => {
  it('lays out right to left, speaks Arabic, and reverses the arrow keys between tabs', async () => {
    const { user, container } = renderWithInbox(<Inbox defaultOpen markSeenOnOpen={false} />, {
      fixture: fixture(),
      provider: { messages: ar },
    })
    const dialog = await screen.findByRole('dialog', { name: 'الإشعارات' })
    expect(container.querySelector('[data-inbox-root]')!.getAttribute('dir')).toBe('rtl')
    await screen.findByRole('feed')
    const all = within(dialog).getByRole('tab', { name: 'الكل' })
    all.focus()
    await user.keyboard('{ArrowLeft}')
    expect(document.activeElement?.textContent).toContain('غير المقروءة')
    await expectAccessible(container)
  })
})
