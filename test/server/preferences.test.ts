import { describe, expect, it } from 'vitest'
import {
  TEST_SUBSCRIBER_ID,
  buildFixture,
  channelStep,
  delayStep,
  emailStep,
  inApp,
  subscriber,
  workflow,
} from '../support/fixtures'
import { rawService } from './helpers'

const PREFS = `/v2/subscribers/${TEST_SUBSCRIBER_ID}/preferences`

function fixture() {
  return buildFixture({
    workflows: [
      workflow('mention', [inApp('m'), emailStep(), channelStep('sms', 'x', { active: false })], {
        preferenceSettings: { email: false },
      }),
      workflow('deploy', [inApp('d'), delayStep(1), channelStep('chat')]),
      workflow('alert', [inApp('a'), emailStep()], { critical: true, preferenceSettings: { email: true } }),
      workflow('retired', [inApp('r')], { active: false }),
      workflow('pushy', [channelStep('push')], { slug: 'push-only' }),
    ],
    subscribers: [
      subscriber(TEST_SUBSCRIBER_ID, {
        preferences: {
          channels: { in_app: false, chat: true },
          workflows: { mention: { in_app: true }, alert: { in_app: false } },
        },
      }),
      subscriber('plain'),
    ],
  })
}

describe('GET /v2/subscribers/{id}/preferences', () => {
  it('merges workflow default → global → per workflow and names the source', async () => {
    const { call } = rawService({ fixture: fixture() })
    const res = await call(PREFS)
    expect(res.status).toBe(200)
    const byId = Object.fromEntries(res.json.workflows.map((w: any) => [w.workflow.identifier, w]))
    expect(Object.keys(byId)).toEqual(['mention', 'deploy', 'pushy'])
    expect(byId.mention.channels).toEqual({ in_app: true, email: false })
    expect(byId.mention.overrides).toEqual([
      { channel: 'in_app', source: 'subscriber' },
      { channel: 'email', source: 'template' },
    ])
    expect(byId.deploy.channels).toEqual({ in_app: false, chat: true })
    expect(byId.deploy.overrides.every((o: any) => o.source === 'subscriber')).toBe(true)
    expect(byId.pushy.workflow).toMatchObject({ slug: 'push-only', identifier: 'pushy', name: 'pushy' })
    expect(res.json.global).toEqual({ enabled: true, channels: { in_app: false, email: true, chat: true, push: true } })
  })

  it('lists critical workflows by criticality and ignores the subscriber there', async () => {
    const { call } = rawService({ fixture: fixture() })
    let res = await call(`${PREFS}?criticality=critical`)
    expect(res.json.workflows.map((w: any) => w.workflow.identifier)).toEqual(['alert'])
    expect(res.json.workflows[0].channels).toEqual({ in_app: true, email: true })
    expect(res.json.workflows[0].overrides.map((o: any) => o.source)).toEqual(['template', 'template'])
    expect(res.json.global.channels).toEqual({})
    res = await call(`${PREFS}?criticality=all`)
    expect(res.json.workflows).toHaveLength(4)
    res = await call(`${PREFS}?criticality=everything`)
    expect(res.status).toBe(422)
    expect(Object.keys(res.json.errors)).toEqual(['criticality'])
    expect((await call('/v2/subscribers/nobody/preferences')).status).toBe(404)
  })

  it('gives a subscriber without choices the defaults', async () => {
    const { call } = rawService({ fixture: fixture() })
    const res = await call('/v2/subscribers/plain/preferences')
    expect(res.json.workflows[0].channels).toEqual({ in_app: true, email: false })
    expect(res.json.workflows.flatMap((w: any) => w.overrides).every((o: any) => o.source === 'template')).toBe(true)
  })
})

describe('PATCH /v2/subscribers/{id}/preferences', () => {
  it('updates the global choice, a workflow choice by id, identifier or slug, and the schedule', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    let res = await call('/v2/subscribers/plain/preferences', { method: 'PATCH', body: { channels: { email: false } } })
    expect(res.status).toBe(200)
    expect(res.json.global.channels.email).toBe(false)
    const deploy = res.json.workflows.find((w: any) => w.workflow.identifier === 'deploy')
    expect(deploy.channels).toEqual({ in_app: true, chat: true })
    res = await call('/v2/subscribers/plain/preferences', {
      method: 'PATCH',
      body: { workflowId: 'deploy', channels: { chat: false } },
    })
    expect(res.json.workflows.find((w: any) => w.workflow.identifier === 'deploy').channels).toEqual({
      in_app: true,
      chat: false,
    })
    res = await call('/v2/subscribers/plain/preferences', {
      method: 'PATCH',
      body: { workflowId: 'push-only', channels: { push: false } },
    })
    expect(res.json.workflows.find((w: any) => w.workflow.identifier === 'pushy').channels).toEqual({ push: false })
    const id = service.state.workflows().find((w) => w.identifier === 'mention')!._id
    res = await call('/v2/subscribers/plain/preferences', {
      method: 'PATCH',
      body: { workflowId: id, channels: { email: true } },
    })
    expect(res.json.workflows[0].channels.email).toBe(true)
    expect(res.json.workflows[0].overrides[1]).toEqual({ channel: 'email', source: 'subscriber' })
    const schedule = {
      isEnabled: true,
      weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:30 PM' }] } },
    }
    res = await call('/v2/subscribers/plain/preferences', { method: 'PATCH', body: { schedule } })
    expect(res.json.global.schedule).toEqual(schedule)
    expect((await call('/v2/subscribers/plain/preferences')).json.global.schedule).toEqual(schedule)
  })

  it('refuses critical (400), unknown (404) and malformed (422) updates', async () => {
    const { call } = rawService({ fixture: fixture() })
    const patch = (body: unknown, who = 'plain') =>
      call(`/v2/subscribers/${who}/preferences`, { method: 'PATCH', body })
    expect((await patch({ workflowId: 'alert', channels: { email: false } })).status).toBe(400)
    expect((await patch({ workflowId: 'missing', channels: { email: false } })).status).toBe(404)
    expect((await patch({ channels: { email: false } }, 'nobody')).status).toBe(404)
    const res = await patch({
      channels: { fax: true, email: 'no' },
      schedule: {
        isEnabled: 'yes',
        weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '25:00', end: '10:00 AM' }] } },
      },
    })
    expect(res.status).toBe(422)
    expect(Object.keys(res.json.errors).sort()).toEqual([
      'channels.email',
      'channels.fax',
      'schedule.isEnabled',
      'schedule.weeklySchedule.monday.hours[0].start',
    ])
  })

  it('keeps nothing but a schedule: unknown keys at any depth are refused, and a schedule is global only', async () => {
    const { call } = rawService({ fixture: fixture() })
    const patch = (body: unknown) => call('/v2/subscribers/plain/preferences', { method: 'PATCH', body })
    const hours = [{ start: '09:00 AM', end: '05:00 PM', evil: true }]
    const res = await patch({
      schedule: {
        isEnabled: true,
        junk: { a: [1] },
        weeklySchedule: { monday: { isEnabled: true, extra: 'x', hours } },
      },
    })
    expect(res.status).toBe(422)
    expect(Object.keys(res.json.errors).sort()).toEqual([
      'schedule.junk',
      'schedule.weeklySchedule.monday.extra',
      'schedule.weeklySchedule.monday.hours[0].evil',
    ])
    expect((await call('/v2/subscribers/plain/preferences')).json.global.schedule).toBeUndefined()
    const both = await patch({ workflowId: 'mention', schedule: { isEnabled: true } })
    expect(both.status).toBe(400)
    expect(both.json.message).toMatch(/schedule.*workflowId/)
  })
})
