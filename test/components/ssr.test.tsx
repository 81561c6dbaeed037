import { ar } from '../../src/locales/ar'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
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
