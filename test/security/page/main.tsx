import { Component, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import { createService } from '../../../server'
import { Inbox } from '../../../src/components/Inbox/Inbox'
import '../../../src/styles/index.css'
import { buildFixture, inApp, subscriber, workflow } from '../../support/fixtures'
import { INJECTIONS } from '../corpus'

declare global {
  interface Window {
    __ready?: { seeded: number; triggered: number; failed: string[] }
    __boundaryError?: string
  }
}

const SUBSCRIBER = 'reader'
const start = Date.parse('2026-01-01T12:00:00.000Z')

/** Every corpus string in every field of a stored message that a triggerer controls. */
const fixture = buildFixture({
  subscribers: [subscriber(SUBSCRIBER, { firstName: 'Reader' })],
  workflows: [
    workflow('test-workflow', [inApp('seeded')]),
    workflow('echo', [
      inApp('{{payload.text}} and {{actor.firstName}}', {
        subject: '{{payload.text}}',
        avatar: '{{payload.url}}',
        cta: { url: '{{payload.url}}', buttons: [{ type: 'primary', content: '{{payload.text}}' }] },
      }),
    ]),
  ],
  messages: INJECTIONS.map(({ value }, i) => ({
    subscriberId: SUBSCRIBER,
    workflow: 'test-workflow',
    createdAt: new Date(start - i * 60_000).toISOString(),
    subject: value,
    content: value,
    payload: { actorName: value, text: value, url: value, nested: { deep: value } },
    actor: { type: i % 2 ? 'user' : 'system_custom', data: value },
    cta: {
      type: 'redirect',
      data: { url: value },
      action: {
        status: 'pending',
        buttons: [
          { type: 'primary', content: value },
          { type: 'secondary', content: value },
        ],
      },
    },
  })),
})

const service = createService({ fixture })
const serviceFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
  service.fetch(new Request(new URL(String(input), 'http://inbox.test'), init))) as typeof fetch

/** The host page's own boundary: reaching it means the kit let an error escape. */
class HostBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override componentDidCatch(error: unknown) {
    window.__boundaryError = String(error)
  }
  override render() {
    return this.state.failed ? <p id="host-error">The host page caught an error.</p> : this.props.children
  }
}

async function triggerAll() {
  const failed: string[] = []
  for (const [i, { value }] of INJECTIONS.entries()) {
    const response = await serviceFetch('/v1/events/trigger', {
      method: 'POST',
      headers: { authorization: `ApiKey ${service.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'echo',
        to: SUBSCRIBER,
        payload: { text: value, url: value },
        actor: { subscriberId: `actor-${i}`, firstName: value.slice(0, 200), avatar: value },
      }),
    })
    const result = (await response.json()) as { status?: string }
    if (result.status !== 'processed') failed.push(`${i}: ${response.status} ${JSON.stringify(result).slice(0, 200)}`)
  }
  // Read already, so that clicking every link in the test does not also send a mark-as per item.
  const ids = service.state.messages(SUBSCRIBER).map((m) => m._id)
  for (let i = 0; i < ids.length; i += 100) {
    await serviceFetch(`/v1/subscribers/${SUBSCRIBER}/messages/mark-as`, {
      method: 'POST',
      headers: { authorization: `ApiKey ${service.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messageId: ids.slice(i, i + 100), markAs: 'read' }),
    })
  }
  return { seeded: INJECTIONS.length, triggered: INJECTIONS.length - failed.length, failed }
}

// `?dir=rtl` lays the page out right to left, as an Arabic or Hebrew app would.
document.documentElement.dir = new URLSearchParams(location.search).get('dir') === 'rtl' ? 'rtl' : 'ltr'

triggerAll().then((ready) => {
  createRoot(document.getElementById('root')!).render(
    <HostBoundary>
      <div className="bar">
        <Inbox
          subscriberId={SUBSCRIBER}
          baseUrl="http://inbox.test"
          apiKey={service.apiKey}
          fetch={serviceFetch}
          // Held open: every link is followed in one visit, and following one would close it.
          open
          markSeenOnOpen={false}
          pollInterval={0}
          limit={50}
        />
      </div>
    </HostBoundary>,
  )
  window.__ready = ready
})
