import { createRoot } from 'react-dom/client'
import { useEffect } from 'react'
import { useCourier } from '@trycourier/courier-react'

function Feed() {
  const { auth, inbox } = useCourier()
  useEffect(() => {
    auth.signIn({ userId: 'demo-user', jwt: 'bench' })
    void inbox.load()
  }, [])
  const messages = Object.values(inbox.feeds).flatMap((feed) => feed.messages)
  return (
    <section>
      <button onClick={() => void inbox.readAllMessages()}>{inbox.totalUnreadCount ?? 0} unread</button>
      {messages.map((m) => (
        <p key={m.messageId} onClick={() => void inbox.readMessage(m)}>
          {m.body}
        </p>
      ))}
    </section>
  )
}

createRoot(document.getElementById('root')!).render(<Feed />)
