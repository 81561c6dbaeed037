import type {
  Actor,
  Channel,
  Integration,
  JsonObject,
  MessageCta,
  MessageStatus,
  PreferenceChannels,
  Schedule,
  StepFilter,
  Configurations,
  PrimaryCredentials,
} from '../src/api/types'
import type { FixtureStep } from './fixture'
import type { IdempotencyLimits } from './guards'
import type { WebhookOptions, WebhookStats } from './webhooks'

/** Options of {@link createService}. */
export interface ServiceOptions {
  /** Fixture JSON (validated; a bad one throws FixtureError naming the field). Default: the demo fixture. */
  fixture?: unknown
  /** Wrap non-paginated bodies as `{data}`, as the hosted service does. */
  envelope?: boolean
  /** Milliseconds added to every response. */
  latency?: number
  /** Prefix the API is mounted under, e.g. `/api`. */
  basePath?: string
  /** Clock in ms since the epoch. @default Date.now */
  now?: () => number
  /** Token bucket per API key; off when absent. */
  rateLimit?: { limit: number; windowMs: number }
  /**
   * Feed pages carry `totalCount` (the spec's "total notifications available"). `false` leaves it out, as a service
   * that does not count may. @default true
   */
  totalCount?: boolean
  /**
   * Bounds of the answers kept for `Idempotency-Key` replays (24 h each). Past either bound the oldest completed
   * answers are forgotten first. @default { maxEntries: 20_000, maxBytes: 32 MiB }
   */
  idempotency?: IdempotencyLimits
  /**
   * Posts a signed webhook (Standard Webhooks) to `url` for every in-app message delivered (`message.created`, delayed
   * deliveries when they land) and marked (`message.updated`), after the request that caused it; see server/WEBHOOKS.md.
   */
  webhooks?: WebhookOptions
}

/** A fault to inject into matching requests. */
export interface FaultRule {
  method?: string
  /** Path without basePath, e.g. `/v1/subscribers/x/messages/mark-as`. */
  path?: string | RegExp
  /** Milliseconds before answering. */
  latency?: number
  /** Answer this status with an error body. */
  status?: number
  /** With `status`: a `Retry-After` of this many seconds. */
  retryAfter?: number
  /** Reject like a dropped connection (`TypeError('fetch failed')`). */
  drop?: boolean
  /** 200 with a body that is not JSON. */
  malformed?: boolean
  /** 200 with this JSON body. */
  body?: unknown
  /** Probability 0..1 that the rule applies. @default 1 */
  rate?: number
  /** Apply to the next N matching requests only. */
  times?: number
}

/** The in-process reference service. */
export interface Service {
  /** Fetch-standard handler. */
  fetch(request: Request): Promise<Response>
  /** The fixture's first API key. */
  apiKey: string
  /** Read access to what the service holds. */
  state: ServiceState
  faults: {
    /** Adds a rule; returns its remover. */
    add(rule: FaultRule): () => void
    clear(): void
  }
  /**
   * Resolves once the background work due so far is done: the rest of every accepted trigger (large ones are
   * delivered in slices after the response) and the delay steps due by the clock now.
   */
  settle(): Promise<void>
  /** The webhooks: counts so far, and `idle()`, which resolves once none is queued, in flight or awaiting a retry. */
  webhooks: WebhookStats & { idle(): Promise<void> }
}

interface SubscriberPreferences {
  channels: PreferenceChannels
  schedule?: Schedule
  /** By workflow `_id`. */
  workflows: Map<string, PreferenceChannels>
}

export interface SubscriberRecord {
  _id: string
  subscriberId: string
  _organizationId: string
  _environmentId: string
  firstName: string | null
  lastName: string | null
  email: string | null
  phone: string | null
  avatar: string | null
  locale: string | null
  timezone: string | null
  data: JsonObject | null
  deleted: false
  createdAt: string
  updatedAt: string
  preferences: SubscriberPreferences
}

export interface StepRecord extends FixtureStep {
  _id: string
  active: boolean
}

export interface WorkflowRecord {
  _id: string
  identifier: string
  slug: string
  name: string
  description: string
  active: boolean
  critical: boolean
  preferenceSettings: PreferenceChannels
  tags: string[]
  steps: StepRecord[]
  _organizationId: string
  _environmentId: string
  createdAt: string
  updatedAt: string
}

export interface TopicRecord {
  _id: string
  key: string
  name?: string
  _organizationId: string
  _environmentId: string
  createdAt: string
  updatedAt: string
}

export interface SubscriptionRecord {
  _id: string
  createdAt: string
  topic: TopicRecord
  subscriber: SubscriberRecord
}

export interface IntegrationRecord extends Omit<Integration, 'credentials' | '_id' | 'conditions'> {
  _id: string
  credentials: PrimaryCredentials
  configurations: Configurations
  conditions: StepFilter[]
}

export interface TenantRecord {
  _id: string
  identifier: string
  name?: string
  data?: JsonObject
  _environmentId: string
  createdAt: string
  updatedAt: string
}

/** A delivered (or failed) message of any channel. */
export interface MessageRecord {
  _id: string
  /** createdAt in ms, the feed's sort key. */
  createdMs: number
  _templateId: string
  _environmentId: string
  _messageTemplateId: string
  _organizationId: string
  _notificationId: string
  _subscriberId: string
  _jobId: string
  _feedId: string | null
  subscriberId: string
  templateIdentifier: string
  channel: Channel
  transactionId: string
  content: string
  subject?: string
  read: boolean
  seen: boolean
  lastSeenDate?: string
  lastReadDate?: string
  createdAt: string
  updatedAt: string
  deliveredAt: string[]
  actor?: Actor
  cta: MessageCta
  status: MessageStatus
  errorText?: string
  errorId?: string
  providerId?: string
  email?: string
  phone?: string
  payload: JsonObject
  overrides: JsonObject
  tenant?: string
}

/** Read access to the service's data. */
export interface ServiceState {
  readonly organizationId: string
  /** The environment of the first API key. */
  readonly environmentId: string
  subscriber(subscriberId: string, environmentId?: string): SubscriberRecord | undefined
  subscribers(environmentId?: string): SubscriberRecord[]
  /** Every message of a subscriber, all channels, newest first. */
  messages(subscriberId: string, environmentId?: string): MessageRecord[]
  workflows(environmentId?: string): WorkflowRecord[]
  topics(environmentId?: string): TopicRecord[]
  /** Subscriptions of a topic in creation order. */
  subscriptions(topicKey: string, environmentId?: string): readonly SubscriptionRecord[]
  integrations(): IntegrationRecord[]
  tenants(environmentId?: string): TenantRecord[]
}
