// @vitest-environment jsdom
import { act, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { Inbox } from '../../src/components/Inbox/Inbox'
import { buildFixture, messages, TEST_SUBSCRIBER_ID } from '../support/fixtures'
import { renderWithInbox } from './setup'

let online = true
Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online })
afterEach(() => {
  online = true
})

describe('<Inbox> opened while the browser is offline, its popover not fetched yet', () => {
  it('says it is offline, with nothing to try again, and opens by itself once the network is back', async () => {
    const { user } = renderWithInbox(<Inbox markSeenOnOpen={false} />, {
      fixture: buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 2, (i) => ({ subject: `Offline ${i}` })) }),
    })
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unseen' })
    online = false
    await user.click(bell)
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe('You’re offline. Notifications will update when you’re back online.')
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull()
    online = true
    act(() => void dispatchEvent(new Event('online')))
    expect(await screen.findByRole('dialog', { name: 'Notifications' })).toBeTruthy()
    expect(await screen.findByText('Offline 0')).toBeTruthy()
  })
})
