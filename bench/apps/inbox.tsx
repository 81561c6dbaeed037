import { createRoot } from 'react-dom/client'
import { Inbox } from '../../src'
// As an app imports 'inbox-kit/styles.css'.
import '../../src/styles/index.css'

createRoot(document.getElementById('root')!).render(<Inbox subscriberId="demo-user" baseUrl="/api" apiKey="key" />)
