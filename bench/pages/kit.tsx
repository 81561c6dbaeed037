import { createRoot } from 'react-dom/client'
import { Inbox } from '../../src'
// As an app imports 'inbox-kit/styles.css'.
import '../../src/styles/index.css'

// The bench drives this page through its query string: which subscriber, key and poll interval, open or not.
const params = new URLSearchParams(location.search)

createRoot(document.getElementById('root')!).render(
  <Inbox
    subscriberId={params.get('subscriber') ?? 'demo-user'}
    baseUrl={`${location.origin}/api`}
    apiKey={params.get('key') ?? ''}
    pollInterval={Number(params.get('poll') ?? 30_000)}
    defaultOpen={params.has('open')}
    countKind={params.get('count') === 'unread' ? 'unread' : 'unseen'}
    limit={params.has('limit') ? Number(params.get('limit')) : undefined}
    // The reference service has no event stream (that is the proxy's, measured by bench/push-browser.ts).
    stream={false}
  />,
)
