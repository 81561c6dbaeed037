import { QueryClient } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { createService } from '../../../server'
import { Feed } from '../../../src/components/Feed/Feed'
import { feedQueryOptions } from '../../../src/core/queries'
import { InboxProvider } from '../../../src/provider/InboxProvider'
import '../../../src/styles/index.css'
import { buildFixture, messages, TEST_SUBSCRIBER_ID } from '../../support/fixtures'
import { pageClient } from '../../support/pageClient'

const COUNT = 10_000
const words = 'the build for the billing service finished and every check passed on the main branch'.split(' ')

// Contents of varying length, so rows have different measured heights.
const service = createService({
  fixture: buildFixture({
    messages: messages(TEST_SUBSCRIBER_ID, COUNT, (i) => ({
      subject: `Subject ${i}`,
      // Every 37th row is far taller than the estimate, as very long untrusted text makes it.
      content: words
        .slice(0, 3 + ((i * 7) % words.length))
        .join(' ')
        .repeat(i % 37 === 5 ? 60 : 1 + (i % 4)),
    })),
  }),
})
const client = pageClient(service)
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
await queryClient.fetchInfiniteQuery({
  ...feedQueryOptions({ client, subscriberId: TEST_SUBSCRIBER_ID }, { limit: 100 }),
  pages: COUNT / 100,
})

createRoot(document.getElementById('root')!).render(
  <InboxProvider subscriberId={TEST_SUBSCRIBER_ID} client={client} queryClient={queryClient} pollInterval={0}>
    <div id="frame">
      <Feed limit={100} />
    </div>
  </InboxProvider>,
)
;(window as unknown as { __ready: boolean }).__ready = true
