import { createRoot } from 'react-dom/client'
import { Inbox } from '../../src'
import '../../src/styles/index.css'

// The push bench's page: signed in with the token in the query string, the inbox reads instance A's proxy.
// Polling is left at a minute, so that only the event stream can explain an arrival within seconds.
const params = new URLSearchParams(location.search)
const token = params.get('token') ?? ''

createRoot(document.getElementById('root')!).render(
  <Inbox
    subscriberId={params.get('subscriber') ?? 'demo-user'}
    baseUrl={`${location.origin}/api/inbox`}
    headers={{ authorization: `Bearer ${token}` }}
    pollInterval={60_000}
    countKind="unread"
  />,
)
