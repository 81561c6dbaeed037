import { createRoot } from 'react-dom/client'
import { Inbox } from '@novu/react'

createRoot(document.getElementById('root')!).render(<Inbox applicationIdentifier="bench" subscriberId="demo-user" />)
