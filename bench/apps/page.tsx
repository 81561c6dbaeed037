import { createRoot } from 'react-dom/client'
import { InboxPage, InboxProvider } from '../../src'
import '../../src/styles/index.css'

createRoot(document.getElementById('root')!).render(
  <InboxProvider subscriberId="demo-user" baseUrl="/api" apiKey="key">
    <InboxPage onSelect={(id) => history.pushState(null, '', id ? `/inbox/${id}` : '/inbox')} />
  </InboxProvider>,
)
