// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { PreferencesPanel } from '../../src/components/PreferencesPanel/PreferencesPanel'
import { TopicSubscriptions } from '../../src/components/TopicSubscriptions/TopicSubscriptions'
import { buildFixture, TEST_SUBSCRIBER_ID, topic } from '../support/fixtures'
import { expectAccessible, renderWithInbox } from './setup'

const topics = (n: number) =>
  buildFixture({
    topics: Array.from({ length: n }, (_, i) => topic(`topic-${i}`, [TEST_SUBSCRIBER_ID], { name: `Topic ${i}` })),
  })

const names = () => screen.queryAllByRole('listitem').map((li) => li.querySelector('.inbox-topics__name')?.textContent)

describe('TopicSubscriptions', () => {
  it('shows a subscriber the service does not know yet subscribed to nothing, not an error', async () => {
    const { service } = renderWithInbox(<TopicSubscriptions />, {
      fixture: topics(3),
      provider: { subscriberId: 'brand-new-user' },
    })
    const asked = await service.fetch(
      new Request('http://inbox.test/v1/subscribers/brand-new-user/subscriptions', {
        headers: { authorization: `ApiKey ${service.apiKey}` },
      }),
    )
    expect(asked.status).toBe(404)
    await screen.findByText('You’re not subscribed to any topics.')
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('pages through the topics with Next and Previous', async () => {
    const { user, container } = renderWithInbox(<TopicSubscriptions limit={4} />, {
      fixture: topics(10),
      service: { latency: 20 },
    })
    expect(screen.getByRole('status')).toBeTruthy()
    await waitFor(() => expect(names()).toHaveLength(4))
    const first = names()
    await expectAccessible(container)
    const previous = screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement
    const next = screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement
    expect(previous.getAttribute('aria-disabled')).toBe('true')
    await user.click(next)
    await waitFor(() => expect(names()).not.toEqual(first))
    const second = names()
    expect(second).toHaveLength(4)
    expect(second.some((n) => first.includes(n))).toBe(false)
    // By keyboard to the last page: Next is then off, and keeps focus.
    screen.getByRole('button', { name: 'Next' }).focus()
    await user.keyboard('{Enter}')
    await waitFor(() => expect(names()).toHaveLength(2))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Next' }).getAttribute('aria-disabled')).toBe('true'))
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Next' }))
    await user.keyboard('{Enter}')
    expect(names()).toHaveLength(2)
    await user.click(screen.getByRole('button', { name: 'Previous' }))
    await waitFor(() => expect(names()).toEqual(second))
  })

  it('heads its section as PreferencesPanel does: h2 on a settings page of their own', async () => {
    renderWithInbox(
      <>
        <h1>Settings</h1>
        <PreferencesPanel />
        <TopicSubscriptions />
      </>,
      { fixture: topics(2) },
    )
    await waitFor(() => expect(names()).toHaveLength(2))
    expect(screen.getByRole('heading', { name: 'Topics' }).tagName).toBe('H2')
    await screen.findByRole('heading', { name: 'All notifications' })
    expect(screen.getByRole('heading', { name: 'All notifications' }).tagName).toBe('H2')
  })

  it('shows no direction mark of a name or key, which would reverse what follows it', async () => {
    const { container } = renderWithInbox(<TopicSubscriptions />, {
      fixture: buildFixture({
        topics: [topic('alerts-\u202Eexe.txt', [TEST_SUBSCRIBER_ID], { name: 'Billing alerts \u202E' })],
      }),
    })
    await waitFor(() => expect(names()).toEqual(['Billing alerts ']))
    expect(container.querySelector('.inbox-topics__key')!.textContent).toBe('alerts-exe.txt')
    expect(container.textContent).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/)
  })

  it('says when there are none', async () => {
    const { container } = renderWithInbox(<TopicSubscriptions />, { fixture: topics(0) })
    expect(await screen.findByText('You’re not subscribed to any topics.')).toBeTruthy()
    await expectAccessible(container)
  })

  it('shows an error when they cannot be loaded, with a button that tries again', async () => {
    const { container, user, service } = renderWithInbox(<TopicSubscriptions />, {
      fixture: topics(3),
      faults: [{ path: /subscriptions$/, status: 500 }],
    })
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Topics couldn’t be loaded')
    await expectAccessible(container)
    // Still down: the error is said again.
    await user.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect((await screen.findByRole('alert')).textContent).toContain('Topics couldn’t be loaded')
    // Back (after a dropped connection): the topics come, and focus, its button gone, waits on the heading.
    service.faults.clear()
    service.faults.add({ path: /subscriptions$/, drop: true, times: 1 })
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('alert')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Topics' }))
    await waitFor(() => expect(names()).toHaveLength(3))
    expect(screen.queryByRole('alert')).toBeNull()
    expect(container.querySelector('.inbox-topics')!.getAttribute('data-state')).toBe('ready')
  })

  it('keeps the page, Previous and Next when the next page fails, says so and tries again', async () => {
    const { user, container, service } = renderWithInbox(<TopicSubscriptions limit={4} />, { fixture: topics(10) })
    await waitFor(() => expect(names()).toHaveLength(4))
    const first = names()
    await user.click(screen.getByRole('button', { name: 'Next' }))
    await waitFor(() => expect(names()).not.toEqual(first))
    const second = names()
    // The third page fails: the second stays, with both moves, and the error is announced.
    service.faults.add({ path: /subscriptions$/, status: 500, times: 1 })
    await user.click(screen.getByRole('button', { name: 'Next' }))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Topics couldn’t be loaded')
    expect(names()).toEqual(second)
    for (const name of ['Previous', 'Next']) {
      expect(screen.getByRole('button', { name }).hasAttribute('aria-disabled'), name).toBe(false)
    }
    await expectAccessible(container)
    // Try again: focus goes back to Next, the move it repeats, and the third page comes.
    service.faults.add({ path: /subscriptions$/, latency: 100, times: 1 })
    await user.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Next' }))
    expect(names()).toEqual(second)
    await waitFor(() => expect(names()).toHaveLength(2))
    expect(screen.queryByRole('alert')).toBeNull()
    // Going back fails (a dropped connection): the third page stays; Previous again goes back.
    service.faults.add({ path: /subscriptions$/, drop: true, times: 1 })
    await user.click(screen.getByRole('button', { name: 'Previous' }))
    expect(await screen.findByRole('alert')).toBeTruthy()
    expect(names()).toHaveLength(2)
    await user.click(screen.getByRole('button', { name: 'Previous' }))
    await waitFor(() => expect(names()).toEqual(second))
    expect(screen.queryByRole('alert')).toBeNull()
  })
})
