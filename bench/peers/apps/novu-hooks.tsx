import { createRoot } from 'react-dom/client'
import { NovuProvider, useCounts, useNotifications } from '@novu/react/hooks'

function Feed() {
  const { counts } = useCounts({ filters: [{ read: false }] })
  const { notifications, hasMore, fetchMore, readAll } = useNotifications()
  return (
    <section>
      <button onClick={() => void readAll()}>{counts?.[0]?.count ?? 0} unread</button>
      {notifications?.map((n) => (
        <p key={n.id} onClick={() => void n.read()}>
          {n.body}
        </p>
      ))}
      {hasMore && <button onClick={() => void fetchMore()}>More</button>}
    </section>
  )
}

createRoot(document.getElementById('root')!).render(
  <NovuProvider applicationIdentifier="bench" subscriberId="demo-user">
    <Feed />
  </NovuProvider>,
)
