import { createRoot } from 'react-dom/client'
import { InboxInline, InboxProvider } from '../../src'
import '../../src/styles/index.css'

createRoot(document.getElementById('root')!).render(
  <InboxProvider subscriberId="demo-user" baseUrl="/api" apiKey="key">
    <InboxInline />
  </InboxProvider>,
)
