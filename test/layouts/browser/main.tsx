import { QueryClient } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { useState } from 'react'
import { createService } from '../../../server'
import { createInboxClient } from '../../../src/api/client'
import { Feed, Inbox, InboxContent, InboxHeader, InboxPage, InboxProvider, InboxRoot, InboxTrigger } from '../../../src'
import { markdownBody } from '../../../src/markdown'
import '../../../src/styles/index.css'
import { buildFixture, messages, TEST_SUBSCRIBER_ID } from '../../support/fixtures'

// Three threads' worth of comments (pr 12 has three, two of them unread), then stand-alone items, the first with
// a link and action buttons.
const service = createService({
  fixture: buildFixture({
    messages: messages(TEST_SUBSCRIBER_ID, 8, (i) => ({
      subject: i < 3 ? `Comment ${i} on PR #12` : `Subject ${i}`,
      content: i === 3 ? '**Deploy** finished, see [the log](https://ci.example/1)' : `Body ${i}`,
      read: i === 2 || i >= 5,
      seen: i >= 5,
      ...(i < 3 ? { payload: { pr: 12 } } : {}),
      ...(i === 3
        ? {
            cta: {
              data: { url: '/items/3' },
              action: {
                status: 'pending' as const,
                buttons: [
                  { type: 'primary' as const, content: 'Approve' },
                  { type: 'secondary' as const, content: 'Reject' },
                ],
              },
            },
          }
        : {}),
    })),
  }),
})
const requests: string[] = []
const client = createInboxClient({
  baseUrl: 'http://inbox.test',
  apiKey: service.apiKey,
  fetch: ((input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(new URL(String(input), 'http://inbox.test'), init)
    requests.push(`${request.method} ${new URL(request.url).pathname}`)
    return service.fetch(request)
  }) as typeof fetch,
  retry: false,
})
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })

/** `late`: the selection comes back 80 ms after it is asked for, as a router's navigation does. */
function Page({ initial = null, late = false }: { initial?: string | null; late?: boolean }) {
  const [selected, setSelected] = useState<string | null>(initial)
  // The app's own change of the selection (its router going back), as the tests make it.
  Object.assign(window, { __select: setSelected })
  return (
    <div style={{ height: '100vh' }}>
      <InboxPage
        selectedId={selected}
        onSelect={late ? (id) => setTimeout(() => setSelected(id), 80) : setSelected}
        markSeenOnOpen={false}
        renderBody={markdownBody}
      />
    </div>
  )
}

const scenario = location.hash.slice(1)
const app =
  scenario === 'page' ? (
    <Page />
  ) : scenario === 'page-late' ? (
    <Page late />
  ) : scenario === 'page-missing' ? (
    // A link to a notification the feed does not hold (deleted since, or never the reader's).
    <Page initial={'f'.repeat(24)} />
  ) : scenario === 'threads' ? (
    <div style={{ height: '100vh', display: 'flex' }}>
      <Feed groupBy="pr" style={{ flex: 1 }} />
    </div>
  ) : scenario === 'unstyled' ? (
    <>
      <Inbox aria-label="styled" />
      <Inbox aria-label="unstyled" unstyled />
    </>
  ) : (
    <div style={{ display: 'flex', gap: 40, padding: 16, justifyContent: 'space-between' }}>
      <Inbox aria-label="first" markSeenOnOpen={false} placement="bottom-start" />
      <InboxRoot aria-label="custom">
        <InboxTrigger asChild>
          <button type="button" id="custom-trigger">
            Inbox
          </button>
        </InboxTrigger>
        <InboxContent portal>
          <InboxHeader title="Updates" />
          <Feed markSeenOnView={false} />
        </InboxContent>
      </InboxRoot>
      <Inbox aria-label="second" markSeenOnOpen={false} />
    </div>
  )

createRoot(document.getElementById('root')!).render(
  <InboxProvider subscriberId={TEST_SUBSCRIBER_ID} client={client} queryClient={queryClient} pollInterval={0}>
    {app}
  </InboxProvider>,
)
Object.assign(window, { __ready: true, __requests: requests, __service: service })

/** Named by entry.ts, so that a build keeps this module (the package says its modules have no side effects). */
export const page = true
