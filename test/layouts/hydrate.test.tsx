// @vitest-environment jsdom
import { QueryClient, dehydrate } from '@tanstack/react-query'
import { act, cleanup, waitFor } from '@testing-library/react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { InboxInline, InboxProvider } from '../../src'
import { feedQueryOptions } from '../../src/core/queries'
import { setupService } from '../components/setup-service'
import { buildFixture, messages, TEST_SUBSCRIBER_ID } from '../support/fixtures'

const zone = process.env.TZ

afterEach(() => {
  cleanup()
  vi.useRealTimers()
  process.env.TZ = zone
})

describe('hydrating what a server in another time zone rendered', () => {
  it('hydrates the same day groups and times, then tells them in the reader’s zone', async () => {
    const now = Date.parse('2026-03-10T10:30:00Z')
    vi.useFakeTimers({ toFake: ['Date'], now })
    // One, six and eleven hours ago: today and yesterday in UTC; all yesterday at UTC+14, where it is 00:30.
    const { client, queryClient } = setupService(
      buildFixture({
        messages: messages(TEST_SUBSCRIBER_ID, 3, (i) => ({
          subject: `Subject ${i}`,
          createdAt: new Date(now - (1 + 5 * i) * 3_600_000).toISOString(),
        })),
      }),
    )
    await queryClient.fetchInfiniteQuery(feedQueryOptions({ client, subscriberId: TEST_SUBSCRIBER_ID }, {}))
    const ui = (
      <InboxProvider subscriberId={TEST_SUBSCRIBER_ID} client={client} queryClient={queryClient} pollInterval={0}>
        <InboxInline />
      </InboxProvider>
    )
    process.env.TZ = 'America/Los_Angeles'
    const html = renderToString(ui)
    expect(html).toContain('Today')
    expect(html).toContain('Yesterday')

    process.env.TZ = 'Pacific/Kiritimati'
    const container = document.createElement('div')
    container.innerHTML = html
    document.body.appendChild(container)
    const recoverable: unknown[] = []
    const root = await act(async () => hydrateRoot(container, ui, { onRecoverableError: (e) => recoverable.push(e) }))
    expect(recoverable).toEqual([])
    // Hydrated, the groups are the reader's: all three were yesterday where it is now half past midnight.
    const headers = [...container.querySelectorAll('.inbox-feed__day')].map((h) => h.textContent)
    expect(headers).toEqual(['Yesterday'])
    act(() => root.unmount())
    container.remove()
  })

  it('hydrates the times the server told however far the reader’s clock is from it, then tells them from the reader’s', async () => {
    const read = Date.parse('2026-03-10T10:30:10Z')
    vi.useFakeTimers({ toFake: ['Date'], now: read })
    const { client, queryClient } = setupService(
      buildFixture({
        messages: messages(TEST_SUBSCRIBER_ID, 1, {
          subject: 'Subject 0',
          createdAt: new Date(read - 4 * 60_000).toISOString(),
        }),
      }),
    )
    await queryClient.fetchInfiniteQuery(feedQueryOptions({ client, subscriberId: TEST_SUBSCRIBER_ID }, {}))
    const initialState = dehydrate(queryClient)
    const ui = (browser: QueryClient) => (
      <InboxProvider
        subscriberId={TEST_SUBSCRIBER_ID}
        client={client}
        queryClient={browser}
        initialState={initialState}
        pollInterval={0}
      >
        <InboxInline />
      </InboxProvider>
    )
    // The server renders a moment after it read the data, at a tick's edge.
    vi.setSystemTime(read + 20_000)
    const html = renderToString(ui(new QueryClient()))
    expect(html).toMatch(/<time [^>]*>4 minutes ago<\/time>/)

    // The reader's clock is two minutes ahead of the server's, and the page's code came late.
    vi.setSystemTime(read + 2 * 60_000 + 35_000)
    const container = document.createElement('div')
    container.innerHTML = html
    document.body.appendChild(container)
    const recoverable: unknown[] = []
    const root = await act(async () =>
      hydrateRoot(container, ui(new QueryClient()), { onRecoverableError: (e) => recoverable.push(e) }),
    )
    expect(recoverable).toEqual([])
    // Hydrated, the time is the reader's.
    await waitFor(() => expect(container.querySelector('time')!.textContent).toBe('7 minutes ago'))
    act(() => root.unmount())
    container.remove()
  })
})
