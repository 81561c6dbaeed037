import { QueryClient } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { createService } from '../../../server'
import { Inbox, InboxPage, InboxProvider } from '../../../src'
import { ar } from '../../../src/locales/ar'
import { de } from '../../../src/locales/de'
import '../../../src/styles/index.css'
import { buildFixture, messages, TEST_SUBSCRIBER_ID } from '../../support/fixtures'
import { pageClient } from '../../support/pageClient'

const params = new URLSearchParams(location.search)
const count = Number(params.get('n') ?? 30)
const lang = params.get('lang') ?? 'en'
const long = params.has('long')
const now = Date.now()

const service = createService({
  fixture: buildFixture({
    messages: messages(TEST_SUBSCRIBER_ID, count, (i) => ({
      createdAt: new Date(now - i * 3 * 3_600_000).toISOString(),
      subject:
        long && i === 0
          ? 'Donaudampfschifffahrtsgesellschaftskapitänswitwenrentenversicherungsanstalt'
          : `Subject ${i}`,
      content: long && i === 0 ? 'https://example.com/' + 'a'.repeat(300) : `Body of message ${i}`,
      read: i % 3 === 2,
      seen: i % 3 === 2,
      ...(i === 1 ? { cta: { type: 'redirect', data: { url: '/x' } } } : {}),
    })),
  }),
})
const client = pageClient(service)
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
const locales = { ar, de } as Record<string, typeof ar>
const scenario = location.hash.slice(1)
let selected: string | null = null
const setSelected = (id: string | null) => {
  selected = id
  render()
}

const app = createRoot(document.getElementById('root')!)
const render = () =>
  app.render(
    <InboxProvider
      subscriberId={TEST_SUBSCRIBER_ID}
      client={client}
      queryClient={queryClient}
      pollInterval={Number(params.get('poll') ?? 0)}
      messages={locales[lang]}
    >
      {scenario === 'page' ? (
        <div style={{ height: '100vh' }}>
          <InboxPage selectedId={selected} onSelect={setSelected} />
        </div>
      ) : (
        <header dir={locales[lang]?.dir}>
          <a href="#before">Before</a>
          <Inbox markSeenOnOpen={false} />
          <a href="#after">After</a>
        </header>
      )}
    </InboxProvider>,
  )
render()
;(window as unknown as { __service: typeof service }).__service = service
;(window as unknown as { __ready: boolean }).__ready = true
