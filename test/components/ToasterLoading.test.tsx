// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { Inbox } from '../../src/components/Inbox/Inbox'
import { buildFixture, inApp, messages, TEST_SUBSCRIBER_ID, workflow } from '../support/fixtures'
import { renderWithInbox } from './setup'

// The toaster's code, held back until the test lets it come: `<Inbox toasts>` loads it after the bell.
const gate = vi.hoisted(() => {
  let open = () => {}
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { open, opened }
})
vi.mock('../../src/components/Toaster/Toaster', async (original) => {
  await gate.opened
  return original()
})

describe('<Inbox toasts> while the toaster’s code is on its way', () => {
  it('shows a notification that arrived before the code came, once it is there', async () => {
    const { client, service } = renderWithInbox(<Inbox toasts />, {
      fixture: buildFixture({
        workflows: [workflow('test-workflow', [inApp('Arrived early')])],
        messages: messages(TEST_SUBSCRIBER_ID, 1, { subject: 'Old one' }),
      }),
      provider: { pollInterval: 100 },
    })
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unseen' })
    bell.focus()
    // Let the first looks go by: what was there before is no arrival.
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)))
    await client.trigger({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID })
    await service.settle()
    // The live loop sees it while the toaster's code is still held back.
    await screen.findByRole('button', { name: 'Notifications, 2 unseen' })
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)))
    expect(document.querySelector('.inbox-toaster')).toBeNull()
    gate.open()
    const region = await screen.findByRole('region', { name: 'New notifications' })
    expect(region.textContent).toContain('Arrived early')
    // Only the arrival: not the one there before the inbox.
    expect(region.textContent).not.toContain('Old one')
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Dismiss' })).toHaveLength(1))
  })
})
