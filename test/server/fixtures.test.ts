import { describe, expect, it } from 'vitest'
import {
  DEMO_API_KEY,
  DEMO_SUBSCRIBER_ID,
  FixtureError,
  createService,
  demoFixture,
  validateFixture,
} from '../../server'
import { buildFixture, inApp, workflow } from '../support/fixtures'
import { rawService } from './helpers'

function refused(mutate: (f: any) => void): string {
  const fixture: any = structuredClone(
    buildFixture({ workflows: [workflow('a', [inApp('x')]), workflow('b', [inApp('y'), { channel: 'email' }])] }),
  )
  mutate(fixture)
  try {
    validateFixture(fixture)
  } catch (error) {
    expect(error).toBeInstanceOf(FixtureError)
    return (error as Error).message
  }
  throw new Error('fixture was accepted')
}

describe('fixture validation', () => {
  it('names the bad field path', () => {
    expect(refused((f) => (f.workflows[1].steps[0].channel = 'fax'))).toBe(
      'workflows[1].steps[0].channel: expected one of in_app, email, sms, chat, push, delay',
    )
    expect(refused((f) => (f.apiKeys = []))).toMatch(/^apiKeys: /)
    expect(refused((f) => delete f.apiKeys[0].environmentId)).toBe('apiKeys[0].environmentId: required')
    expect(refused((f) => (f.workflows[0].stepz = []))).toMatch(/^workflows\[0\]\.stepz: unknown field/)
    expect(refused((f) => f.workflows[0].steps.push({ channel: 'delay', unit: 'seconds' }))).toMatch(
      /^workflows\[0\]\.steps\[1\]\.amount: /,
    )
    expect(refused((f) => (f.subscribers[0].subscriberId = 'has space'))).toMatch(/^subscribers\[0\]\.subscriberId: /)
    expect(refused((f) => (f.topics = [{ key: 't', subscribers: ['ghost'] }]))).toBe(
      'topics[0].subscribers[0]: unknown subscriber ghost',
    )
    expect(
      refused(
        (f) =>
          (f.messages = [{ subscriberId: 'user-1', workflow: 'zzz', createdAt: '2026-01-01T00:00:00Z', content: 'c' }]),
      ),
    ).toBe('messages[0].workflow: unknown workflow zzz')
    expect(
      refused((f) => (f.messages = [{ subscriberId: 'user-1', workflow: 'a', createdAt: 'yesterday', content: 'c' }])),
    ).toMatch(/^messages\[0\]\.createdAt: /)
    expect(
      refused(
        (f) => (f.integrations = [{ name: 'n', identifier: 'i', providerId: 'p', channel: 'chat', primary: true }]),
      ),
    ).toBe('integrations[0].primary: channel chat does not support primary')
    expect(refused((f) => (f.workflows[0].environmentId = 'nowhere'))).toMatch(
      /^workflows\[0\]\.environmentId: unknown environment/,
    )
    expect(
      refused(
        (f) =>
          (f.subscribers[0].preferences = {
            schedule: {
              isEnabled: true,
              weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '9', end: '10:00 AM' }] } },
            },
          }),
      ),
    ).toMatch(/^subscribers\[0\]\.preferences\.schedule\.weeklySchedule\.monday\.hours\[0\]\.start: /)
    expect(() => createService({ fixture: 'nope' })).toThrow(FixtureError)
  })

  it('accepts the demo fixture, which has what the demo promises', async () => {
    expect(validateFixture(demoFixture)).toBe(demoFixture)
    const { call, service } = rawService({ fixture: demoFixture })
    expect(service.apiKey).toBe(DEMO_API_KEY)
    expect(service.state.subscribers()).toHaveLength(20)
    const feed = (await call(`/v1/subscribers/${DEMO_SUBSCRIBER_ID}/notifications/feed?limit=100`)).json
    expect(feed.totalCount).toBe(60)
    const items: any[] = feed.data
    expect(new Set(items.map((i) => i.actor.type))).toEqual(new Set(['none', 'user', 'system_icon', 'system_custom']))
    expect(items.some((i) => i.read) && items.some((i) => !i.read) && items.some((i) => !i.seen)).toBe(true)
    expect(items.some((i) => i.cta.type === 'redirect')).toBe(true)
    expect(items.some((i) => i.cta.action?.buttons?.some((b: any) => b.type === 'secondary'))).toBe(true)
    expect(
      items.some((i) => /[\u0600-\u06ff]/.test(i.content)) && items.some((i) => /[\u3040-\u30ff]/.test(i.content)),
    ).toBe(true)
    expect(items.some((i) => i.content.length > 400)).toBe(true)
    const span = Date.parse(items[0].createdAt) - Date.parse(items[59].createdAt)
    expect(span).toBeGreaterThan(14 * 86_400_000)
    const channels = new Set(
      (await call('/v1/integrations/active')).json.map((i: any) => `${i._environmentId}/${i.channel}`),
    )
    expect(channels.size).toBe(10)
    const critical = (await call(`/v2/subscribers/${DEMO_SUBSCRIBER_ID}/preferences?criticality=critical`)).json
    expect(critical.workflows.map((w: any) => w.workflow.identifier)).toEqual(['security-alert'])
    const trigger = await call('/v1/events/trigger', {
      body: { name: 'comment-mention', to: DEMO_SUBSCRIBER_ID, payload: { authorName: 'Mara' } },
    })
    expect(trigger.json.status).toBe('processed')
  })
})
