import type {
  Actor,
  Channel,
  FeedItem,
  FeedSubscriber,
  JsonObject,
  Message,
  MessageCta,
  MessageStatus,
  MessageSubscriber,
  PrimaryIntegration,
  Integration,
  TopicSubscription,
} from '../src/api/types'
import type { Fixture, FixtureSubscriber } from './fixture'
import { FeedIndex, compareMessages } from './feedIndex'
import { createIdGenerator, iso, uuid } from './ids'
import { insertSorted, lowerBound } from './sorted'
import type {
  IntegrationRecord,
  MessageRecord,
  ServiceState,
  SubscriberRecord,
  SubscriptionRecord,
  TenantRecord,
  TopicRecord,
  WorkflowRecord,
} from './types'

/** What an API key selects. */
export interface KeyScope {
  key: string
  organizationId: string
  environmentId: string
}

interface TopicState {
  record: TopicRecord
  /** Ascending by _id. */
  subscriptions: SubscriptionRecord[]
  /** By subscriber _id. */
  bySubscriber: Map<string, SubscriptionRecord>
}

/** Everything one environment holds. */
export interface Environment {
  id: string
  organizationId: string
  subscribers: Map<string, SubscriberRecord>
  /** By identifier. */
  workflows: Map<string, WorkflowRecord>
  topics: Map<string, TopicState>
  tenants: Map<string, TenantRecord>
  /** By subscriber _id. */
  feeds: Map<string, FeedIndex>
  /** Every channel, by subscriber _id, in creation order. */
  messages: Map<string, MessageRecord[]>
  /** By subscriber _id, ascending by _id. */
  subscriptions: Map<string, SubscriptionRecord[]>
}

/** Fields of a subscriber that a fixture or a trigger may set. */
export type SubscriberFields = Omit<FixtureSubscriber, 'subscriberId' | 'environmentId' | 'createdAt' | 'preferences'>

const byId = (a: { _id: string }, b: { _id: string }) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0)

/** The in-memory store, with the indexes that keep every page O(limit + log n). */
export class Store implements ServiceState {
  readonly organizationId: string
  readonly environmentId: string
  readonly keys = new Map<string, KeyScope>()
  readonly integrationList: IntegrationRecord[] = []
  readonly messageById = new Map<string, MessageRecord>()
  private readonly envs = new Map<string, Environment>()
  private readonly makeId = createIdGenerator()
  private lastNow = 0
  /** Told of every in-app message delivered or marked after loading (the webhooks listen here). */
  onMessageEvent: ((type: 'message.created' | 'message.updated', message: MessageRecord) => void) | undefined

  constructor(
    fixture: Fixture,
    readonly clock: () => number,
  ) {
    const first = fixture.apiKeys[0]
    if (!first) throw new Error('fixture without API keys')
    this.organizationId = first.organizationId
    this.environmentId = first.environmentId
    for (const k of fixture.apiKeys) {
      this.keys.set(k.key, { key: k.key, organizationId: k.organizationId, environmentId: k.environmentId })
      if (!this.envs.has(k.environmentId))
        this.envs.set(k.environmentId, {
          id: k.environmentId,
          organizationId: k.organizationId,
          subscribers: new Map(),
          workflows: new Map(),
          topics: new Map(),
          tenants: new Map(),
          feeds: new Map(),
          messages: new Map(),
          subscriptions: new Map(),
        })
    }
    this.load(fixture)
  }

  /** A new id for something created now (strictly increasing even if the clock steps back). */
  newId(): string {
    this.lastNow = Math.max(this.lastNow, this.clock())
    return this.makeId(this.lastNow)
  }

  /** A new id for something created at `timeMs`. */
  idAt(timeMs: number): string {
    return this.makeId(timeMs)
  }

  nowIso(): string {
    return iso(this.clock())
  }

  env(id: string = this.environmentId): Environment {
    const env = this.envs.get(id)
    if (!env) throw new Error(`unknown environment ${id}`)
    return env
  }

  // ------------------------------------------------------------ loading

  private load(fixture: Fixture): void {
    const now = this.nowIso()
    for (const w of fixture.workflows ?? []) {
      const env = this.env(w.environmentId)
      const updatedAt = w.updatedAt ?? now
      env.workflows.set(w.identifier, {
        _id: this.newId(),
        identifier: w.identifier,
        slug: w.slug ?? w.identifier,
        name: w.name,
        description: w.description ?? '',
        active: w.active ?? true,
        critical: w.critical ?? false,
        preferenceSettings: { ...w.preferenceSettings },
        tags: [...(w.tags ?? [])],
        steps: w.steps.map((s) => ({ ...s, _id: this.newId(), active: s.active ?? true })),
        _organizationId: env.organizationId,
        _environmentId: env.id,
        createdAt: updatedAt,
        updatedAt,
      })
    }
    for (const s of fixture.subscribers ?? []) {
      const env = this.env(s.environmentId)
      const sub = this.upsertSubscriber(env, s.subscriberId, s, s.createdAt)
      const prefs = s.preferences
      if (prefs) {
        sub.preferences.channels = { ...prefs.channels }
        if (prefs.schedule) sub.preferences.schedule = structuredClone(prefs.schedule)
        for (const [identifier, channels] of Object.entries(prefs.workflows ?? {})) {
          const workflow = env.workflows.get(identifier)
          if (workflow) sub.preferences.workflows.set(workflow._id, { ...channels })
        }
      }
    }
    for (const t of fixture.topics ?? []) {
      const env = this.env(t.environmentId)
      const topic = this.createTopic(env, t.key, t.name)
      for (const id of t.subscribers ?? []) {
        const sub = env.subscribers.get(id)
        if (sub) this.subscribe(env, topic, sub)
      }
    }
    for (const i of fixture.integrations ?? []) {
      const env = this.env(i.environmentId)
      this.integrationList.push({
        _id: this.newId(),
        _environmentId: env.id,
        _organizationId: env.organizationId,
        name: i.name,
        identifier: i.identifier,
        providerId: i.providerId,
        channel: i.channel,
        credentials: { ...i.credentials },
        configurations: { inboundWebhookEnabled: false },
        active: i.active ?? true,
        deleted: false,
        primary: i.primary ?? false,
        conditions: [...(i.conditions ?? [])],
      })
    }
    for (const t of fixture.tenants ?? []) {
      const env = this.env(t.environmentId)
      env.tenants.set(t.identifier, {
        _id: this.newId(),
        identifier: t.identifier,
        ...(t.name !== undefined && { name: t.name }),
        ...(t.data !== undefined && { data: structuredClone(t.data) }),
        _environmentId: env.id,
        createdAt: now,
        updatedAt: now,
      })
    }
    for (const m of fixture.messages ?? []) {
      const env = this.env(m.environmentId)
      const sub = env.subscribers.get(m.subscriberId)
      const workflow = env.workflows.get(m.workflow)
      if (!sub || !workflow) continue
      const channel = m.channel ?? 'in_app'
      const step = workflow.steps.find((s) => s.channel === channel) ?? workflow.steps[0]
      const createdMs = Date.parse(m.createdAt)
      const read = m.read ?? false
      this.addMessage(env, sub, {
        createdMs,
        workflow,
        stepId: step?._id ?? workflow._id,
        channel,
        content: m.content,
        ...(m.subject !== undefined && { subject: m.subject }),
        read,
        seen: m.seen ?? read,
        actor: m.actor ?? { type: 'none', data: null },
        cta: m.cta ?? {},
        payload: m.payload ?? {},
        overrides: {},
        status: m.status ?? 'sent',
        transactionId: m.transactionId ?? uuid(),
      })
    }
  }

  // ------------------------------------------------------------ writes

  /** Creates the subscriber or updates the fields given. */
  upsertSubscriber(
    env: Environment,
    subscriberId: string,
    fields: SubscriberFields,
    createdAt?: string,
  ): SubscriberRecord {
    const existing = env.subscribers.get(subscriberId)
    const now = this.nowIso()
    const pick = (key: keyof SubscriberFields, current: unknown) =>
      fields[key] !== undefined ? fields[key] : current === undefined ? null : current
    if (existing) {
      let changed = false
      for (const key of ['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone', 'data'] as const) {
        if (fields[key] !== undefined) {
          ;(existing as unknown as Record<string, unknown>)[key] = fields[key]
          changed = true
        }
      }
      if (changed) existing.updatedAt = now
      return existing
    }
    const record: SubscriberRecord = {
      _id: createdAt ? this.idAt(Date.parse(createdAt)) : this.newId(),
      subscriberId,
      _organizationId: env.organizationId,
      _environmentId: env.id,
      firstName: pick('firstName', undefined) as string | null,
      lastName: pick('lastName', undefined) as string | null,
      email: pick('email', undefined) as string | null,
      phone: pick('phone', undefined) as string | null,
      avatar: pick('avatar', undefined) as string | null,
      locale: pick('locale', undefined) as string | null,
      timezone: pick('timezone', undefined) as string | null,
      data: (fields.data as JsonObject | undefined) ?? null,
      deleted: false,
      createdAt: createdAt ?? now,
      updatedAt: createdAt ?? now,
      preferences: { channels: {}, workflows: new Map() },
    }
    env.subscribers.set(subscriberId, record)
    return record
  }

  createTopic(env: Environment, key: string, name?: string): TopicState {
    const now = this.nowIso()
    const state: TopicState = {
      record: {
        _id: this.newId(),
        key,
        ...(name !== undefined && { name }),
        _organizationId: env.organizationId,
        _environmentId: env.id,
        createdAt: now,
        updatedAt: now,
      },
      subscriptions: [],
      bySubscriber: new Map(),
    }
    env.topics.set(key, state)
    return state
  }

  /** Subscribes `sub` to the topic (no-op when already subscribed). */
  subscribe(env: Environment, topic: TopicState, sub: SubscriberRecord, createdMs?: number): SubscriptionRecord {
    const existing = topic.bySubscriber.get(sub._id)
    if (existing) return existing
    const ms = createdMs ?? this.clock()
    const record: SubscriptionRecord = {
      _id: createdMs === undefined ? this.newId() : this.idAt(createdMs),
      createdAt: iso(ms),
      topic: topic.record,
      subscriber: sub,
    }
    insertSorted(topic.subscriptions, record, byId)
    topic.bySubscriber.set(sub._id, record)
    let list = env.subscriptions.get(sub._id)
    if (!list) env.subscriptions.set(sub._id, (list = []))
    insertSorted(list, record, byId)
    return record
  }

  topicState(env: Environment, key: string): TopicState | undefined {
    return env.topics.get(key)
  }

  /** Records a message; in_app ones enter the feed index. */
  addMessage(
    env: Environment,
    sub: SubscriberRecord,
    m: {
      createdMs?: number
      workflow: WorkflowRecord
      stepId: string
      channel: Channel
      content: string
      subject?: string
      read?: boolean
      seen?: boolean
      actor: Actor
      cta: MessageCta
      payload: JsonObject
      overrides: JsonObject
      status: MessageStatus
      errorText?: string
      providerId?: string
      transactionId: string
      notificationId?: string
      tenant?: string
    },
  ): MessageRecord {
    const createdMs = m.createdMs ?? this.clock()
    const id = m.createdMs === undefined ? this.newId() : this.idAt(createdMs)
    const at = iso(createdMs)
    const record: MessageRecord = {
      _id: id,
      createdMs,
      _templateId: m.workflow._id,
      _environmentId: env.id,
      _messageTemplateId: m.stepId,
      _organizationId: env.organizationId,
      _notificationId: m.notificationId ?? this.idAt(createdMs),
      _subscriberId: sub._id,
      _jobId: this.idAt(createdMs),
      _feedId: null,
      subscriberId: sub.subscriberId,
      templateIdentifier: m.workflow.identifier,
      channel: m.channel,
      transactionId: m.transactionId,
      content: m.content,
      ...(m.subject !== undefined && { subject: m.subject }),
      read: m.read ?? false,
      seen: m.seen ?? m.read ?? false,
      createdAt: at,
      updatedAt: at,
      deliveredAt: [at],
      actor: m.actor,
      cta: m.cta,
      status: m.status,
      ...(m.errorText !== undefined && { errorText: m.errorText, errorId: 'delivery_failed' }),
      ...(m.providerId !== undefined && { providerId: m.providerId }),
      ...(m.channel === 'email' && sub.email !== null && { email: sub.email }),
      ...(m.channel === 'sms' && sub.phone !== null && { phone: sub.phone }),
      payload: m.payload,
      overrides: m.overrides,
      ...(m.tenant !== undefined && { tenant: m.tenant }),
    }
    this.messageById.set(id, record)
    let all = env.messages.get(sub._id)
    if (!all) env.messages.set(sub._id, (all = []))
    all.push(record)
    if (m.channel === 'in_app') this.feedOf(env, sub).add(record)
    return record
  }

  feedOf(env: Environment, sub: SubscriberRecord): FeedIndex {
    let feed = env.feeds.get(sub._id)
    if (!feed) env.feeds.set(sub._id, (feed = new FeedIndex()))
    return feed
  }

  // ------------------------------------------------------------ views

  subscriberInfo(sub: SubscriberRecord): MessageSubscriber {
    return {
      _id: sub._id,
      subscriberId: sub.subscriberId,
      firstName: sub.firstName,
      lastName: sub.lastName,
      email: sub.email,
      phone: sub.phone,
      avatar: sub.avatar,
      locale: sub.locale,
      timezone: sub.timezone,
      data: sub.data,
      channels: [],
      isOnline: null,
      lastOnlineAt: null,
      __v: 0,
      _organizationId: sub._organizationId,
      _environmentId: sub._environmentId,
      deleted: false,
      createdAt: sub.createdAt,
      updatedAt: sub.updatedAt,
    }
  }

  feedItem(m: MessageRecord, sub: SubscriberRecord): FeedItem {
    const subscriber: FeedSubscriber = { _id: sub._id, subscriberId: sub.subscriberId }
    if (sub.firstName !== null) subscriber.firstName = sub.firstName
    if (sub.lastName !== null) subscriber.lastName = sub.lastName
    if (sub.avatar !== null) subscriber.avatar = sub.avatar
    return {
      _id: m._id,
      _templateId: m._templateId,
      _environmentId: m._environmentId,
      _messageTemplateId: m._messageTemplateId,
      _organizationId: m._organizationId,
      _notificationId: m._notificationId,
      _subscriberId: m._subscriberId,
      _feedId: m._feedId,
      _jobId: m._jobId,
      createdAt: m.createdAt,
      updatedAt: m.updatedAt,
      ...(m.actor && { actor: m.actor }),
      subscriber,
      transactionId: m.transactionId,
      templateIdentifier: m.templateIdentifier,
      providerId: m.providerId ?? null,
      content: m.content,
      subject: m.subject ?? null,
      channel: m.channel,
      read: m.read,
      seen: m.seen,
      deviceTokens: null,
      cta: m.cta,
      status: m.status,
      payload: m.payload,
      overrides: m.overrides,
    }
  }

  message(m: MessageRecord, sub: SubscriberRecord): Message {
    return {
      _id: m._id,
      _templateId: m._templateId,
      _environmentId: m._environmentId,
      _messageTemplateId: m._messageTemplateId,
      _organizationId: m._organizationId,
      _notificationId: m._notificationId,
      _subscriberId: m._subscriberId,
      subscriber: this.subscriberInfo(sub),
      templateIdentifier: m.templateIdentifier,
      createdAt: m.createdAt,
      deliveredAt: [...m.deliveredAt],
      ...(m.lastSeenDate !== undefined && { lastSeenDate: m.lastSeenDate }),
      ...(m.lastReadDate !== undefined && { lastReadDate: m.lastReadDate }),
      content: m.content,
      transactionId: m.transactionId,
      ...(m.subject !== undefined && { subject: m.subject }),
      channel: m.channel,
      read: m.read,
      seen: m.seen,
      ...(m.email !== undefined && { email: m.email }),
      ...(m.phone !== undefined && { phone: m.phone }),
      ...(m.providerId !== undefined && { providerId: m.providerId }),
      cta: m.cta,
      _feedId: m._feedId,
      status: m.status,
      ...(m.errorId !== undefined && { errorId: m.errorId }),
      ...(m.errorText !== undefined && { errorText: m.errorText }),
      payload: m.payload,
      overrides: m.overrides,
    }
  }

  subscription(s: SubscriptionRecord): TopicSubscription {
    const t = s.topic
    const sub = s.subscriber
    return {
      _id: s._id,
      createdAt: s.createdAt,
      topic: {
        _id: t._id,
        key: t.key,
        ...(t.name !== undefined && { name: t.name }),
        createdAt: t.createdAt,
        updatedAt: t.updatedAt,
      },
      subscriber: {
        _id: sub._id,
        subscriberId: sub.subscriberId,
        avatar: sub.avatar,
        firstName: sub.firstName,
        lastName: sub.lastName,
        email: sub.email,
      },
    }
  }

  integration(i: IntegrationRecord): Integration {
    const { configurations: _c, credentials, ...rest } = i
    const { appSid: _a, senderId: _s, AppIOBaseUrl: _b, ...listed } = credentials
    return { ...rest, credentials: listed, conditions: [...i.conditions] }
  }

  primaryIntegration(i: IntegrationRecord): PrimaryIntegration {
    return {
      ...i,
      credentials: { ...i.credentials },
      configurations: { ...i.configurations },
      conditions: [...i.conditions],
    }
  }

  // ------------------------------------------------------------ ServiceState

  subscriber(subscriberId: string, environmentId?: string): SubscriberRecord | undefined {
    return this.env(environmentId).subscribers.get(subscriberId)
  }

  subscribers(environmentId?: string): SubscriberRecord[] {
    return [...this.env(environmentId).subscribers.values()]
  }

  messages(subscriberId: string, environmentId?: string): MessageRecord[] {
    const env = this.env(environmentId)
    const sub = env.subscribers.get(subscriberId)
    if (!sub) return []
    return [...(env.messages.get(sub._id) ?? [])].sort((a, b) => compareMessages(b, a))
  }

  workflows(environmentId?: string): WorkflowRecord[] {
    return [...this.env(environmentId).workflows.values()]
  }

  topics(environmentId?: string): TopicRecord[] {
    return [...this.env(environmentId).topics.values()].map((t) => t.record)
  }

  subscriptions(topicKey: string, environmentId?: string): readonly SubscriptionRecord[] {
    return this.env(environmentId).topics.get(topicKey)?.subscriptions ?? []
  }

  integrations(): IntegrationRecord[] {
    return [...this.integrationList]
  }

  tenants(environmentId?: string): TenantRecord[] {
    return [...this.env(environmentId).tenants.values()]
  }
}

/** Position of the subscription `id` in the ascending list, or -1. */
export function indexOfId(items: readonly { _id: string }[], id: string): number {
  const index = lowerBound(items, (x) => (x._id < id ? -1 : x._id > id ? 1 : 0))
  return items[index]?._id === id ? index : -1
}
