import type { JsonObject } from '../src/api/types'
import { storeOf } from './service'
import type { Service, WorkflowRecord } from './types'

/** Options of {@link generateMessages}. */
export interface GenerateMessagesOptions {
  subscriberId: string
  count: number
  environmentId?: string
  /** Workflow identifier. @default the environment's first workflow */
  workflow?: string
  /** createdAt of the newest message in ms. @default the service clock */
  newestAt?: number
  /** Spacing between messages in ms. @default 1000 */
  stepMs?: number
  /** Index 0 is the newest message. */
  read?: (index: number) => boolean
  seen?: (index: number) => boolean
  payload?: (index: number) => JsonObject
}

/**
 * Adds `count` in_app messages for a subscriber straight into the store (no HTTP, no validation per item),
 * creating the subscriber when missing. Content is `Message <index>`, index 0 being the newest.
 * @example generateMessages(service, { subscriberId: 'demo-user', count: 100_000 })
 */
export function generateMessages(service: Service, options: GenerateMessagesOptions): void {
  const store = storeOf(service)
  const env = store.env(options.environmentId)
  const sub = store.upsertSubscriber(env, options.subscriberId, {})
  const workflow: WorkflowRecord | undefined = options.workflow
    ? env.workflows.get(options.workflow)
    : env.workflows.values().next().value
  if (!workflow) throw new Error(`no workflow ${options.workflow ?? ''} in environment ${env.id}`)
  const step = workflow.steps.find((s) => s.channel === 'in_app') ?? workflow.steps[0]
  const newest = options.newestAt ?? store.clock()
  const stepMs = options.stepMs ?? 1000
  // Oldest first, so every insert appends to the sorted feed lists.
  for (let i = options.count - 1; i >= 0; i--) {
    const read = options.read?.(i) ?? false
    store.addMessage(env, sub, {
      createdMs: newest - i * stepMs,
      workflow,
      stepId: step?._id ?? workflow._id,
      channel: 'in_app',
      content: `Message ${i}`,
      read,
      seen: options.seen?.(i) ?? read,
      actor: { type: 'none', data: null },
      cta: {},
      payload: options.payload?.(i) ?? { index: i },
      overrides: {},
      status: 'sent',
      transactionId: `generated-${i}`,
    })
  }
}

/** Options of {@link generateSubscriptions}. */
export interface GenerateSubscriptionsOptions {
  topicKey: string
  count: number
  environmentId?: string
  /** New subscribers are `<prefix><index>`. @default `<topicKey>-member-` */
  subscriberPrefix?: string
}

/**
 * Subscribes `count` new subscribers to a topic (created when missing), straight into the store.
 * @example generateSubscriptions(service, { topicKey: 'big', count: 60_000 })
 */
export function generateSubscriptions(service: Service, options: GenerateSubscriptionsOptions): void {
  const store = storeOf(service)
  const env = store.env(options.environmentId)
  const topic = store.topicState(env, options.topicKey) ?? store.createTopic(env, options.topicKey)
  const prefix = options.subscriberPrefix ?? `${options.topicKey}-member-`
  const width = String(options.count).length
  for (let i = 0; i < options.count; i++) {
    const sub = store.upsertSubscriber(env, prefix + String(i).padStart(width, '0'), {})
    store.subscribe(env, topic, sub)
  }
}
