import { ar } from '../../src/locales/ar'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { feedQueryOptions } from '../../src/core/queries'
import { buildFixture, messages } from '../support/fixtures'
import { Bell } from '../../src/components/Bell/Bell'
import { Feed } from '../../src/components/Feed/Feed'
import { Inbox } from '../../src/components/Inbox/Inbox'
import { PreferencesPanel } from '../../src/components/PreferencesPanel/PreferencesPanel'
import { TopicSubscriptions } from '../../src/components/TopicSubscriptions/TopicSubscriptions'
import { InboxProvider } from '../../src/provider/InboxProvider'
import { TEST_SUBSCRIBER_ID } from '../support/fixtures'
import { setupService } from './setup-service'

describe('server rendering', () => {
  it('renders every component to HTML without a DOM', () => {
    expect(typeof document).toBe('undefined')
    const { client } = setupService()
    const html = renderToString(
      <InboxProvider subscriberId={TEST_SUBSCRIBER_ID} client={client} pollInterval={0} theme="system" messages={ar}>
        <Inbox defaultOpen />
        <Bell />
        <Feed />
        <PreferencesPanel />
        <TopicSubscriptions />
      </InboxProvider>,
    )
    expect(html).toContain('aria-haspopup="dialog"')
    expect(html).toContain('data-inbox-theme="light"')
    expect(html).toContain('dir="rtl"')
    expect(html).toContain('جارٍ تحميل الإشعارات')
  })
})

describe('relative times on the server', () => {
  it('are counted from the time of the render, not from when the server loaded the kit', async () => {
    // A server that has run for two hours renders what was created a moment ago.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 3_600_000 })
    try {
      const { client, queryClient } = setupService(
        buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 1, { createdAt: new Date().toISOString() }) }),
      )
      await queryClient.fetchInfiniteQuery(feedQueryOptions({ client, subscriberId: TEST_SUBSCRIBER_ID }, {}))
      const html = renderToString(
        <InboxProvider subscriberId={TEST_SUBSCRIBER_ID} client={client} queryClient={queryClient} pollInterval={0}>
          <Feed />
        </InboxProvider>,
      )
      expect(html).toMatch(/<time [^>]*>now<\/time>/)
    } finally {
      vi.useRealTimers()
    }
  })
})
