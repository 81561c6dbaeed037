import { createRoot } from 'react-dom/client'
import { Inbox } from '../../src'
import { markdownBody } from '../../src/markdown'
import '../../src/styles/index.css'

// The full <Inbox/> with Markdown bodies: its cost over bench/apps/inbox.tsx is the markdown entry's.
createRoot(document.getElementById('root')!).render(
  <Inbox subscriberId="demo-user" baseUrl="/api" apiKey="key" renderBody={markdownBody} />,
)
