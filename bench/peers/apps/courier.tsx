import { createRoot } from 'react-dom/client'
import { useEffect } from 'react'
import { CourierInboxPopupMenu, useCourier } from '@trycourier/courier-react'

function App() {
  const courier = useCourier()
  useEffect(() => {
    courier.auth.signIn({ userId: 'demo-user', jwt: 'bench' })
  }, [])
  return <CourierInboxPopupMenu />
}

createRoot(document.getElementById('root')!).render(<App />)
