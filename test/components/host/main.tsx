import { QueryClient } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { createService } from '../../../server'
import { Inbox } from '../../../src/components/Inbox/Inbox'
import type { InboxPlacement } from '../../../src/components/Inbox/root'
import '../../../src/styles/index.css'
import { buildFixture, inApp, messages, subscriber, TEST_SUBSCRIBER_ID, workflow } from '../../support/fixtures'
import { pageClient } from '../../support/pageClient'

const params = new URLSearchParams(location.search)
// `schedule`: the subscriber is on Mondays 9 to 5 (the settings view shows its checkboxes and time fields).
const schedule = {
  isEnabled: true,
  weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] } },
}
const service = createService({
  fixture: buildFixture({
    ...(params.has('schedule')
      ? { subscribers: [subscriber(TEST_SUBSCRIBER_ID, { firstName: 'Ada', preferences: { schedule } })] }
      : {}),
    workflows: [
      workflow('test-workflow', [inApp('Hello {{subscriber.firstName}}')]),
      workflow('said', [inApp('{{payload.body}}', { subject: '{{payload.subject}}' })]),
    ],
    messages: messages(TEST_SUBSCRIBER_ID, 12, (i) => ({
      subject: `Deployment ${i} of the billing service`,
      content: 'The build finished and every check passed. '.repeat(1 + (i % 3)),
      read: i % 2 === 1,
      seen: i % 2 === 1,
      actor: i % 3 === 0 ? { type: 'none', data: null } : { type: 'system_icon', data: 'info' },
      ...(i === 0
        ? {
            cta: {
              type: 'redirect' as const,
              data: { url: '/deploy/0' },
              action: { buttons: [{ type: 'primary' as const, content: 'Approve' }] },
            },
          }
        : {}),
    })),
  }),
})
const client = pageClient(service)

document.getElementById('host')!.textContent = params.get('css') ?? ''
// `late`: the app's rules come after the kit's stylesheet, as when an app imports its own CSS after the kit's.
if (params.has('late')) document.body.append(document.getElementById('host')!)
const theme = (params.get('theme') ?? 'light') as 'light' | 'dark' | 'system'
// `portal`: the popover renders at the end of the body.
// `toasts`: the inbox shows toasts, polls every 200 ms, and `window.arrive()` sends it a notification
// (`arrive({ subject, body })`: one with that subject and body). `poll`: the poll interval in ms without toasts
// (none by default).
const toasts = params.has('toasts')
Object.assign(window, {
  arrive: (payload?: { subject: string; body: string }) =>
    client.trigger(
      payload ? { name: 'said', to: TEST_SUBSCRIBER_ID, payload } : { name: 'test-workflow', to: TEST_SUBSCRIBER_ID },
    ),
})

createRoot(document.getElementById('root')!).render(
  <header id="bar">
    <strong>App</strong>
    <Inbox
      subscriberId={TEST_SUBSCRIBER_ID}
      client={client}
      queryClient={new QueryClient()}
      pollInterval={toasts ? 200 : Number(params.get('poll') ?? 0)}
      stream={false}
      theme={theme}
      toasts={toasts}
      portal={params.has('portal')}
      placement={(params.get('placement') ?? undefined) as InboxPlacement | undefined}
    />
  </header>,
)
