import { describe, expect, it } from 'vitest'
import { TEST_SUBSCRIBER_ID } from '../support/fixtures'
import { setup } from './setup'

describe.each([
  { mode: 'bare', envelope: false },
  { mode: 'envelope', envelope: true },
])('every operation through the client ($mode bodies)', ({ envelope }) => {
  it('the service really answers in this mode', async () => {
    const { fetch, service, baseUrl } = setup({ envelope })
    const response = await fetch(`${baseUrl}/v1/integrations/active`, {
      headers: { authorization: `ApiKey ${service.apiKey}` },
    })
    const body = await response.json()
    expect(Array.isArray(body)).toBe(!envelope)
    if (envelope) expect(Object.keys(body)).toEqual(['data'])
  })

  it('getFeed pages from 0 with read/seen filters sent as true/false', async () => {
    const { client, service, seen } = setup({ envelope })
    const api = client()
    const first = await api.getFeed(TEST_SUBSCRIBER_ID, { limit: 4 })
    expect(first.page).toBe(0)
    expect(first.pageSize).toBe(4)
    expect(first.hasMore).toBe(true)
    expect(first.totalCount).toBe(15)
    const ids = service.state
      .messages(TEST_SUBSCRIBER_ID)
      .filter((m) => m.channel === 'in_app')
      .map((m) => m._id)
    expect(first.data.map((m) => m._id)).toEqual(ids.slice(0, 4))

    const last = await api.getFeed(TEST_SUBSCRIBER_ID, { limit: 4, page: 3 })
    expect(last.data.map((m) => m._id)).toEqual(ids.slice(12))
    expect(last.hasMore).toBe(false)

    const unread = await api.getFeed(TEST_SUBSCRIBER_ID, { read: false, limit: 100 })
    expect(unread.data).toHaveLength(10)
    expect(unread.data.every((m) => !m.read)).toBe(true)
    const read = await api.getFeed(TEST_SUBSCRIBER_ID, { read: true, seen: true })
    expect(read.data).toHaveLength(5)
    const query = seen.at(-1)!.search
    expect([query.get('read'), query.get('seen'), query.has('payload')]).toEqual(['true', 'true', false])
  })

  it('getFeed filters by payload', async () => {
    const { client } = setup({ envelope })
    const page = await client().getFeed<{ index: number }>(TEST_SUBSCRIBER_ID, { payload: { index: 7 } })
    expect(page.data.map((m) => m.payload?.index)).toEqual([7])
  })

  it('markAs changes the messages the service holds and answers with them', async () => {
    const { client, service } = setup({ envelope })
    const unread = service.state
      .messages(TEST_SUBSCRIBER_ID)
      .filter((m) => !m.read)
      .slice(0, 2)
      .map((m) => m._id)
    const answer = await client().markAs(TEST_SUBSCRIBER_ID, { messageId: unread, markAs: 'read' })
    expect(answer.map((m) => [m._id, m.read, m.seen]).sort()).toEqual(unread.map((id) => [id, true, true]).sort())
    const held = service.state.messages(TEST_SUBSCRIBER_ID).filter((m) => unread.includes(m._id))
    expect(held.every((m) => m.read && m.seen)).toBe(true)

    await client().markAs(TEST_SUBSCRIBER_ID, { messageId: unread[0]!, markAs: 'unseen' })
    expect(service.state.messages(TEST_SUBSCRIBER_ID).find((m) => m._id === unread[0])!.seen).toBe(false)
  })

  it('getPreferences by criticality, and updatePreferences', async () => {
    const { client, service } = setup({ envelope })
    const api = client()
    const nonCritical = await api.getPreferences(TEST_SUBSCRIBER_ID)
    expect(nonCritical.workflows.map((w) => w.workflow.identifier)).toEqual(['test-workflow'])
    expect(nonCritical.global.channels.email).toBe(true)
    const all = await api.getPreferences(TEST_SUBSCRIBER_ID, { criticality: 'all' })
    expect(all.workflows.map((w) => w.workflow.identifier).sort()).toEqual(['security-alert', 'test-workflow'])

    const updated = await api.updatePreferences(TEST_SUBSCRIBER_ID, { channels: { email: false } })
    expect(updated.global.channels.email).toBe(false)
    expect(service.state.subscriber(TEST_SUBSCRIBER_ID)!.preferences.channels.email).toBe(false)

    const perWorkflow = await api.updatePreferences(TEST_SUBSCRIBER_ID, {
      workflowId: 'test-workflow',
      channels: { in_app: false },
    })
    const wf = perWorkflow.workflows.find((w) => w.workflow.identifier === 'test-workflow')!
    expect(wf.channels.in_app).toBe(false)
    expect(wf.overrides).toContainEqual({ channel: 'in_app', source: 'subscriber' })
  })

  it('listActiveIntegrations lists the active ones', async () => {
    const { client, service } = setup({ envelope })
    const list = await client().listActiveIntegrations()
    const active = service.state.integrations().filter((i) => i.active)
    expect(list.map((i) => i.identifier).sort()).toEqual(active.map((i) => i.identifier).sort())
    expect(list.some((i) => i.identifier === 'chat-off')).toBe(false)
  })

  it('setPrimaryIntegration moves the primary flag', async () => {
    const { client, service } = setup({ envelope })
    const target = service.state.integrations().find((i) => i.identifier === 'email-b')!
    const answer = await client().setPrimaryIntegration(target._id)
    expect([answer._id, answer.primary, answer.active]).toEqual([target._id, true, true])
    const emails = service.state.integrations().filter((i) => i.channel === 'email')
    expect(emails.filter((i) => i.primary).map((i) => i.identifier)).toEqual(['email-b'])
  })

  it('listTopicSubscriptions walks forward and back with cursors', async () => {
    const { client, service, seen } = setup({ envelope })
    const api = client()
    const all = service.state.subscriptions('news').map((s) => s._id)
    const first = await api.listTopicSubscriptions('news', { limit: 1, orderDirection: 'ASC' })
    expect(first).toMatchObject({ totalCount: 2, totalCountCapped: false, previous: null, next: all[0] })
    expect(first.data.map((s) => s.subscriber.subscriberId)).toEqual([TEST_SUBSCRIBER_ID])
    const second = await api.listTopicSubscriptions('news', { limit: 1, orderDirection: 'ASC', after: first.next! })
    expect(second.data.map((s) => s._id)).toEqual([all[1]])
    expect(second.next).toBeNull()
    const back = await api.listTopicSubscriptions('news', {
      limit: 5,
      orderDirection: 'ASC',
      before: second.data[0]!._id,
      includeCursor: true,
    })
    expect(back.data.map((s) => s._id)).toEqual(all)
    expect(seen.at(-1)!.search.get('includeCursor')).toBe('true')
    const filtered = await api.listTopicSubscriptions('news', { subscriberId: 'user-2' })
    expect(filtered.data.map((s) => s.subscriber.subscriberId)).toEqual(['user-2'])
  })

  it('listSubscriberSubscriptions lists the topics of a subscriber', async () => {
    const { client } = setup({ envelope })
    const page = await client().listSubscriberSubscriptions(TEST_SUBSCRIBER_ID, { orderDirection: 'ASC' })
    expect(page.data.map((s) => s.topic.key)).toEqual(['news', 'product'])
    expect(page).toMatchObject({ next: null, previous: null })
    expect('totalCount' in page).toBe(false)
    const byKey = await client().listSubscriberSubscriptions(TEST_SUBSCRIBER_ID, { key: 'product' })
    expect(byKey.data.map((s) => s.topic.key)).toEqual(['product'])
  })

  it('trigger delivers to the feed', async () => {
    const { client, service } = setup({ envelope })
    const result = await client().trigger({
      name: 'test-workflow',
      to: [{ subscriberId: 'user-2' }, { type: 'Topic', topicKey: 'product' }],
      payload: { text: 'ship it' },
      transactionId: 'tx-1',
    })
    expect(result).toEqual({ acknowledged: true, status: 'processed', transactionId: 'tx-1' })
    await service.settle()
    const feed = await client().getFeed('user-2')
    expect(feed.data[0]!.content).toBe('Hello Bo ship it')
    expect(service.state.messages(TEST_SUBSCRIBER_ID)[0]!.transactionId).toBe('tx-1')
  })

  it('bulkTrigger answers one result per event, in order', async () => {
    const { client } = setup({ envelope })
    const results = await client().bulkTrigger({
      events: [
        { name: 'test-workflow', to: 'user-2' },
        { name: 'no-such-workflow', to: 'user-2' },
        { name: 'security-alert', to: TEST_SUBSCRIBER_ID, context: { team: 'core' } },
      ],
    })
    expect(results.map((r) => r.status)).toEqual(['processed', 'error', 'processed'])
    expect(results[1]!.error).toEqual(['workflow_not_found'])
  })
})
