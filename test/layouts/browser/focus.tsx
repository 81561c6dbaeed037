import { QueryClient } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { useState } from 'react'
import { createService } from '../../../server'
import { storeOf } from '../../../server/service'
import { InboxInline, InboxPage, InboxProvider, Toaster, useInboxContext } from '../../../src'
import { useInboxScope } from '../../../src/provider/context'
import type { InboxSync } from '../../../src/core/sync'
import '../../../src/styles/index.css'
import { buildFixture, messages, TEST_SUBSCRIBER_ID } from '../../support/fixtures'
import { pageClient } from '../../support/pageClient'
import { createInboxClient } from '../../../src/api/client'

// Subjects 0 to 5, newest first; 0 and 1 ask for an answer (Approve, Reject); 4 on are read; 2 and 3 make a
// thread (`#focus-threads`). `?n=` another number of them, `?limit=` items a page, `?failMore` the second page's first
// request refused, `?poll=` ms between looks (none by default).
const params = new URLSearchParams(location.search)
const count = Number(params.get('n') ?? 6)
const limit = params.has('limit') ? Number(params.get('limit')) : undefined
const service = createService({
  fixture: buildFixture({
    messages: messages(TEST_SUBSCRIBER_ID, count, (i) => ({
      subject: `Subject ${i}`,
      content: `Body ${i}`,
      read: i >= 4,
      seen: i >= 4,
      payload: { thread: i === 2 || i === 3 ? 'pair' : `own-${i}` },
      ...(i < 2
        ? {
            cta: {
              data: { url: `/items/${i}` },
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
let secondPages = 0
/** Feed reads the service has refused so far (an injected fault), for a test to wait on one. */
let feedRefusals = 0
const client = createInboxClient({
  baseUrl: 'http://inbox.test',
  apiKey: service.apiKey,
  fetch: ((input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(new URL(String(input), 'http://inbox.test'), init)
    if (params.has('failMore') && request.url.endsWith('page=1') && secondPages++ === 0)
      service.faults.add({ path: /\/feed$/, status: 500, times: 1 })
    const answer = service.fetch(request)
    if (new URL(request.url).pathname.endsWith('/feed'))
      void answer.then((response) => response.status === 500 && feedRefusals++).catch(() => {})
    return answer
  }) as typeof fetch,
  retry: false,
})
// Another device of the same reader, talking to the same service.
const elsewhere = pageClient(service)
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
const store = storeOf(service)
const idOf = (subject: string) => [...store.messageById.values()].find((m) => m.subject === subject)!._id

/** Hands the page's controls to the tests: a refresh as the live loop makes one, and the provider's sync object. */
function Controls() {
  const { refresh } = useInboxContext()
  const { sync } = useInboxScope('Controls')
  Object.assign(window, { __refresh: refresh, __sync: sync })
  return null
}

function Page({ custom }: { custom?: boolean }) {
  const [selected, setSelected] = useState<string | null>(null)
  return (
    <InboxPage
      selectedId={selected}
      onSelect={setSelected}
      markSeenOnOpen={false}
      // An app's own detail, without a heading: its Approve button goes once the notification is answered.
      renderDetail={
        custom
          ? (item) => (
              <div>
                <p>{item.content}</p>
                {item.cta?.action?.status === 'pending' ? <button type="button">Approve</button> : <p>Done</p>}
              </div>
            )
          : undefined
      }
    />
  )
}

// #focus, #focus-page, #focus-page-custom (a `renderDetail`), #focus-threads.
const scenario = location.hash.slice('#focus-'.length)
createRoot(document.getElementById('root')!).render(
  <InboxProvider
    subscriberId={TEST_SUBSCRIBER_ID}
    client={client}
    queryClient={queryClient}
    pollInterval={Number(params.get('poll') ?? 0)}
  >
    <Controls />
    <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
      <button type="button">Before</button>
      {scenario.startsWith('page') ? (
        <Page custom={scenario === 'page-custom'} />
      ) : (
        <InboxInline
          markSeenOnOpen={false}
          limit={limit}
          style={{ flex: 1, minHeight: 0 }}
          groupBy={scenario === 'threads' ? 'thread' : undefined}
        />
      )}
      <Toaster max={2} />
    </div>
  </InboxProvider>,
)
Object.assign(window, {
  __ready: true,
  __service: service,
  __feedRefusals: () => feedRefusals,
  /** The service answers a notification's action, as the app's backend does once the reader pressed a button. */
  __answer: (subject: string) => {
    const action = store.messageById.get(idOf(subject))!.cta.action!
    action.status = 'done'
    action.result = { type: 'primary', payload: {} }
  },
  /** Shows the toasts of these notifications, as the live loop does when they arrive. */
  __arrive: async (...subjects: string[]) => {
    const { data } = await elsewhere.getFeed(TEST_SUBSCRIBER_ID, { limit: 100 })
    const items = subjects.map((s) => data.find((i) => i.subject === s)!)
    const sync = (window as unknown as { __sync: InboxSync }).__sync
    sync.store.setState((s) => ({ arrived: { items, n: (s.arrived?.n ?? 0) + 1 } }))
  },
  /** A new notification, sent through the service's trigger. */
  __trigger: async () => {
    await service.fetch(
      new Request('http://inbox.test/v1/events/trigger', {
        method: 'POST',
        headers: { authorization: `ApiKey ${service.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID, payload: {} }),
      }),
    )
    await service.settle()
  },
  /** Marks a notification read from another device. */
  __readElsewhere: (subject: string) =>
    elsewhere.markAs(TEST_SUBSCRIBER_ID, { messageId: [idOf(subject)], markAs: 'read' }),
})

/** Named by entry.ts, so that a build keeps this module (the package says its modules have no side effects). */
export const page = true
