import { createRoot } from 'react-dom/client'
import { KnockFeedProvider, KnockProvider, useKnockFeed } from '@knocklabs/react-core'

function Feed() {
  const { feedClient, useFeedStore } = useKnockFeed()
  const { items, metadata, pageInfo } = useFeedStore((state) => state)
  return (
    <section>
      <button onClick={() => void feedClient.markAllAsRead()}>{metadata.unread_count} unread</button>
      {items.map((item) => (
        <p key={item.id} onClick={() => void feedClient.markAsRead(item)}>
          {item.blocks[0]?.type === 'markdown' ? item.blocks[0].rendered : ''}
        </p>
      ))}
      {pageInfo.after && <button onClick={() => void feedClient.fetchNextPage()}>More</button>}
    </section>
  )
}

createRoot(document.getElementById('root')!).render(
  <KnockProvider apiKey="pk_test_bench" userId="demo-user">
    <KnockFeedProvider feedId="00000000-0000-0000-0000-000000000000">
      <Feed />
    </KnockFeedProvider>
  </KnockProvider>,
)
