import { createRoot } from 'react-dom/client'
import Provider from '@magicbell/react/context-provider'
import FloatingInbox from '@magicbell/react/floating-inbox'
import '@magicbell/react/styles/floating-inbox.css'
import '@magicbell/react/styles/inbox.css'

createRoot(document.getElementById('root')!).render(
  <Provider token="bench">
    <FloatingInbox />
  </Provider>,
)
