import { createRoot } from 'react-dom/client'
import { InboxProvider, useCounts, useFeed, useMarkAll, useMarkAs } from '../../src'

// The headless layer alone: the kit's data and state, with the app's own markup.
function Feed() {
  const counts = useCounts()
  const feed = useFeed()
  const { markAs } = useMarkAs()
  const { markAll } = useMarkAll('read')
  return (
    <section>
      <button onClick={() => void markAll()}>{counts.unread} unread</button>
      {feed.items.map((item) => (
        <button key={item._id} type="button" onClick={() => void markAs({ ids: [item._id], markAs: 'read' })}>
          {item.content}
        </button>
      ))}
      {feed.hasMore && <button onClick={() => void feed.fetchNextPage()}>More</button>}
    </section>
  )
}

createRoot(document.getElementById('root')!).render(
  <InboxProvider subscriberId="demo-user" baseUrl="/api" apiKey="key">
    <Feed />
  </InboxProvider>,
)
