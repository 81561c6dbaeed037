import { createRoot } from 'react-dom/client'
import { Inbox } from '@novu/react'

createRoot(document.getElementById('root')!).render(
  <Inbox applicationIdentifier="bench" subscriberId="demo-user" apiUrl="http://127.0.0.1:9" socketUrl="ws://127.0.0.1:9" />,
)
