import { describe, expect, it, vi } from 'vitest'
import {
  TEST_SUBSCRIBER_ID,
  buildFixture,
  channelStep,
  delayStep,
  emailStep,
  inApp,
  integration,
  subscriber,
  topic,
  workflow,
} from '../support/fixtures'
import { rawService } from './helpers'

function fixture() {
  return buildFixture({
    workflows: [
      workflow('mention', [
        inApp('{{actor.firstName}} mentioned {{subscriber.firstName}} in {{payload.doc.title}}', {
          subject: 'Mention {{payload.missing}}',
          cta: {
            url: '/docs/{{payload.doc.id}}',
            buttons: [{ type: 'primary', content: 'Open {{payload.doc.title}}' }],
          },
          avatar: '/icons/{{payload.kind}}.svg',
        }),
        emailStep('Hi {{subscriber.firstName}}', 'Body'),
        channelStep('sms', 'SMS'),
        channelStep('chat', 'Chat'),
        channelStep('push', 'Push'),
      ]),
      workflow('alert', [inApp('Alert'), emailStep()], { critical: true }),
      workflow('off', [inApp('x')], { active: false }),
      workflow('nothing', []),
      workflow('dormant', [inApp('x', { active: false }), delayStep(1)]),
      workflow('later', [inApp('first'), delayStep(60), inApp('second {{payload.n}}')]),
      workflow('quick', [delayStep(0.02), inApp('soon')]),
      workflow('month', [inApp('first'), delayStep(1, 'months'), inApp('a month later')]),
    ],
    subscribers: [
      subscriber(TEST_SUBSCRIBER_ID, {
        firstName: 'Ada',
        email: 'ada@example.com',
        preferences: { channels: { in_app: false } },
      }),
      subscriber('bo', { firstName: 'Bo', email: 'bo@example.com', phone: '+15550100' }),
      subscriber('cy', { firstName: 'Cy' }),
    ],
    topics: [topic('team', [TEST_SUBSCRIBER_ID, 'bo', 'cy'])],
    tenants: [{ identifier: 'acme', name: 'Acme' }],
    integrations: [
      integration('email', 'mail', { primary: true, providerId: 'smtp' }),
      integration('sms', 'sms-not-primary'),
      integration('chat', 'chat'),
    ],
  })
}

describe('POST /v1/events/trigger', () => {
  it('delivers every channel, rendering templates, honouring preferences', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    const res = await call('/v1/events/trigger', {
      body: {
        name: 'mention',
        to: ['bo', TEST_SUBSCRIBER_ID],
        payload: { doc: { id: 7, title: 'Plan' }, kind: 'doc' },
        actor: { subscriberId: 'eve', firstName: 'Eve', avatar: '/eve.png' },
        transactionId: 'tx-1',
      },
    })
    expect(res.status).toBe(201)
    expect(res.json).toEqual({ acknowledged: true, status: 'processed', transactionId: 'tx-1' })
    const bo = service.state.messages('bo')
    expect(bo.map((m) => [m.channel, m.status]).sort()).toEqual([
      ['chat', 'sent'],
      ['email', 'sent'],
      ['in_app', 'sent'],
      ['push', 'error'],
      ['sms', 'error'],
    ])
    const inApp = bo.find((m) => m.channel === 'in_app')!
    expect(inApp.content).toBe('Eve mentioned Bo in Plan')
    expect(inApp.subject).toBe('Mention ')
    expect(inApp.actor).toEqual({ type: 'user', data: '/eve.png' })
    expect(inApp.cta).toEqual({
      type: 'redirect',
      data: { url: '/docs/7' },
      action: { status: 'pending', buttons: [{ type: 'primary', content: 'Open Plan' }] },
    })
    expect(inApp.transactionId).toBe('tx-1')
    expect(bo.find((m) => m.channel === 'email')).toMatchObject({
      subject: 'Hi Bo',
      providerId: 'smtp',
      email: 'bo@example.com',
    })
    expect(bo.find((m) => m.channel === 'sms')!.errorText).toMatch(/primary sms/)
    // user-1 turned in_app off globally: no feed message, the rest still goes.
    const ada = service.state.messages(TEST_SUBSCRIBER_ID)
    expect(ada.some((m) => m.channel === 'in_app')).toBe(false)
    expect(ada.some((m) => m.channel === 'email')).toBe(true)
    expect(service.state.subscriber('eve')?.firstName).toBe('Eve')
    const feed = await call('/v1/subscribers/bo/notifications/feed')
    expect(feed.json.data[0]).toMatchObject({
      content: 'Eve mentioned Bo in Plan',
      payload: { kind: 'doc' },
      read: false,
      seen: false,
    })
  })

  it('delivers critical workflows despite preferences, and uses the step avatar without an actor', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    await call('/v1/events/trigger', { body: { name: 'alert', to: TEST_SUBSCRIBER_ID } })
    expect(
      service.state
        .messages(TEST_SUBSCRIBER_ID)
        .map((m) => m.channel)
        .sort(),
    ).toEqual(['email', 'in_app'])
    await call('/v1/events/trigger', { body: { name: 'mention', to: 'cy', payload: { kind: 'bell' } } })
    const m = service.state.messages('cy').find((x) => x.channel === 'in_app')!
    expect(m.actor).toEqual({ type: 'system_custom', data: '/icons/bell.svg' })
    expect(service.state.messages('cy').find((x) => x.channel === 'email')!.errorText).toMatch(/no email/)
  })

  it('fans out to topics minus exclude, delivers duplicates once, creates subscribers from objects', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    const res = await call('/v1/events/trigger', {
      body: {
        name: 'alert',
        to: [
          { type: 'Topic', topicKey: 'team', exclude: ['cy'] },
          'bo',
          { subscriberId: 'new-one', firstName: 'Nu' },
          { type: 'Topic', topicKey: 'nope' },
        ],
      },
    })
    expect(res.json.status).toBe('processed')
    const inAppCount = (id: string) => service.state.messages(id).filter((m) => m.channel === 'in_app').length
    expect([inAppCount(TEST_SUBSCRIBER_ID), inAppCount('bo'), inAppCount('cy'), inAppCount('new-one')]).toEqual([
      1, 1, 0, 1,
    ])
    expect(service.state.subscriber('new-one')?.firstName).toBe('Nu')
  })

  it('answers each trigger status in the documented order', async () => {
    const { call } = rawService({ fixture: fixture() })
    const status = async (body: object) => (await call('/v1/events/trigger', { body })).json
    expect(await status({ name: 'mention', to: 'bo', tenant: 'ghost' })).toMatchObject({
      acknowledged: true,
      status: 'no_tenant_found',
    })
    expect(await status({ name: 'off', to: 'bo', tenant: 'ghost' })).toMatchObject({ status: 'no_tenant_found' })
    expect(await status({ name: 'off', to: 'bo' })).toMatchObject({ status: 'trigger_not_active' })
    expect(await status({ name: 'nothing', to: 'bo' })).toMatchObject({ status: 'no_workflow_steps_defined' })
    expect(await status({ name: 'dormant', to: 'bo' })).toMatchObject({ status: 'no_workflow_active_steps_defined' })
    expect(
      await status({ name: 'mention', to: ['has space', { email: 'x@y.z' }, { type: 'Topic', topicKey: 'nope' }] }),
    ).toMatchObject({ status: 'invalid_recipients' })
    expect(await status({ name: 'mention', to: [] })).toMatchObject({ status: 'invalid_recipients' })
    const ok = await status({ name: 'mention', to: 'bo', tenant: { identifier: 'acme', name: 'Acme Inc' } })
    expect(ok.status).toBe('processed')
    expect(ok.transactionId).toMatch(/^[0-9a-f-]{36}$/)
    const missing = await call('/v1/events/trigger', { body: { name: 'ghost', to: 'bo' } })
    expect(missing.status).toBe(422)
    expect(missing.json.message).toBe('workflow_not_found')
  })

  it('updates an existing tenant from a tenant object', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    await call('/v1/events/trigger', {
      body: { name: 'mention', to: 'bo', tenant: { identifier: 'acme', name: 'Acme Inc', data: { tier: 'gold' } } },
    })
    expect(service.state.tenants()[0]).toMatchObject({ name: 'Acme Inc', data: { tier: 'gold' } })
  })

  it('leaves the tenant as it was when the trigger is not processed', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    const before = structuredClone(service.state.tenants())
    const tenant = { identifier: 'acme', name: 'Renamed', data: {} }
    for (const [body, status] of [
      [{ name: 'off', to: 'bo', tenant }, 'trigger_not_active'],
      [{ name: 'nothing', to: 'bo', tenant }, 'no_workflow_steps_defined'],
      [{ name: 'mention', to: 'has space', tenant }, 'invalid_recipients'],
    ] as const) {
      expect((await call('/v1/events/trigger', { body })).json.status).toBe(status)
      expect(service.state.tenants()).toEqual(before)
    }
  })

  it('takes neither `.` nor `..` as a subscriberId: no URL could name them', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    const res = await call('/v1/events/trigger', { body: { name: 'mention', to: ['.', '..', { subscriberId: '..' }] } })
    expect(res.json.status).toBe('invalid_recipients')
    expect([service.state.subscriber('.'), service.state.subscriber('..')]).toEqual([undefined, undefined])
    // Dots within an id are fine.
    const dotted = await call('/v1/events/trigger', { body: { name: 'mention', to: '...' } })
    expect(dotted.json.status).toBe('processed')
    expect(service.state.messages('...').length).toBeGreaterThan(0)
  })

  it('answers 422 naming every bad field', async () => {
    const { call } = rawService({ fixture: fixture() })
    const res = await call('/v1/events/trigger', {
      body: { name: '', payload: [], overrides: 'x', transactionId: 5, actor: 3, tenant: {} },
    })
    expect(res.status).toBe(422)
    expect(Object.keys(res.json.errors).sort()).toEqual([
      'actor',
      'name',
      'overrides',
      'payload',
      'tenant',
      'to',
      'transactionId',
    ])
  })

  it('answers 422 naming a recipient field longer than 255 characters, but takes a long avatar (a data: URL)', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    const long = 'x'.repeat(256)
    const refused = await call('/v1/events/trigger', {
      body: { name: 'mention', to: [{ subscriberId: 'new-one', email: `${long}@example.com`, lastName: long }] },
    })
    expect(refused.status).toBe(422)
    expect(Object.keys(refused.json.errors).sort()).toEqual(['to[0].email', 'to[0].lastName'])
    expect(JSON.stringify(refused.json).length).toBeLessThan(2000)
    expect(service.state.subscriber('new-one')).toBeUndefined()
    const avatar = `data:image/png;base64,${'A'.repeat(10_000)}`
    const taken = await call('/v1/events/trigger', {
      body: { name: 'mention', to: [{ subscriberId: 'new-one', email: 'n@example.com', avatar }] },
    })
    expect(taken.json.status).toBe('processed')
    expect(service.state.subscriber('new-one')?.avatar).toBe(avatar)
  })

  it('answers 422 naming each recipient and actor field of the wrong type, delivering nothing', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    const res = await call('/v1/events/trigger', {
      body: {
        name: 'mention',
        to: [
          'bo',
          5,
          null,
          { subscriberId: 'typ-1', firstName: 5, email: ['x'], phone: {}, data: 'str', locale: true },
          { type: 'Topic', topicKey: 'team', exclude: 'bo' },
          { type: 'Topic', topicKey: {} },
        ],
        actor: { subscriberId: 'typ-2', avatar: 7, data: [1] },
      },
    })
    expect(res.status).toBe(422)
    expect(Object.keys(res.json.errors).sort()).toEqual([
      'actor.avatar',
      'actor.data',
      'to[1]',
      'to[2]',
      'to[3].data',
      'to[3].email',
      'to[3].firstName',
      'to[3].locale',
      'to[3].phone',
      'to[4].exclude',
      'to[5].topicKey',
    ])
    expect(service.state.messages('bo')).toHaveLength(0)
    expect(service.state.subscriber('typ-1')).toBeUndefined()
    // One recipient object, not in an array: its fields are named under `to`.
    const one = await call('/v1/events/trigger', {
      body: { name: 'mention', to: { type: 'Topic', topicKey: 'team', exclude: 'bo' } },
    })
    expect(Object.keys(one.json.errors)).toEqual(['to.exclude'])
    // Null fields are left as they are.
    const ok = await call('/v1/events/trigger', { body: { name: 'mention', to: { subscriberId: 'bo', email: null } } })
    expect(ok.json.status).toBe('processed')
  })

  it('answers 422 naming each data value and channel setting of the wrong type (spec 2.12), delivering nothing', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    const res = await call('/v1/events/trigger', {
      body: {
        name: 'mention',
        to: [
          { subscriberId: 'typ-1', data: { plan: 'pro', seats: 5, tags: ['a'] } },
          { subscriberId: 'typ-2', channels: 'fcm' },
          {
            subscriberId: 'typ-3',
            channels: [
              'fcm',
              { integrationIdentifier: 7, credentials: { deviceTokens: 'token' } },
              { providerId: 'fcm', credentials: { webhookUrl: 5, deviceTokens: ['a', 1] } },
              { providerId: 'fcm' },
            ],
          },
        ],
        actor: { subscriberId: 'typ-4', data: { n: 1 } },
      },
    })
    expect(res.status).toBe(422)
    expect(Object.keys(res.json.errors).sort()).toEqual([
      'actor.data.n',
      'to[0].data.seats',
      'to[0].data.tags',
      'to[1].channels',
      'to[2].channels[0]',
      'to[2].channels[1].credentials.deviceTokens',
      'to[2].channels[1].integrationIdentifier',
      'to[2].channels[1].providerId',
      'to[2].channels[2].credentials.deviceTokens',
      'to[2].channels[2].credentials.webhookUrl',
      'to[2].channels[3].credentials',
    ])
    for (const id of ['typ-1', 'typ-2', 'typ-3', 'typ-4']) expect(service.state.subscriber(id)).toBeUndefined()
    const ok = await call('/v1/events/trigger', {
      body: {
        name: 'mention',
        to: {
          subscriberId: 'typ-5',
          data: { plan: 'pro' },
          channels: [{ providerId: 'fcm', integrationIdentifier: 'push', credentials: { deviceTokens: ['t1'] } }],
        },
      },
    })
    expect(ok.json.status).toBe('processed')
    expect(service.state.subscriber('typ-5')?.data).toEqual({ plan: 'pro' })
  })

  it('postpones the steps after a delay until it is due (controlled clock)', async () => {
    let now = Date.parse('2026-03-01T10:00:00.000Z')
    const { call, service } = rawService({ fixture: fixture(), now: () => now })
    await call('/v1/events/trigger', { body: { name: 'later', to: 'bo', payload: { n: 2 } } })
    expect(service.state.messages('bo').map((m) => m.content)).toEqual(['first'])
    now += 30_000
    await service.settle()
    expect(service.state.messages('bo')).toHaveLength(1)
    now += 30_000
    await service.settle()
    const [second] = service.state.messages('bo')
    expect(second).toMatchObject({ content: 'second 2', createdAt: '2026-03-01T10:01:00.000Z' })
  })

  it('waits out a delay longer than a timer can hold (a month) instead of running the steps after it at once', async () => {
    let now = Date.parse('2026-03-01T10:00:00.000Z')
    const { call, service } = rawService({ fixture: fixture(), now: () => now })
    await call('/v1/events/trigger', { body: { name: 'month', to: 'bo' } })
    // setTimeout fires a delay over 2^31 - 1 ms (24.8 days) after 1 ms.
    await new Promise((resolve) => setTimeout(resolve, 60))
    await service.settle()
    expect(service.state.messages('bo').map((m) => m.content)).toEqual(['first'])
    now += 30 * 86_400_000
    await service.settle()
    expect(service.state.messages('bo').map((m) => m.content)).toEqual(['a month later', 'first'])
  })

  it('runs the steps after a month-long delay on its timers, once the month is over', async () => {
    vi.useFakeTimers()
    try {
      const { call, service } = rawService({ fixture: fixture() })
      await call('/v1/events/trigger', { body: { name: 'month', to: 'bo' } })
      await vi.advanceTimersByTimeAsync(29 * 86_400_000)
      expect(service.state.messages('bo')).toHaveLength(1)
      await vi.advanceTimersByTimeAsync(2 * 86_400_000)
      expect(service.state.messages('bo').map((m) => m.content)).toEqual(['a month later', 'first'])
    } finally {
      vi.useRealTimers()
    }
  })

  it('runs delayed steps on real timers too', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    await call('/v1/events/trigger', { body: { name: 'quick', to: 'bo' } })
    expect(service.state.messages('bo')).toHaveLength(0)
    await new Promise((resolve) => setTimeout(resolve, 60))
    await service.settle()
    expect(service.state.messages('bo').map((m) => m.content)).toEqual(['soon'])
  })
})

describe('POST /v1/events/trigger/bulk', () => {
  it('answers one result per event in order; one failure does not stop the others', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    const res = await call('/v1/events/trigger/bulk', {
      body: {
        events: [
          { name: 'alert', to: 'bo', context: { region: 'eu' } },
          { name: 'ghost', to: 'bo' },
          { name: 'off', to: 'bo' },
          { name: 'alert', to: 'cy', transactionId: 'tx-4' },
        ],
      },
    })
    expect(res.status).toBe(201)
    expect(res.json.map((r: any) => r.status)).toEqual(['processed', 'error', 'trigger_not_active', 'processed'])
    expect(res.json[1]).toEqual({ acknowledged: true, status: 'error', error: ['workflow_not_found'] })
    expect(res.json[3].transactionId).toBe('tx-4')
    expect(service.state.messages('cy').some((m) => m.transactionId === 'tx-4')).toBe(true)
  })

  it('refuses 0 or 101 events and bad events as a whole with 422, processing nothing', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    const event = { name: 'alert', to: 'bo' }
    let res = await call('/v1/events/trigger/bulk', { body: { events: Array(101).fill(event) } })
    expect(res.status).toBe(422)
    expect(Object.keys(res.json.errors)).toEqual(['events'])
    expect((await call('/v1/events/trigger/bulk', { body: { events: [] } })).status).toBe(422)
    expect((await call('/v1/events/trigger/bulk', { body: {} })).status).toBe(422)
    res = await call('/v1/events/trigger/bulk', { body: { events: [event, { to: 'bo', context: { n: 1 } }] } })
    expect(Object.keys(res.json.errors).sort()).toEqual(['events[1].context', 'events[1].name'])
    expect(service.state.messages('bo')).toHaveLength(0)
    res = await call('/v1/events/trigger/bulk', { body: { events: Array(100).fill(event) } })
    expect(res.json).toHaveLength(100)
  })
})
