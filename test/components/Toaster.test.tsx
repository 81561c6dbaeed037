// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Toaster } from '../../src/components/Toaster/Toaster'
import type { InboxSync } from '../../src/core/sync'
import { useInboxScope } from '../../src/provider/context'
import { buildFixture, messages, TEST_SUBSCRIBER_ID } from '../support/fixtures'
import { renderWithInbox, serviceFeed } from './setup'

let sync: InboxSync | undefined
/** The provider's sync object, where the live loop reports arrivals. */
function Grab() {
  sync = useInboxScope('Grab').sync
  return null
}

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
    await user.tab()
    expect(document.activeElement).toBe(dismiss[0])
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Dismiss' })).toHaveLength(1))
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Dismiss' }))
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull())
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Before' }))
  })
})
