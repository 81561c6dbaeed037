// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FeedItem } from '../../src/api/types'
import { Inbox } from '../../src/components/Inbox/Inbox'
import { Toaster } from '../../src/components/Toaster/Toaster'
import type { InboxSync } from '../../src/core/sync'
import { useInboxScope } from '../../src/provider/context'
import { InboxProvider } from '../../src/provider/InboxProvider'
import { buildFixture, inApp, messages, subscriber, TEST_SUBSCRIBER_ID, workflow } from '../support/fixtures'
import { setupService } from './setup-service'
import { expectAccessible, renderWithInbox, serviceFeed } from './setup'

let sync: InboxSync | undefined
/** The provider's sync object, where the live loop reports arrivals. */
function Grab() {
  sync = useInboxScope('Grab').sync
  return null
}

/** Reports `items` as the live loop does when they arrive (the next arrival's number). */
const arrive = (items: FeedItem[]) =>
  act(() => sync!.store.setState((s) => ({ arrived: { items, n: (s.arrived?.n ?? 0) + 1 } })))

const fixture = (count: number) =>
  buildFixture({
    workflows: [workflow('test-workflow', [inApp('Hello')])],
    messages: messages(TEST_SUBSCRIBER_ID, count, (i) => ({ subject: `Toast ${i}` })),
  })

afterEach(() => {
  vi.useRealTimers()
})

describe('Toaster', () => {
  it('sends focus back where it was when Escape closes the last toast it was on, and to the next toast before that', async () => {
    const { user, client } = renderWithInbox(
      <>
        <button type="button">Before</button>
        <Toaster />
        <Grab />
      </>,
      { fixture: buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 2, (i) => ({ subject: `Toast ${i}` })) }) },
    )
    // Two arrivals, as the live loop reports them: the service's own items.
    const items = (await serviceFeed(client)).data
    // Shown in the focused tab only.
    screen.getByRole('button', { name: 'Before' }).focus()
    act(() => sync!.store.setState({ arrived: { items, n: 1 } }))
    const dismiss = await screen.findAllByRole('button', { name: 'Dismiss' })
    expect(dismiss).toHaveLength(2)
    // Each toast's buttons are told apart by what they act on.
    expect(
      dismiss.map(
        (b) =>
          b.getAttribute('aria-describedby') &&
          document.getElementById(b.getAttribute('aria-describedby')!)?.textContent,
      ),
    ).toEqual(items.map((i) => i.subject))
    await user.tab()
    expect(document.activeElement).toBe(dismiss[0])
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Dismiss' })).toHaveLength(1))
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Dismiss' }))
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull())
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Before' }))
  })

  it('announces each arrival once: in <Inbox toasts> the inbox says how many came and the toasts stay quiet', async () => {
    const { client, service, queryClient, container } = renderWithInbox(
      <>
        <Inbox toasts />
        <Grab />
      </>,
      { fixture: fixture(1) },
    )
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unseen' })
    bell.focus()
    await client.trigger({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID })
    await client.trigger({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID })
    await service.settle()
    await act(() => queryClient.invalidateQueries())
    arrive((await serviceFeed(client)).data.slice(0, 2))
    await screen.findByRole('region', { name: 'New notifications' })
    expect(screen.getAllByText('Hello')).toHaveLength(2)
    // One live region, the inbox's, with the summary; the toasts' text is not said a second time.
    const live = container.querySelectorAll('[aria-live]:not([aria-live="off"])')
    expect(live).toHaveLength(1)
    expect(live[0]!.getAttribute('role')).toBe('status')
    await waitFor(() => expect(live[0]!.textContent).toBe('2 new notifications'))
  })

  it('on its own, says each toast politely through its list, which is there before the first toast', async () => {
    const { client, container } = renderWithInbox(
      <>
        <button type="button">Before</button>
        <Toaster />
        <Grab />
      </>,
      { fixture: fixture(2) },
    )
    const items = (await serviceFeed(client)).data
    const list = container.querySelector('ol')!
    expect(list.getAttribute('aria-live')).toBe('polite')
    expect(container.querySelectorAll('[aria-live]')).toHaveLength(1)
    screen.getByRole('button', { name: 'Before' }).focus()
    arrive(items)
    await waitFor(() => expect(list.children).toHaveLength(2))
    expect(list.textContent).toContain('Toast 0')
  })

  it('is no landmark while empty, and a region named "New notifications" while it holds toasts; axe clean in both', async () => {
    const { client, container, user } = renderWithInbox(
      <>
        <button type="button">Before</button>
        <Toaster />
        <Grab />
      </>,
      { fixture: fixture(1) },
    )
    const items = (await serviceFeed(client)).data
    expect(screen.queryByRole('region')).toBeNull()
    expect(container.querySelector('section')!.hasAttribute('aria-label')).toBe(false)
    await expectAccessible(container)
    screen.getByRole('button', { name: 'Before' }).focus()
    arrive(items)
    const region = await screen.findByRole('region', { name: 'New notifications' })
    expect(region.textContent).toContain('Toast 0')
    await expectAccessible(container)
    await user.click(screen.getByRole('button', { name: 'Dismiss' }))
    await waitFor(() => expect(screen.queryByRole('region')).toBeNull())
    await expectAccessible(container)
  })

  it('closes each toast `duration` after it came, the whole stack waiting while hovered', async () => {
    const { client } = renderWithInbox(
      <>
        <button type="button">Before</button>
        <Toaster duration={1000} />
        <Grab />
      </>,
      { fixture: fixture(3) },
    )
    const items = (await serviceFeed(client)).data
    screen.getByRole('button', { name: 'Before' }).focus()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const shown = () => screen.queryAllByRole('button', { name: 'Dismiss' }).length
    const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms))
    // Three arrivals, 300 ms apart.
    arrive([items[2]!])
    wait(300)
    arrive([items[1]!])
    wait(300)
    arrive([items[0]!])
    expect(shown()).toBe(3)
    wait(399) // 999 ms
    expect(shown()).toBe(3)
    wait(1) // 1000 ms: the first goes
    expect(shown()).toBe(2)
    wait(300) // 1300 ms: the second
    expect(shown()).toBe(1)
    // Hovered at 1400 ms, with 200 ms left to the third: it waits, then takes up where it was.
    wait(100)
    const section = screen.getByRole('region', { name: 'New notifications' })
    fireEvent.pointerEnter(section)
    wait(5000)
    expect(shown()).toBe(1)
    fireEvent.pointerLeave(section)
    wait(199)
    expect(shown()).toBe(1)
    wait(1)
    expect(shown()).toBe(0)
    // The last one dismissed with the pointer still on the stack: the next arrival is not held.
    arrive([items[1]!])
    fireEvent.pointerEnter(screen.getByRole('region', { name: 'New notifications' }))
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }))
    expect(shown()).toBe(0)
    arrive([items[0]!])
    expect(shown()).toBe(1)
    wait(1000)
    expect(shown()).toBe(0)
  })

  it("after a subscriber switch shows none of the previous subscriber's toasts, and the new one's first arrival", async () => {
    const setup = setupService(
      buildFixture({
        subscribers: [subscriber('user-2')],
        workflows: [workflow('test-workflow', [inApp('Hello')])],
        messages: [
          ...messages(TEST_SUBSCRIBER_ID, 1, { subject: 'For the first' }),
          ...messages('user-2', 1, { subject: 'For the second' }),
        ],
      }),
    )
    const first = (await setup.client.getFeed(TEST_SUBSCRIBER_ID)).data
    const second = (await setup.client.getFeed('user-2')).data
    let switchTo!: (id: string) => void
    function App() {
      const [id, setId] = useState(TEST_SUBSCRIBER_ID)
      switchTo = setId
      return (
        <InboxProvider stream={false} subscriberId={id} client={setup.client} pollInterval={0}>
          <button type="button">Before</button>
          <Toaster />
          <Grab />
        </InboxProvider>
      )
    }
    render(<App />)
    screen.getByRole('button', { name: 'Before' }).focus()
    arrive(first)
    expect(await screen.findByText('For the first')).toBeTruthy()
    act(() => switchTo('user-2'))
    expect(screen.queryByText('For the first')).toBeNull()
    arrive(second)
    expect(await screen.findByText('For the second')).toBeTruthy()
  })
})
