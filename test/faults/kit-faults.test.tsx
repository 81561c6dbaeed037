// @vitest-environment jsdom
import { onlineManager, QueryClient } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { Component, type ReactNode } from 'react'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { createService, type FaultRule } from '../../server'
import { createInboxClient } from '../../src/api/client'
import { createTokenAuth } from '../../src/auth/tokenAuth'
import { bearerTokenAuth, createInboxProxy, createSubscriberToken } from '../../src/proxy'
import { Inbox } from '../../src/components/Inbox/Inbox'
import { TopicSubscriptions } from '../../src/components/TopicSubscriptions/TopicSubscriptions'
import { InboxProvider } from '../../src/provider/InboxProvider'
import { buildFixture, messages, TEST_SUBSCRIBER_ID, topic } from '../support/fixtures'
import { BASE_URL } from '../support/service'
import { digest } from './digest'

afterEach(cleanup)

/** The body a `body` fault answers with: JSON, but not of any shape the API gives. */
const WRONG_SHAPE = { wrong: true }
// The client's timeout. Long enough that a read of the in-process service, its answer waiting behind the rendering of
// the page on a machine busy with two test files at once, is not taken for one that hangs.
const TIMEOUT = 500
const TOKEN_SECRET = 'kit-faults-secret-of-at-least-32-bytes'
const APP_ORIGIN = 'http://app.test'

let faultsInjected = 0
let actionsTried = 0
let appliedOnce = 0
let rolledBack = 0
afterAll(() => {
  console.info(
    `kit faults: ${faultsInjected} faults injected; ${actionsTried} mark-as actions during faults: ${appliedOnce} applied once, ${rolledBack} rolled back visibly, 0 lost, 0 applied twice`,
  )
})

/** One mark-as request as the service saw it. */
interface MarkAttempt {
  key: string | null
  outcome: number | 'dropped'
  replay: boolean
}

/**
 * A fresh service and the `fetch` the kit uses to reach it. The fetch notes every fault that reached
 * the kit (a rejection, a 5xx, a body that is not JSON or of the wrong shape) and every mark-as
 * attempt, and can lose the answer to a mark-as the service already applied (`loseMarkAsAnswers`).
 */
function startKit(count = 8, { viaProxy = false, topics = 0 } = {}) {
  // A little latency on every answer, as any network has, so that the optimistic state gets painted.
  const service = createService({
    fixture: buildFixture({
      messages: messages(TEST_SUBSCRIBER_ID, count),
      topics: Array.from({ length: topics }, (_, i) => topic(`topic-${i}`, [TEST_SUBSCRIBER_ID])),
    }),
    latency: 10,
  })
  const marks: MarkAttempt[] = []
  const transport = {
    loseMarkAsAnswers: 0,
    lateMarkAsAnswers: 0,
    reads: 0,
    /** Called as the last late answer is held back: before the client gives up waiting for it. */
    onLastLate: () => {},
  }
  const kitFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(new URL(String(input instanceof Request ? input.url : input), BASE_URL), init)
    const isMark = request.method === 'POST' && request.url.endsWith('/messages/mark-as')
    const key = request.headers.get('idempotency-key')
    // Reads of lists and counts (not the event stream, which reconnects on its own).
    if (request.method === 'GET' && request.url.includes('/notifications/')) transport.reads++
    let response: Response
    try {
      response = await service.fetch(request)
    } catch (error) {
      faultsInjected++
      if (isMark) marks.push({ key, outcome: 'dropped', replay: false })
      throw error
    }
    const text = await response.clone().text()
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = undefined
    }
    if (
      response.status >= 500 ||
      (response.ok && (parsed === undefined || JSON.stringify(parsed) === JSON.stringify(WRONG_SHAPE)))
    ) {
      faultsInjected++
    }
    if (isMark) {
      marks.push({ key, outcome: response.status, replay: response.headers.get('idempotency-replay') === 'true' })
      if (transport.loseMarkAsAnswers > 0 && response.status === 201) {
        transport.loseMarkAsAnswers--
        faultsInjected++
        throw new TypeError('fetch failed')
      }
      // Applied (or replayed), but answered only after the client has given up waiting.
      if (transport.lateMarkAsAnswers > 0 && response.status === 201) {
        if (--transport.lateMarkAsAnswers === 0) transport.onLastLate()
        faultsInjected++
        await new Promise((resolve) => setTimeout(resolve, TIMEOUT * 2))
      }
    }
    return response
  }) as typeof fetch
  const options = { timeout: TIMEOUT, retry: { retries: 2, baseDelay: 5, maxDelay: 20 } }
  let client = createInboxClient({ ...options, baseUrl: BASE_URL, apiKey: service.apiKey, fetch: kitFetch })
  if (viaProxy) {
    // The browser's side: a Bearer token, the proxy in front, the service (and its faults) behind it.
    const proxy = createInboxProxy({
      upstreamUrl: BASE_URL,
      apiKey: service.apiKey,
      basePath: '/api/inbox',
      authenticate: bearerTokenAuth(TOKEN_SECRET),
      fetch: kitFetch,
    })
    const auth = createTokenAuth({
      fetchToken: () => createSubscriberToken(TEST_SUBSCRIBER_ID, TOKEN_SECRET, { expiresIn: 600 }),
    })
    client = createInboxClient({
      ...options,
      baseUrl: `${APP_ORIGIN}/api/inbox`,
      getHeaders: auth.getHeaders,
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => proxy(new Request(input, init))) as typeof fetch,
    })
  }
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  return { service, client, queryClient, marks, transport }
}

type Kit = ReturnType<typeof startKit>

/** The host app's own boundary: reaching it means the kit let an error escape into the page. */
class HostBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  static caught: unknown[] = []
  override state = { error: null as unknown }
  static getDerivedStateFromError(error: unknown) {
    return { error }
  }
  override componentDidCatch(error: unknown) {
    HostBoundary.caught.push(error)
  }
  override render() {
    return this.state.error ? <p>host error</p> : this.props.children
  }
}
afterEach(() => {
  expect(HostBoundary.caught).toEqual([])
  expect(screen.queryByText('host error')).toBeNull()
})

function renderInbox(kit: Kit, pollInterval = 0) {
  return render(
    <HostBoundary>
      <main>
        <h1>Host page</h1>
        <Inbox
          subscriberId={TEST_SUBSCRIBER_ID}
          client={kit.client}
          queryClient={kit.queryClient}
          pollInterval={pollInterval}
          defaultOpen
          markSeenOnOpen={false}
          feedInitialRect={{ width: 400, height: 4000 }}
        />
      </main>
    </HostBoundary>,
  )
}

/**
 * The inbox open, looking every 200 ms, through a client without retries (and the default 15 s timeout) whose
 * every request `answer` decides.
 */
function renderPolling(service: { apiKey: string }, answer: (request: Request) => Promise<Response>) {
  const client = createInboxClient({
    baseUrl: BASE_URL,
    apiKey: service.apiKey,
    retry: false,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
      answer(new Request(new URL(String(input), BASE_URL), init))) as typeof fetch,
  })
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(
    <Inbox
      subscriberId={TEST_SUBSCRIBER_ID}
      client={client}
      queryClient={queryClient}
      pollInterval={200}
      defaultOpen
      markSeenOnOpen={false}
      feedInitialRect={{ width: 400, height: 4000 }}
    />,
  )
}

const bell = () => Number(document.querySelector('.inbox-bell')?.getAttribute('data-count'))
const article = (id: string) => document.querySelector<HTMLElement>(`[data-inbox-item][data-id="${id}"]`)
// The first test of a run loads the popover's code too: more than a second on a busy machine.
const feedReady = (count: number) =>
  waitFor(() => expect(document.querySelectorAll('[data-inbox-item]')).toHaveLength(count), { timeout: 5000 })

/** Waits until no request of the kit is under way and the feed shows what the service holds. */
async function settled(kit: Kit) {
  await waitFor(() => {
    expect(kit.queryClient.isMutating()).toBe(0)
    expect(kit.queryClient.isFetching()).toBe(0)
  })
}

const applications = (kit: Kit, key: string | null) =>
  kit.marks.filter((m) => m.key === key && m.outcome === 201 && !m.replay).length

/** Read faults that outlast the client's retries. */
const persistent: [string, FaultRule][] = [
  ['500', { status: 500 }],
  ['503', { status: 503 }],
  ['a dropped connection', { drop: true }],
  ['a body that is not JSON', { malformed: true }],
  ['a body of the wrong shape', { body: WRONG_SHAPE }],
  ['no answer within the timeout', { latency: TIMEOUT * 3 }],
]

describe('the kit under read faults', () => {
  for (const [name, rule] of persistent)
    for (const viaProxy of [false, true]) {
      it(`shows the error state with a retry for ${name}${viaProxy ? ' through the proxy' : ''}, and recovers when the service does`, async () => {
        const kit = startKit(3, { viaProxy })
        const remove = kit.service.faults.add({ method: 'GET', path: /notifications\/feed$/, ...rule })
        renderInbox(kit)
        const dialog = await screen.findByRole('dialog')
        const alert = await within(dialog).findByRole('alert', {}, { timeout: 5000 })
        expect(alert.textContent).toMatch(/couldn’t be loaded/)
        expect(screen.getByRole('heading', { name: 'Host page' })).toBeTruthy()
        remove()
        fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
        await feedReady(3)
        // The list may come back a moment before the look for news that Try again also makes: the banner of the
        // failed looks goes once that one is done. On a loaded machine that read may outlast the client's 500 ms
        // timeout too; the banner then goes with the next look, up to 8 s later after three failed ones.
        await waitFor(() => expect(within(dialog).queryByRole('alert')).toBeNull(), { timeout: 12_000 })
      })
    }

  it('answers Try again at once while a look is stuck on a service that hangs, and the stuck look changes nothing', async () => {
    const service = createService({ fixture: buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 3) }) })
    // Reads of lists and counts: refused, held until released (then answered as the service stood when asked),
    // or answered.
    let mode: 'refuse' | 'hold' | 'answer' = 'refuse'
    const held: (() => void)[] = []
    renderPolling(service, async (request) => {
      if (!request.url.includes('/notifications/feed') || mode === 'answer') return service.fetch(request)
      if (mode === 'refuse') return new Response(JSON.stringify({ message: 'down' }), { status: 500 })
      const answer = await service.fetch(request)
      return new Promise<Response>((resolve) => held.push(() => resolve(answer)))
    })
    const dialog = await screen.findByRole('dialog')
    const alert = await within(dialog).findByRole('alert', {}, { timeout: 5000 })
    // The next look (after the backoff of the failed ones) gets no answer; its reads see the service as it is
    // now: three items.
    mode = 'hold'
    await waitFor(() => expect(held.length).toBeGreaterThan(0), { timeout: 5000 })
    // The service changes and is answering again: Try again shows it without waiting for the stuck look.
    mode = 'answer'
    const trigger = await service.fetch(
      new Request(`${BASE_URL}/v1/events/trigger`, {
        method: 'POST',
        headers: { authorization: `ApiKey ${service.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID }),
      }),
    )
    expect(trigger.status).toBe(201)
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    await feedReady(4)
    await waitFor(() => expect(within(dialog).queryByRole('alert')).toBeNull())
    // The stuck look's answers come at last, older than what is shown: nothing goes back to them.
    act(() => held.forEach((release) => release()))
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)))
    expect(document.querySelectorAll('[data-inbox-item]')).toHaveLength(4)
    expect(within(dialog).queryByRole('alert')).toBeNull()
  })

  it('reads the truth after a write of unknown outcome at once, while a look is stuck on a service that hangs', async () => {
    const service = createService({ fixture: buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 3) }) })
    // Reads of lists and counts: held until released, or answered. Writes: applied, their answers lost.
    let hold = false
    const held: (() => void)[] = []
    renderPolling(service, async (request) => {
      const answer = await service.fetch(request)
      if (request.url.endsWith('/messages/mark-as')) throw new TypeError('Failed to fetch')
      if (!hold || !request.url.includes('/notifications/feed')) return answer
      return new Promise<Response>((resolve) => held.push(() => resolve(answer)))
    })
    await feedReady(3)
    // A look gets no answer (the client would wait 15 s for it).
    hold = true
    await waitFor(() => expect(held.length).toBeGreaterThan(0), { timeout: 5000 })
    hold = false
    const id = service.state.messages(TEST_SUBSCRIBER_ID)[0]!._id
    fireEvent.click(within(article(id)!).getByRole('button', { name: /^Mark as read / }))
    // The service applied the mark, and the kit was never told: its read of the truth does not wait for the
    // stuck look.
    await waitFor(
      () => {
        expect(service.state.messages(TEST_SUBSCRIBER_ID).find((m) => m._id === id)!.read).toBe(true)
        expect(article(id)!.hasAttribute('data-unread')).toBe(false)
        expect(article(id)!.hasAttribute('data-failed')).toBe(false)
      },
      { timeout: 4000 },
    )
    // The stuck look's answers, from before the mark, come at last: nothing goes back to them.
    act(() => held.forEach((release) => release()))
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)))
    expect(article(id)!.hasAttribute('data-unread')).toBe(false)
  })

  it('keeps the items it has while polls fail, and shows what arrived once they succeed again', async () => {
    const kit = startKit(3)
    renderInbox(kit, 60)
    await feedReady(3)
    const before = faultsInjected
    const remove = kit.service.faults.add({ method: 'GET', path: /notifications\/feed$/, drop: true })
    // Several looks in a row meet a dropped connection (the live loop backs off between them: 1–2 s, then 2–4 s).
    await waitFor(() => expect(faultsInjected - before).toBeGreaterThanOrEqual(3), { timeout: 9000 })
    expect(document.querySelectorAll('[data-inbox-item]')).toHaveLength(3)
    remove()
    const trigger = await kit.service.fetch(
      new Request(`${BASE_URL}/v1/events/trigger`, {
        method: 'POST',
        headers: { authorization: `ApiKey ${kit.service.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID }),
      }),
    )
    expect(trigger.status).toBe(201)
    // The connection comes back: the browser says so, and the inbox looks at once rather than at its backoff's end.
    act(() => (onlineManager.setOnline(false), onlineManager.setOnline(true)))
    await feedReady(4)
  })

  it('absorbs a 5xx burst shorter than its retries without showing an error', async () => {
    const kit = startKit(3)
    kit.service.faults.add({ method: 'GET', path: /notifications\/feed$/, status: 503, times: 2 })
    renderInbox(kit)
    await feedReady(3)
    expect(screen.queryByText(/couldn’t be loaded/)).toBeNull()
  })
})

describe('the topic list under read faults', () => {
  const topicKeys = () => Array.from(document.querySelectorAll('.inbox-topics__name'), (name) => name.textContent)
  for (const [name, rule] of persistent)
    for (const viaProxy of [false, true]) {
      it(`offers to try again for ${name}${viaProxy ? ' through the proxy' : ''}, on the first page and the next, and recovers`, async () => {
        const kit = startKit(0, { viaProxy, topics: 5 })
        const fault = { method: 'GET', path: /subscriptions$/, ...rule }
        let remove = kit.service.faults.add(fault)
        render(
          <HostBoundary>
            <InboxProvider
              subscriberId={TEST_SUBSCRIBER_ID}
              client={kit.client}
              queryClient={kit.queryClient}
              pollInterval={0}
              stream={false}
            >
              <TopicSubscriptions limit={2} />
            </InboxProvider>
          </HostBoundary>,
        )
        // The first page fails: the error, and a way to try again.
        let alert = await screen.findByRole('alert', {}, { timeout: 5000 })
        expect(alert.textContent).toContain('Topics couldn’t be loaded')
        remove()
        fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
        await waitFor(() => expect(topicKeys()).toHaveLength(2))
        const first = topicKeys()
        // The next page fails: the first stays, with its moves, under the error and its button.
        remove = kit.service.faults.add(fault)
        fireEvent.click(screen.getByRole('button', { name: 'Next' }))
        alert = await screen.findByRole('alert', {}, { timeout: 5000 })
        expect(alert.textContent).toContain('Topics couldn’t be loaded')
        expect(topicKeys()).toEqual(first)
        expect(screen.getByRole('button', { name: 'Next' }).hasAttribute('aria-disabled')).toBe(false)
        remove()
        fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
        await waitFor(() => expect(topicKeys()).not.toEqual(first))
        expect(topicKeys()).toHaveLength(2)
        expect(topicKeys().some((key) => first.includes(key))).toBe(false)
        expect(screen.queryByRole('alert')).toBeNull()
        expect(screen.getByRole('button', { name: 'Previous' }).hasAttribute('aria-disabled')).toBe(false)
      })
    }
})

for (const viaProxy of [false, true])
  describe(`a mark-as during an outage${viaProxy ? ', through the proxy' : ''}`, () => {
    /** Clicks an item's read toggle and waits for the outcome; returns its idempotency key. */
    async function toggle(kit: Kit, id: string) {
      const before = kit.marks.length
      const wasUnread = article(id)!.hasAttribute('data-unread')
      const button = within(article(id)!).getByRole('button', {
        name: wasUnread ? /^Mark as read / : /^Mark as unread /,
      })
      fireEvent.click(button)
      // Optimistic: the item changes at once, whatever the service then answers (caught on the DOM change).
      await waitFor(() => expect(article(id)!.hasAttribute('data-unread')).toBe(!wasUnread))
      await settled(kit)
      const keys = new Set(kit.marks.slice(before).map((m) => m.key))
      expect(keys.size, 'every attempt of one action carries the same idempotency key').toBeLessThanOrEqual(1)
      actionsTried++
      return { key: [...keys][0] ?? null, wasUnread }
    }

    const recovering: [string, FaultRule][] = [
      ['two dropped connections', { drop: true, times: 2 }],
      ['a 503 burst', { status: 503, times: 2 }],
      ['a timeout', { latency: TIMEOUT * 3, times: 1 }],
      ['a timeout then a 502', { latency: TIMEOUT * 3, times: 1 }],
    ]
    for (const [name, rule] of recovering) {
      it(`is applied exactly once when the service comes back within the retries (${name})`, async () => {
        const kit = startKit(3, { viaProxy })
        renderInbox(kit)
        await feedReady(3)
        const id = kit.service.state.messages(TEST_SUBSCRIBER_ID)[1]!._id
        kit.service.faults.add({ method: 'POST', path: /mark-as$/, ...rule })
        if (name.endsWith('502')) kit.service.faults.add({ method: 'POST', path: /mark-as$/, status: 502, times: 1 })
        const { key } = await toggle(kit, id)
        expect(kit.marks.filter((m) => m.key === key).length).toBeGreaterThan(1)
        expect(applications(kit, key)).toBe(1)
        appliedOnce++
        expect(kit.service.state.messages(TEST_SUBSCRIBER_ID).find((m) => m._id === id)!.read).toBe(true)
        expect(article(id)!.hasAttribute('data-unread')).toBe(false)
        expect(article(id)!.hasAttribute('data-failed')).toBe(false)
      })
    }

    it('is applied once when the service applied it but the answer was lost: the retry is a replay', async () => {
      const kit = startKit(3, { viaProxy })
      renderInbox(kit)
      await feedReady(3)
      const id = kit.service.state.messages(TEST_SUBSCRIBER_ID)[0]!._id
      kit.transport.loseMarkAsAnswers = 1
      const { key } = await toggle(kit, id)
      const attempts = kit.marks.filter((m) => m.key === key)
      expect(attempts.map((m) => [m.outcome, m.replay])).toEqual([
        [201, false],
        [201, true],
      ])
      expect(applications(kit, key)).toBe(1)
      appliedOnce++
      expect(kit.service.state.messages(TEST_SUBSCRIBER_ID).find((m) => m._id === id)!.read).toBe(true)
      expect(article(id)!.hasAttribute('data-unread')).toBe(false)
    })

    /**
     * Marks an item read while every attempt (the first and its two retries) reaches the service and every answer
     * comes after the client's timeout; `then` runs once the last answer is on its way. Resolves once the write
     * failed, its outcome unknown to the kit, with the bell's count before the click.
     */
    async function markWithLateAnswers(kit: Kit, id: string, then = () => {}) {
      const unseen = bell()
      kit.transport.lateMarkAsAnswers = 3
      // At once, not at the next look of a `waitFor`: on a loaded machine that may come after the refresh that
      // follows the failed write has read.
      kit.transport.onLastLate = then
      fireEvent.click(within(article(id)!).getByRole('button', { name: /^Mark as read / }))
      await waitFor(() => expect(kit.transport.lateMarkAsAnswers).toBe(0), { timeout: 5000 })
      await waitFor(() => expect(kit.queryClient.isMutating()).toBe(0))
      expect(applications(kit, kit.marks.at(-1)!.key)).toBe(1)
      expect(kit.service.state.messages(TEST_SUBSCRIBER_ID).find((m) => m._id === id)!.read).toBe(true)
      return unseen
    }

    /** The row and the bell come to show the item read, without a failure, within `timeout` ms. */
    const showsRead = (id: string, unseen: number, timeout: number) =>
      waitFor(
        () => {
          expect(article(id)!.hasAttribute('data-unread'), 'the row shows it read').toBe(false)
          expect(bell(), 'the bell counts it seen').toBe(unseen - 1)
          expect(article(id)!.hasAttribute('data-failed'), 'no failure is shown').toBe(false)
        },
        { timeout },
      )

    // No poll in either (`pollInterval` 0): only the kit's own look after the failed write can bring the truth.
    it('shows what the service holds soon after every answer came too late, without waiting for a poll', async () => {
      const kit = startKit(3, { viaProxy })
      renderInbox(kit, 0)
      await feedReady(3)
      const id = kit.service.state.messages(TEST_SUBSCRIBER_ID)[0]!._id
      const unseen = await markWithLateAnswers(kit, id)
      await showsRead(id, unseen, 2000)
    })

    it('shows what the service holds within moments of its answering again, when it applied a write it could not answer', async () => {
      const kit = startKit(3, { viaProxy })
      renderInbox(kit, 0)
      await feedReady(3)
      const id = kit.service.state.messages(TEST_SUBSCRIBER_ID)[1]!._id
      let remove = () => {}
      // From the last late answer on, the service answers no read either.
      const unseen = await markWithLateAnswers(
        kit,
        id,
        () => (remove = kit.service.faults.add({ method: 'GET', drop: true })),
      )
      // While the service cannot be asked, the row shows what it last said, and the failure.
      await new Promise((resolve) => setTimeout(resolve, 1000))
      expect(article(id)!.hasAttribute('data-unread')).toBe(true)
      expect(article(id)!.hasAttribute('data-failed')).toBe(true)
      remove()
      await showsRead(id, unseen, 2500)
      // Told the change could not be saved, a screen reader's user is told it was.
      await waitFor(() =>
        expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain('The change was saved after all.'),
      )
    })

    it('asks the service again only once after a refusal (a 4xx), whose outcome is known', async () => {
      const kit = startKit(3, { viaProxy })
      renderInbox(kit, 0)
      await feedReady(3)
      const id = kit.service.state.messages(TEST_SUBSCRIBER_ID)[2]!._id
      kit.service.faults.add({ method: 'POST', path: /mark-as$/, status: 400, times: 1 })
      kit.service.faults.add({ method: 'GET', drop: true })
      const before = kit.transport.reads
      fireEvent.click(within(article(id)!).getByRole('button', { name: /^Mark as read / }))
      await waitFor(() => expect(article(id)!.hasAttribute('data-failed')).toBe(true))
      // The refresh that follows any failure, one request that finds the service unreachable; no more after it.
      await new Promise((resolve) => setTimeout(resolve, 2500))
      expect(kit.transport.reads - before).toBe(1)
    })

    it('is rolled back visibly when the outage outlasts the retries, and nothing reaches the service', async () => {
      const kit = startKit(3, { viaProxy })
      renderInbox(kit)
      await feedReady(3)
      const id = kit.service.state.messages(TEST_SUBSCRIBER_ID)[2]!._id
      const before = digest(kit.service)
      const remove = kit.service.faults.add({ method: 'POST', path: /mark-as$/, drop: true })
      const { key } = await toggle(kit, id)
      expect(kit.marks.filter((m) => m.key === key).map((m) => m.outcome)).toEqual(['dropped', 'dropped', 'dropped'])
      expect(digest(kit.service)).toBe(before)
      expect(article(id)!.hasAttribute('data-unread')).toBe(true)
      expect(article(id)!.hasAttribute('data-failed')).toBe(true)
      rolledBack++

      remove()
      const second = await toggle(kit, id)
      expect(second.key).not.toBe(key)
      expect(applications(kit, second.key)).toBe(1)
      appliedOnce++
      expect(kit.service.state.messages(TEST_SUBSCRIBER_ID).find((m) => m._id === id)!.read).toBe(true)
      expect(article(id)!.hasAttribute('data-failed')).toBe(false)
    })

    it('loses nothing and applies nothing twice through a storm of random faults', async () => {
      const kit = startKit(6, { viaProxy })
      renderInbox(kit)
      await feedReady(6)
      const ids = kit.service.state.messages(TEST_SUBSCRIBER_ID).map((m) => m._id)
      // A fixed seed, so a failure can be replayed.
      let seed = 20260301
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
      const kinds: FaultRule[] = [
        { drop: true },
        { status: 500 },
        { status: 503 },
        { status: 502 },
        { malformed: true },
        { body: WRONG_SHAPE },
        { latency: TIMEOUT * 3 },
      ]
      for (let round = 0; round < 20; round++) {
        kit.service.faults.clear()
        for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
          const kind = kinds[Math.floor(random() * kinds.length)]!
          kit.service.faults.add({
            method: 'POST',
            path: /mark-as$/,
            rate: 0.6,
            times: 1 + Math.floor(random() * 3),
            ...kind,
          })
        }
        const id = ids[Math.floor(random() * ids.length)]!
        const stored = () => kit.service.state.messages(TEST_SUBSCRIBER_ID).find((m) => m._id === id)!
        const readBefore = stored().read
        expect(article(id)!.hasAttribute('data-unread'), 'the item shows what the service holds').toBe(!readBefore)

        const { key } = await toggle(kit, id)
        const failed = article(id)!.hasAttribute('data-failed')
        if (failed) {
          // Rolled back visibly, and the service never applied it.
          expect(stored().read).toBe(readBefore)
          expect(article(id)!.hasAttribute('data-unread')).toBe(!readBefore)
          expect(applications(kit, key)).toBe(0)
          rolledBack++
        } else {
          expect(stored().read).toBe(!readBefore)
          expect(article(id)!.hasAttribute('data-unread')).toBe(readBefore)
          expect(applications(kit, key)).toBe(1)
          appliedOnce++
        }
      }
      for (const key of new Set(kit.marks.map((m) => m.key))) expect(applications(kit, key)).toBeLessThanOrEqual(1)
    }, 30_000)
  })
