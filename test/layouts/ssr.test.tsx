import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import {
  Feed,
  InboxContent,
  InboxHeader,
  InboxInline,
  InboxPage,
  InboxProvider,
  InboxRoot,
  InboxTrigger,
} from '../../src'
import { feedQueryOptions } from '../../src/core/queries'
import { setupService } from '../components/setup-service'
import { buildFixture, messages, TEST_SUBSCRIBER_ID } from '../support/fixtures'

describe('server rendering of the parts and layouts', () => {
  it('renders a popover from parts open with defaultOpen, the inline inbox and the page with its selection, without a DOM', async () => {
    expect(typeof document).toBe('undefined')
    const { client, queryClient } = setupService(
      buildFixture({
        messages: messages(TEST_SUBSCRIBER_ID, 3, (i) => ({ subject: `Subject ${i}`, content: `Body ${i}` })),
      }),
    )
    await queryClient.fetchInfiniteQuery(feedQueryOptions({ client, subscriberId: TEST_SUBSCRIBER_ID }, {}))
    const id = (
      queryClient.getQueryData(feedQueryOptions({ client, subscriberId: TEST_SUBSCRIBER_ID }, {}).queryKey) as {
        pages: { data: { _id: string }[] }[]
      }
    ).pages[0]!.data[1]!._id
    const html = (ui: React.ReactNode) =>
      renderToString(
        <InboxProvider subscriberId={TEST_SUBSCRIBER_ID} client={client} queryClient={queryClient} pollInterval={0}>
          {ui}
        </InboxProvider>,
      )
    const open = html(
      <InboxRoot defaultOpen>
        <InboxTrigger asChild>
          <button type="button">Inbox</button>
        </InboxTrigger>
        <InboxContent>
          <InboxHeader title="Updates" />
          <Feed />
        </InboxContent>
      </InboxRoot>,
    )
    expect(open).toContain('role="dialog"')
    expect(open).toContain('aria-expanded="true"')
    expect(open).toContain('Updates')
    expect(
      html(
        <InboxRoot>
          <InboxTrigger />
          <InboxContent />
        </InboxRoot>,
      ),
    ).not.toContain('role="dialog"')

    const inline = html(<InboxInline />)
    expect(inline).toContain('<section')
    expect(inline).toContain('data-part="inline"')
    expect(inline).toContain('Subject 0')

    const page = html(<InboxPage defaultSelectedId={id} />)
    expect(page).toContain('data-selected=""')
    expect(page).toMatch(/<h2[^>]*data-part="detail-title"[^>]*>Subject 1<\/h2>/)
    expect(page).toContain('Body 1')
  })

  it('tells relative times from the time of the request, not from when the server started', async () => {
    const { client, queryClient } = setupService(
      buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 1, { subject: 'Subject 0' }) }),
    )
    await queryClient.fetchInfiniteQuery(feedQueryOptions({ client, subscriberId: TEST_SUBSCRIBER_ID }, {}))
    const render = () =>
      renderToString(
        <InboxProvider subscriberId={TEST_SUBSCRIBER_ID} client={client} queryClient={queryClient} pollInterval={0}>
          <InboxInline />
        </InboxProvider>,
      )
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      // The fixture's message was created at noon; the server renders pages an hour, then a day, later.
      vi.setSystemTime(Date.parse('2026-01-01T13:00:00Z'))
      expect(render()).toContain('1 hour ago')
      vi.setSystemTime(Date.parse('2026-01-02T15:00:00Z'))
      expect(render()).toMatch(/yesterday|1 day ago/)
    } finally {
      vi.useRealTimers()
    }
  })
})
