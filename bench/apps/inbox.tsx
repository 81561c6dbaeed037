import { createRoot } from 'react-dom/client'
import { Inbox } from '../../src'

createRoot(document.getElementById('root')!).render(<Inbox subscriberId="demo-user" baseUrl="/api" apiKey="key" />)
