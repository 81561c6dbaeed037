import { QueryClient } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { createService } from '../../../server'
import { Feed } from '../../../src/components/Feed/Feed'
import { Inbox } from '../../../src/components/Inbox/Inbox'
import { ar } from '../../../src/locales/ar'
import { InboxProvider } from '../../../src/provider/InboxProvider'
import '../../../src/styles/index.css'
import { buildFixture, messages, TEST_SUBSCRIBER_ID } from '../../support/fixtures'
import { pageClient } from '../../support/pageClient'

// `#other-way[-ar]`: bodies written the other way from the inbox's strings: Arabic in an English feed, English in
// an Arabic one.
const otherWay = /^#other-way(-ar)?$/.exec(location.hash)
const body = !otherWay
  ? 'The build finished and every check passed on the main branch. '
  : otherWay[1]
    ? 'Mara mentioned you in the launch plan: can you review the notes before Thursday? '
    : 'أشارت إليك مارا في خطة الإطلاق: هل يمكنك مراجعة الملاحظات قبل يوم الخميس؟ '

// Rows of several heights, with and without an avatar, read and unread, and one whose change fails.
const service = createService({
  fixture: buildFixture({
    messages: messages(TEST_SUBSCRIBER_ID, 12, (i) => ({
      subject: `Deployment ${i} of the billing service`,
      content: body.repeat(1 + (i % 3)),
      read: i % 2 === 1,
      seen: i % 2 === 1,
      actor: i % 3 === 0 ? { type: 'none', data: null } : { type: 'system_icon', data: 'info' },
    })),
  }),
})
service.faults.add({ method: 'POST', path: /mark-as$/, status: 500 })
const client = pageClient(service)

// `#placement-<side>[-ar]`: an <Inbox> at one end of a flex header that stretches its items (no align-items),
// in English or in Arabic (right to left) on this left-to-right page; the service answers without latency.
// `-low`: the header at the bottom of the viewport, where the popover fits only above the bell.
const placement = /^#placement-(start|end)(-ar)?(-low)?$/.exec(location.hash)

createRoot(document.getElementById('root')!).render(
  placement ? (
    <header
      style={{
        display: 'flex',
        justifyContent: placement[1] === 'end' ? 'space-between' : 'flex-start',
        height: 96,
        marginTop: placement[3] ? 600 : 0,
        padding: '0 12px',
        background: '#eee',
      }}
    >
      <strong>App</strong>
      <Inbox
        subscriberId={TEST_SUBSCRIBER_ID}
        client={client}
        queryClient={new QueryClient()}
        pollInterval={0}
        stream={false}
        messages={placement[2] ? ar : undefined}
        style={placement[1] === 'start' ? { order: -1 } : undefined}
      />
    </header>
  ) : (
    <InboxProvider
      subscriberId={TEST_SUBSCRIBER_ID}
      client={client}
      queryClient={new QueryClient()}
      pollInterval={0}
      stream={false}
      messages={otherWay?.[1] ? ar : undefined}
    >
      <div id="frame">
        <Feed limit={50} groupByDay={false} />
      </div>
    </InboxProvider>
  ),
)
