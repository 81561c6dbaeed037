import { createRoot } from 'react-dom/client'
import { useRef, useState } from 'react'
import { KnockFeedProvider, KnockProvider, NotificationFeedPopover, NotificationIconButton } from '@knocklabs/react'
import '@knocklabs/react/dist/index.css'

function App() {
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  return (
    <KnockProvider apiKey="pk_test_bench" userId="demo-user">
      <KnockFeedProvider feedId="00000000-0000-0000-0000-000000000000">
        <>
          <NotificationIconButton ref={button} onClick={() => setOpen(!open)} />
          <NotificationFeedPopover buttonRef={button} isVisible={open} onClose={() => setOpen(false)} />
        </>
      </KnockFeedProvider>
    </KnockProvider>
  )
}

createRoot(document.getElementById('root')!).render(<App />)
