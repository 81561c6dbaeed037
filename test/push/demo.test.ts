import { afterAll, describe, expect, it } from 'vitest'
import { createDemo } from '../../demo/server/backend'
import { startVite } from '../support/browser'
import { readStream } from './sse'

const SECRET = 'demo-push-test-secret-of-at-least-32-bytes'
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }

/** Signs in as the page does and answers the token. */
async function signIn(call: (path: string, init?: RequestInit) => Promise<Response>, subscriberId: string) {
  const response = await call('/demo-auth/session', {
    method: 'POST',
    headers: SAME_ORIGIN,
    body: JSON.stringify({ subscriberId }),
  })
  return ((await response.json()) as { token: string }).token
}

/** Sends a workflow from the admin panel, as the page's send panel does. */
function send(call: (path: string, init?: RequestInit) => Promise<Response>, token: string, to: string) {
  return call('/demo-admin/v1/events/trigger', {
    method: 'POST',
    headers: { ...SAME_ORIGIN, authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'comment-mention', to }),
  })
}

describe('the demo pushes new messages', () => {
  it('in process: a message sent from the admin panel reaches the recipient’s open stream through a signed webhook', async () => {
    const { service, backend } = createDemo({ secret: SECRET })
    const call = (path: string, init?: RequestInit) => backend(new Request('http://demo.test' + path, init))
    const token = await signIn(call, 'demo-user')
    const response = await call('/api/inbox/events', { headers: { authorization: `Bearer ${token}` } })
    expect(response.status).toBe(200)
    const events = readStream(response.body!)
    expect((await events.next())?.event).toBe('ready')
    expect((await send(call, token, 'demo-user')).status).toBe(201)
    const event = (await events.next())!
    expect(event.event).toBe('message.created')
    expect(JSON.parse(event.data!).messageIds).toEqual([service.state.messages('demo-user')[0]!._id])
    await events.cancel()
  })

  describe('through `npm run dev`’s server, over HTTP', () => {
    let close = async () => {}
    afterAll(() => close())

    it('streams the arrival to the browser’s fetch', { timeout: 60_000 }, async () => {
      const { server, url } = await startVite({ configFile: 'demo/vite.config.ts' })
      close = () => server.close()
      const call = (path: string, init?: RequestInit) => fetch(url + path, init)
      const token = await signIn(call, 'demo-user')
      const response = await call('/api/inbox/events', { headers: { authorization: `Bearer ${token}` } })
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
      const events = readStream(response.body!)
      expect((await events.next())?.event).toBe('ready')
      expect((await send(call, token, 'demo-user')).status).toBe(201)
      expect((await events.next())?.event).toBe('message.created')
      await events.cancel()
    })
  })
})
