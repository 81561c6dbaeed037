// @vitest-environment jsdom
import { ar } from '../../src/locales/ar'
import { act, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { Bell } from '../../src/components/Bell/Bell'
import { BELL, icon, type IconProps } from '../../src/components/internal/icons'
import { buildFixture, messages, TEST_SUBSCRIBER_ID } from '../support/fixtures'
import { expectAccessible, renderWithInbox } from './setup'

const mixed = () => buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 5, (i) => ({ seen: i >= 3, read: i >= 1 })) })

describe('Bell', () => {
  it('is a button named with the unseen count; the badge is hidden from assistive technology', async () => {
    const { container } = renderWithInbox(<Bell />, { fixture: mixed() })
    const bell = await screen.findByRole('button', { name: 'Notifications, 3 unseen' })
    expect(bell.getAttribute('aria-haspopup')).toBe('dialog')
    expect(bell.getAttribute('aria-expanded')).toBe('false')
    const badge = container.querySelector('.inbox-bell__badge')
    expect(badge?.textContent).toBe('3')
    expect(badge?.getAttribute('aria-hidden')).toBe('true')
    await expectAccessible(container)
  })

  it("draws the same icon as the kit's other bells, from markup: one svg, its class and part, hidden", async () => {
    const { container } = renderWithInbox(<Bell />, { fixture: mixed() })
    await screen.findByRole('button', { name: 'Notifications, 3 unseen' })
    const attributes = (svg: Element | null) =>
      Object.fromEntries([...(svg?.attributes ?? [])].map((a) => [a.name, a.value]).sort())
    const drawn = container.querySelectorAll('.inbox-bell svg')
    expect(drawn).toHaveLength(1)
    const made = render(icon(BELL, { className: 'inbox-bell__icon', 'data-part': 'bell-icon' } as IconProps)).container
    expect(attributes(drawn[0]!)).toEqual(attributes(made.querySelector('svg')))
    expect(drawn[0]!.innerHTML).toBe(made.querySelector('svg')!.innerHTML)
    expect(attributes(drawn[0]!)['aria-hidden']).toBe('true')
  })

  it('counts unread with countKind="unread"', async () => {
    renderWithInbox(<Bell countKind="unread" />, { fixture: mixed() })
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toBeTruthy()
  })

  it('shows 99+ above 99 and says so in its name', async () => {
    const { container } = renderWithInbox(<Bell />, {
      fixture: buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 120) }),
    })
    expect(await screen.findByRole('button', { name: 'Notifications, 99+ unseen' })).toBeTruthy()
    expect(container.querySelector('.inbox-bell__badge')?.textContent).toBe('99+')
  })

  it('has no badge and a plain name while loading and when nothing is new', async () => {
    const fixture = buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 2, { seen: true, read: true }) })
    const { container, queryClient } = renderWithInbox(<Bell />, { fixture, service: { latency: 20 } })
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy()
    await expectAccessible(container)
    await waitFor(() => expect(queryClient.isFetching()).toBe(0))
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy()
    expect(container.querySelector('.inbox-bell__badge')).toBeNull()
  })

  it('puts the count in the document title with titleCount, and restores it', async () => {
    document.title = 'My app'
    const { unmount } = renderWithInbox(<Bell titleCount />, {
      fixture: buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 4) }),
    })
    await waitFor(() => expect(document.title).toBe('(4) My app'))
    unmount()
    expect(document.title).toBe('My app')
  })

  it('speaks the provider locale, with plural forms', async () => {
    renderWithInbox(<Bell />, {
      fixture: buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 2) }),
      provider: { messages: ar },
    })
    const bell = await screen.findByRole('button', { name: 'إشعاران غير مشاهدين' })
    expect(bell.getAttribute('dir')).toBe('rtl')
  })

  it('says "99+" in the plural form of 99, whatever the count behind it', async () => {
    // Arabic has forms for 3–10 (few) and 11–99 (many): 103 would take the "few" form, 99 takes "many".
    renderWithInbox(<Bell />, {
      fixture: buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 103) }),
      provider: { messages: ar },
    })
    expect(await screen.findByRole('button', { name: '99+ إشعارًا غير مشاهد' })).toBeTruthy()
  })

  it('lets an app override any string', async () => {
    renderWithInbox(<Bell />, {
      fixture: buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 1) }),
      provider: {
        messages: { bellLabelUnseen: { one: 'Inbox: {count} new item', other: 'Inbox: {count} new items' } },
      },
    })
    expect(await screen.findByRole('button', { name: 'Inbox: 1 new item' })).toBeTruthy()
  })

  it('keeps its name and state with renderBell', async () => {
    renderWithInbox(<Bell renderBell={({ label }) => <span className="custom">{label}</span>} />, { fixture: mixed() })
    const bell = await screen.findByRole('button', { name: 'Notifications, 3 unseen' })
    expect(bell.querySelector('.custom')?.textContent).toBe('3')
  })

  it('follows the system colour scheme with theme="system"', async () => {
    const listeners = new Set<() => void>()
    let dark = true
    const original = window.matchMedia
    window.matchMedia = ((query: string) => ({
      get matches() {
        return query === '(prefers-color-scheme: dark)' && dark
      },
      addEventListener: (_: string, l: () => void) => listeners.add(l),
      removeEventListener: (_: string, l: () => void) => listeners.delete(l),
    })) as never
    try {
      renderWithInbox(<Bell />, { provider: { theme: 'system' } })
      const bell = screen.getByRole('button', { name: /^Notifications/ })
      expect(bell.getAttribute('data-inbox-theme')).toBe('dark')
      dark = false
      act(() => listeners.forEach((l) => l()))
      expect(bell.getAttribute('data-inbox-theme')).toBe('light')
    } finally {
      window.matchMedia = original
    }
  })

  it('throws a clear error outside a provider', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      expect(() => render(<Bell />)).toThrow('`Bell` must be used within `<InboxProvider>`')
    } finally {
      spy.mockRestore()
    }
  })
})
