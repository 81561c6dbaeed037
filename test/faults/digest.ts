import type { Service } from '../../server'

/** Everything the service holds that a request could change, as one string to compare before and after. */
export function digest(service: Service): string {
  const s = service.state
  return JSON.stringify({
    subscribers: s.subscribers().map((x) => ({
      ...x,
      preferences: { ...x.preferences, workflows: [...x.preferences.workflows] },
      messages: s.messages(x.subscriberId),
    })),
    workflows: s.workflows(),
    topics: s
      .topics()
      .map((t) => ({ ...t, subscriptions: s.subscriptions(t.key).map((x) => [x._id, x.subscriber.subscriberId]) })),
    integrations: s.integrations(),
    tenants: s.tenants(),
  })
}
