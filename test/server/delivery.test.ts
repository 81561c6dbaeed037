import { describe, expect, it } from 'vitest'
import { generateSubscriptions, type Service } from '../../server'
import { SLICE } from '../../server/delivery'
import { buildFixture, delayStep, inApp, workflow } from '../support/fixtures'
import { rawService } from './helpers'

const MEMBERS = 20_000

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

function fixture() {
  return buildFixture({
    workflows: [
      workflow('test-workflow', [inApp('Hello {{subscriber.subscriberId}}')]),
      workflow('later', [inApp('first'), delayStep(1, 'minutes'), inApp('second {{payload.n}}')]),
    ],
  })
}

/** How many of `ids` have exactly `count` messages. */
function delivered(service: Service, ids: string[], count = 1): number {
  return ids.filter((id) => service.state.messages(id).length === count).length
}

/**
 * After a heavy trigger has answered, sends light requests one event-loop turn apart until its delivery is done;
 * answers how many were answered before the end, and whether the delivery ended on its own (without settle()).
 */
async function lightRequestsDuring(call: ReturnType<typeof rawService>['call'], done: () => boolean) {
  let answeredBefore = 0
  for (let turn = 0; turn < 100_000 && !done(); turn++) {
    const res = await call('/v1/integrations/active')
    expect(res.status).toBe(200)
    if (!done()) answeredBefore++
    await nextTurn()
  }
  return { answeredBefore, endedAlone: done() }
}

describe('delivery of large triggers', () => {
  it(`answers light requests while a trigger to ${MEMBERS.toLocaleString('en')} topic members is delivered; all exist after settle()`, async () => {
    const { call, service } = rawService({ fixture: fixture() })
    generateSubscriptions(service, { topicKey: 'everyone', count: MEMBERS })
    const members = service.state.subscriptions('everyone').map((s) => s.subscriber.subscriberId)
    const last = members[members.length - 1]!
    const trigger = await call('/v1/events/trigger', {
      body: { name: 'test-workflow', to: { type: 'Topic', topicKey: 'everyone' } },
    })
    expect(trigger.status).toBe(201)
    expect(trigger.json.status).toBe('processed')
    // A light request sent now is answered while the last member still has nothing.
    const feed = await call(`/v1/subscribers/${last}/notifications/feed`)
    expect(feed.status).toBe(200)
    expect(feed.json.totalCount).toBe(0)
    const { answeredBefore, endedAlone } = await lightRequestsDuring(
      call,
      () => service.state.messages(last).length > 0,
    )
    expect(answeredBefore).toBeGreaterThan(1)
    expect(endedAlone).toBe(true)
    await service.settle()
    expect(delivered(service, members)).toBe(MEMBERS)
    expect(service.state.messages(last)[0]!.content).toBe(`Hello ${last}`)
  })

  it('does the same for a trigger naming tens of thousands of new subscribers, and for a bulk of 100 events', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    const ids = Array.from({ length: 30_000 }, (_, i) => `new-${i}`)
    expect((await call('/v1/events/trigger', { body: { name: 'test-workflow', to: ids } })).status).toBe(201)
    expect(service.state.subscriber(ids[ids.length - 1]!)).toBeUndefined()
    expect((await call('/v1/integrations/active')).status).toBe(200)
    await service.settle()
    expect(delivered(service, ids)).toBe(ids.length)

    generateSubscriptions(service, { topicKey: 'team', count: 300 })
    const team = service.state.subscriptions('team').map((s) => s.subscriber.subscriberId)
    const events = Array.from({ length: 100 }, (_, n) => ({
      name: 'test-workflow',
      to: { type: 'Topic', topicKey: 'team' },
      transactionId: `bulk-${n}`,
    }))
    const bulk = await call('/v1/events/trigger/bulk', { body: { events } })
    expect(bulk.status).toBe(201)
    expect(bulk.json.every((r: { status: string }) => r.status === 'processed')).toBe(true)
    const lastOfLast = () => service.state.messages(team[team.length - 1]!).some((m) => m.transactionId === 'bulk-99')
    expect(lastOfLast()).toBe(false)
    // The request spent one slice's worth of work before answering, not one per event.
    const deliveredBeforeAnswer = team.reduce((n, id) => n + service.state.messages(id).length, 0)
    expect(deliveredBeforeAnswer).toBeLessThanOrEqual(SLICE)
    const { answeredBefore } = await lightRequestsDuring(call, lastOfLast)
    expect(answeredBefore).toBeGreaterThan(1)
    await service.settle()
    expect(delivered(service, team, 100)).toBe(team.length)
  })

  it('walks a topic once however often a trigger names it, leaving out only whom every naming excludes', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    generateSubscriptions(service, { topicKey: 'team', count: 2_000 })
    const team = service.state.subscriptions('team').map((s) => s.subscriber.subscriberId)
    const [first, second, last] = [team[0]!, team[1]!, team[team.length - 1]!]
    /** Event-loop turns after the answer until the last member has the message of `transactionId`. */
    const turnsToDeliver = async (transactionId: string, to: unknown) => {
      expect((await call('/v1/events/trigger', { body: { name: 'test-workflow', to, transactionId } })).status).toBe(
        201,
      )
      let turns = 0
      while (!service.state.messages(last).some((m) => m.transactionId === transactionId) && turns < 10_000) {
        await nextTurn()
        turns++
      }
      return turns
    }
    const once = await turnsToDeliver('once', { type: 'Topic', topicKey: 'team' })
    const namings = [
      { type: 'Topic', topicKey: 'team', exclude: [first, second] },
      ...Array.from({ length: 3_000 }, () => ({ type: 'Topic', topicKey: 'team', exclude: [first] })),
    ]
    // Walking the topic per naming would take hundreds of turns more: 3,000 walks of 2,000 members.
    expect(await turnsToDeliver('repeated', namings)).toBeLessThanOrEqual(once + 1)
    await service.settle()
    const got = (id: string) => service.state.messages(id).filter((m) => m.transactionId === 'repeated').length
    expect([got(first), got(second), got(last)]).toEqual([0, 1, 1])
    expect(delivered(service, team.slice(1), 2)).toBe(team.length - 1)
  })

  it('delivers a small trigger before it answers, duplicates once, and the steps after a delay to every recipient', async () => {
    let now = Date.parse('2026-03-01T10:00:00.000Z')
    const { call, service } = rawService({ fixture: fixture(), now: () => now })
    await call('/v1/events/trigger', {
      body: { name: 'test-workflow', to: ['user-1', { subscriberId: 'user-1' }, 'bo'] },
    })
    expect([service.state.messages('user-1').length, service.state.messages('bo').length]).toEqual([1, 1])

    generateSubscriptions(service, { topicKey: 'many', count: 2_000 })
    const many = service.state.subscriptions('many').map((s) => s.subscriber.subscriberId)
    await call('/v1/events/trigger', {
      body: { name: 'later', to: { type: 'Topic', topicKey: 'many' }, payload: { n: 7 } },
    })
    await service.settle()
    expect(delivered(service, many, 1)).toBe(many.length)
    now += 60_000
    await service.settle()
    expect(delivered(service, many, 2)).toBe(many.length)
    expect(service.state.messages(many[1_999]!)[0]).toMatchObject({
      content: 'second 7',
      createdAt: '2026-03-01T10:01:00.000Z',
    })
  })
})
