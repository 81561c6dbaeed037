import { createRoot } from 'react-dom/client'
import { Bell, Feed, InboxProvider } from '../../../src'
import type { FeedItem } from '../../../src/api/types'
import '../../../src/styles/index.css'

/** What the page records for the test that drives it. */
interface Record {
  /** Every request this tab sent to the service, with the page's clock (faked by some tests). */
  sent: { url: string; at: number }[]
  /** Each call of onNotification, with the ids it got. */
  notified: string[][]
}

// Driven by the query string: which subscriber and key, a fixed poll period or the adaptive default, the list or not.
const params = new URLSearchParams(location.search)
const record: Record = { sent: [], notified: [] }
Object.assign(window, { __live: record })

const tagged: typeof fetch = (input, init) => {
  record.sent.push({ url: String(input instanceof Request ? input.url : input), at: Date.now() })
  return fetch(input, init)
}

createRoot(document.getElementById('root')!).render(
  <InboxProvider
    subscriberId={params.get('subscriber') ?? 'user-1'}
    baseUrl={`${location.origin}/api`}
    apiKey={params.get('key') ?? ''}
    pollInterval={params.has('poll') ? Number(params.get('poll')) : undefined}
    stream={false}
    fetch={tagged}
    onNotification={(items: FeedItem[]) => record.notified.push(items.map((i) => i._id))}
  >
    <Bell countKind="unread" />
    {params.has('list') && (
      <div style={{ display: 'flex', flexDirection: 'column', width: 400, height: 500 }}>
        <Feed limit={10} />
      </div>
    )}
  </InboxProvider>,
)
