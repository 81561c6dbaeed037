/**
 * Types for every resource and request of the Notification Delivery Service API,
 * with the spec's field names, optionality, nullability and enums.
 * Section numbers refer to the spec (§2 resources, §4 operations).
 */

/** The five delivery channels. */
export type Channel = 'in_app' | 'email' | 'sms' | 'chat' | 'push'
export const CHANNELS: readonly Channel[] = ['in_app', 'email', 'sms', 'chat', 'push']

/** Free-form JSON object (payload, overrides, data). */
export type JsonObject = { [key: string]: unknown }

// ---------------------------------------------------------------- §2.1–2.3 topics

/** §2.2 */
export interface Topic {
  _id: string
  key: string
  name?: string
  createdAt?: string
  updatedAt?: string
}

/** §2.3 A subscriber as shown in subscriptions. */
export interface TopicSubscriber {
  _id: string
  subscriberId: string
  avatar?: string | null
  firstName?: string | null
  lastName?: string | null
  email?: string | null
}

/** §2.1 */
export interface TopicSubscription {
  _id: string
  createdAt: string
  topic: Topic
  subscriber: TopicSubscriber
}

// ---------------------------------------------------------------- §2.4–2.7 integrations

/** §2.5 Credentials of an integration (the active list's shape). */
export interface Credentials {
  apiKey?: string
  user?: string
  secretKey?: string
  domain?: string
  password?: string
  host?: string
  port?: string
  region?: string
  accountSid?: string
  messageProfileId?: string
  token?: string
  from?: string
  senderName?: string
  projectName?: string
  applicationId?: string
  clientId?: string
  baseUrl?: string
  webhookUrl?: string
  redirectUrl?: string
  serviceAccount?: string
  ipPoolName?: string
  apiKeyRequestHeader?: string
  secretKeyRequestHeader?: string
  idPath?: string
  datePath?: string
  apiToken?: string
  authenticationTokenKey?: string
  instanceId?: string
  alertUid?: string
  title?: string
  imageUrl?: string
  state?: string
  externalLink?: string
  channelId?: string
  phoneNumberIdentification?: string
  accessKey?: string
  secure?: boolean
  requireTls?: boolean
  ignoreTls?: boolean
  hmac?: boolean
  authenticateByToken?: boolean
  tlsOptions?: JsonObject
}

/** §2.5 The set-primary response adds three credential fields. */
export interface PrimaryCredentials extends Credentials {
  appSid?: string
  senderId?: string
  AppIOBaseUrl?: string
}

/** §2.6 */
export interface Configurations {
  inboundWebhookEnabled?: boolean
  inboundWebhookSigningKey?: string
}

export type StepFilterType = 'BOOLEAN' | 'TEXT' | 'DATE' | 'NUMBER' | 'STATEMENT' | 'LIST' | 'MULTI_LIST' | 'GROUP'

export type FilterOperator =
  | 'LARGER'
  | 'SMALLER'
  | 'LARGER_EQUAL'
  | 'SMALLER_EQUAL'
  | 'EQUAL'
  | 'NOT_EQUAL'
  | 'ALL_IN'
  | 'ANY_IN'
  | 'NOT_IN'
  | 'BETWEEN'
  | 'NOT_BETWEEN'
  | 'LIKE'
  | 'NOT_LIKE'
  | 'IN'

/** §2.7 */
export interface FieldFilterPart {
  field: string
  value: string
  operator: FilterOperator
  on: 'subscriber' | 'payload'
}

/** §2.7 */
export interface StepFilter {
  isNegated: boolean
  type: StepFilterType
  value: 'AND' | 'OR'
  children: FieldFilterPart[]
}

/** §2.4 An integration as listed by GET /v1/integrations/active. */
export interface Integration {
  _id?: string
  _environmentId: string
  _organizationId: string
  name: string
  identifier: string
  providerId: string
  channel: Channel
  credentials: Credentials
  active: boolean
  deleted: boolean
  deletedAt?: string
  deletedBy?: string
  primary: boolean
  conditions?: StepFilter[]
}

/** §2.4 The set-primary response shape: with configurations and the extra credentials. */
export interface PrimaryIntegration extends Omit<Integration, 'credentials'> {
  credentials: PrimaryCredentials
  configurations?: Configurations
}

// ---------------------------------------------------------------- §2.8 preferences

/** Optional boolean per channel. */
export type PreferenceChannels = Partial<Record<Channel, boolean>>

/** A clock time such as "09:00 AM". */
export type ClockTime = string

export interface TimeRange {
  start: ClockTime
  end: ClockTime
}

export interface DaySchedule {
  isEnabled: boolean
  hours?: TimeRange[]
}

export type Weekday = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday'
export const WEEKDAYS: readonly Weekday[] = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
]

export interface Schedule {
  isEnabled: boolean
  weeklySchedule?: Partial<Record<Weekday, DaySchedule>>
}

export interface GlobalPreference {
  enabled: boolean
  channels: PreferenceChannels
  schedule?: Schedule
}

export type PreferenceSource = 'subscriber' | 'template' | 'workflowOverride'

export interface PreferenceOverride {
  channel: Channel
  source: PreferenceSource
}

export interface WorkflowInfo {
  slug: string
  identifier: string
  name: string
  updatedAt?: string
}

export interface WorkflowPreference {
  enabled: boolean
  channels: PreferenceChannels
  overrides: PreferenceOverride[]
  workflow: WorkflowInfo
}

/** §2.8 / §4.3 */
export interface Preferences {
  global: GlobalPreference
  workflows: WorkflowPreference[]
}

export type Criticality = 'critical' | 'nonCritical' | 'all'

/** PATCH /v2/subscribers/{id}/preferences (beyond the spec; api-decisions). */
export interface UpdatePreferencesBody {
  channels?: PreferenceChannels
  /** Workflow `_id`, identifier or slug; absent = the global preference. */
  workflowId?: string
  schedule?: Schedule
}

// ---------------------------------------------------------------- §2.9–2.11 feed and messages

export type MessageStatus = 'sent' | 'error' | 'warning'
export type ActorType = 'none' | 'user' | 'system_icon' | 'system_custom'

export interface Actor {
  data: string | null
  type: ActorType
}

export interface FeedSubscriber {
  _id?: string
  firstName?: string
  lastName?: string
  avatar?: string
  subscriberId: string
}

/** §2.11 */
export type ButtonType = 'primary' | 'secondary'

export interface MessageButton {
  type: ButtonType
  content: string
  resultContent?: string
}

export interface MessageAction {
  status?: 'pending' | 'done'
  buttons?: MessageButton[]
  result?: { payload?: JsonObject; type?: ButtonType }
}

export interface MessageCta {
  type?: 'redirect'
  data?: { url?: string }
  action?: MessageAction
}

/** §2.9 An item of the in-app feed. `P` types the trigger payload. */
export interface FeedItem<P extends JsonObject = JsonObject> {
  _id: string
  _templateId: string
  _environmentId: string
  _messageTemplateId: string
  _organizationId: string
  _notificationId: string
  _subscriberId: string
  _feedId?: string | null
  _jobId: string
  createdAt?: string | null
  updatedAt?: string | null
  actor?: Actor
  subscriber?: FeedSubscriber
  transactionId: string
  templateIdentifier?: string | null
  providerId?: string | null
  content: string
  subject?: string | null
  channel: Channel
  read: boolean
  seen: boolean
  deviceTokens?: string[] | null
  cta: MessageCta
  status: MessageStatus
  payload?: P
  overrides?: JsonObject
}

/** §4.4 */
export interface FeedPage<P extends JsonObject = JsonObject> {
  totalCount?: number
  hasMore: boolean
  data: FeedItem<P>[]
  pageSize: number
  page: number
}

export interface EmailBlock {
  type: 'button' | 'text'
  content: string
  url?: string
  styles?: { textAlign: 'center' | 'left' | 'right' }
}

export interface ChannelCredentials {
  webhookUrl?: string
  channel?: string
  deviceTokens?: string[]
  alertUid?: string
  title?: string
  imageUrl?: string
  state?: string
  externalUrl?: string
}

export interface ChannelSettings {
  /** One of 20 lowercase chat and push provider identifiers. */
  providerId: string
  integrationIdentifier?: string
  credentials: ChannelCredentials
  _integrationId: string
}

export interface MessageSubscriber {
  _id?: string
  firstName?: string | null
  lastName?: string | null
  email?: string | null
  phone?: string | null
  avatar?: string | null
  locale?: string | null
  channels?: ChannelSettings[]
  /** @deprecated */
  topics?: string[]
  isOnline?: boolean | null
  lastOnlineAt?: string | null
  __v?: number
  data?: JsonObject | null
  timezone?: string | null
  subscriberId: string
  _organizationId: string
  _environmentId: string
  deleted: boolean
  createdAt: string
  updatedAt: string
}

export type DurationUnit = 'seconds' | 'minutes' | 'hours' | 'days' | 'weeks' | 'months'

export interface TimedConfig {
  atTime?: string
  weekDays?: Weekday[]
  monthDays?: string[]
  ordinal?: '1' | '2' | '3' | '4' | '5' | 'last'
  ordinalValue?:
    'day' | 'weekday' | 'weekend' | 'sunday' | 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday'
  monthlyType?: 'each' | 'on'
}

export type StepMetadata =
  | {
      type: 'regular' | 'backoff'
      amount?: number
      unit?: DurationUnit
      digestKey?: string
      backoff?: boolean
      backoffAmount?: number
      backoffUnit?: DurationUnit
      updateMode?: boolean
    }
  | { type: 'timed'; amount?: number; unit?: DurationUnit; digestKey?: string; timed?: TimedConfig }
  | { type: 'regular'; amount?: number; unit?: DurationUnit }
  | { type: 'scheduled'; delayPath: string }

export interface NotificationStepBase {
  _id?: string
  uuid?: string
  name?: string
  _templateId?: string
  active?: boolean
  shouldStopOnFail?: boolean
  /** Fields not shown by the spec. */
  template?: JsonObject
  filters?: StepFilter[]
  _parentId?: string
  metadata?: StepMetadata
  replyCallback?: { active?: boolean; url?: string }
}

export interface NotificationStep extends NotificationStepBase {
  variants?: NotificationStepBase[]
}

export interface NotificationTrigger {
  type: 'event'
  identifier: string
  variables: { name: string }[]
  subscriberVariables?: { name: string }[]
}

export interface NotificationGroup {
  _id?: string
  name: string
  _environmentId: string
  _organizationId: string
  _parentId?: string
}

/** The workflow (template) of a message. */
export interface Workflow {
  _id?: string
  name: string
  description: string
  active: boolean
  draft: boolean
  preferenceSettings: PreferenceChannels
  critical: boolean
  tags: string[]
  steps: NotificationStep[]
  _organizationId: string
  _creatorId: string
  _environmentId: string
  triggers: NotificationTrigger[]
  _notificationGroupId: string
  _parentId?: string
  deleted: boolean
  deletedAt: string
  deletedBy: string
  notificationGroup?: NotificationGroup
  data?: JsonObject
  workflowIntegrationStatus?: JsonObject
}

/** §2.10 A message as returned by mark-as. */
export interface Message<P extends JsonObject = JsonObject> {
  _id?: string
  _templateId?: string | null
  _environmentId: string
  _messageTemplateId?: string | null
  _organizationId: string
  _notificationId: string
  _subscriberId: string
  subscriber?: MessageSubscriber
  template?: Workflow
  templateIdentifier?: string
  createdAt: string
  deliveredAt?: string[]
  lastSeenDate?: string
  lastReadDate?: string
  content?: EmailBlock[] | string
  transactionId: string
  subject?: string
  channel: Channel
  read: boolean
  seen: boolean
  snoozedUntil?: string
  email?: string
  phone?: string
  directWebhookUrl?: string
  providerId?: string
  deviceTokens?: string[]
  title?: string
  cta: MessageCta
  _feedId?: string | null
  status: MessageStatus
  errorId?: string
  errorText?: string
  payload?: P
  overrides?: JsonObject
  contextKeys?: string[]
}

export type MarkAs = 'read' | 'seen' | 'unread' | 'unseen'
export const MARK_AS: readonly MarkAs[] = ['read', 'seen', 'unread', 'unseen']

/** §4.7 request body. */
export interface MarkAsBody {
  messageId: string | string[]
  markAs: MarkAs
}

// ---------------------------------------------------------------- §4.1 / §4.6 cursor lists

export type OrderDirection = 'ASC' | 'DESC'

export interface CursorListParams {
  /** Cursor: the `_id` of the item after which to list. */
  after?: string
  /** Cursor: the `_id` of the item before which to list. */
  before?: string
  /** 1–100, default 10. */
  limit?: number
  orderDirection?: OrderDirection
  orderBy?: '_id'
  includeCursor?: boolean
}

export interface TopicSubscriptionsParams extends CursorListParams {
  subscriberId?: string
}

export interface SubscriberSubscriptionsParams extends CursorListParams {
  key?: string
}

/** §4.6 */
export interface CursorPage<T> {
  data: T[]
  next: string | null
  previous: string | null
}

/** §4.1 */
export interface CountedCursorPage<T> extends CursorPage<T> {
  totalCount: number
  totalCountCapped: boolean
}

// ---------------------------------------------------------------- §4.4 feed params

export interface FeedParams<P extends JsonObject = JsonObject> {
  /** Zero-based page number. */
  page?: number
  /** 1–100, default 10. */
  limit?: number
  read?: boolean
  seen?: boolean
  /** Partial payload to match; sent as base64 JSON. */
  payload?: Partial<P> | JsonObject
}

// ---------------------------------------------------------------- §2.12–2.13, §4.8–4.9 triggers

/** §2.12 */
export interface SubscriberRecipient {
  subscriberId: string
  email?: string
  firstName?: string
  lastName?: string
  phone?: string
  avatar?: string
  locale?: string
  data?: Record<string, string>
  channels?: {
    providerId: string
    integrationIdentifier?: string
    credentials: { webhookUrl?: string; deviceTokens?: string[] }
  }[]
  timezone?: string
}

/** The second recipient shape: every subscriber of a topic. */
export interface TopicRecipient {
  type: 'Topic'
  topicKey: string
  /** subscriberIds to leave out. */
  exclude?: string[]
}

export type Recipient = string | SubscriberRecipient | TopicRecipient

export interface TenantObject {
  identifier: string
  name?: string
  data?: JsonObject
}

export interface TriggerBody<P extends JsonObject = JsonObject> {
  /** Trigger identifier of the workflow. */
  name: string
  to: Recipient | Recipient[]
  payload?: P
  overrides?: JsonObject
  transactionId?: string
  actor?: string | SubscriberRecipient
  tenant?: string | TenantObject
}

export interface BulkTriggerEvent<P extends JsonObject = JsonObject> extends TriggerBody<P> {
  context?: Record<string, string>
}

export interface BulkTriggerBody<P extends JsonObject = JsonObject> {
  events: BulkTriggerEvent<P>[]
}

export type TriggerStatus =
  | 'error'
  | 'trigger_not_active'
  | 'no_workflow_active_steps_defined'
  | 'no_workflow_steps_defined'
  | 'processed'
  | 'no_tenant_found'
  | 'invalid_recipients'

/** §2.13 */
export interface TriggerResult {
  acknowledged: boolean
  status: TriggerStatus
  error?: string[]
  transactionId?: string
}

// ---------------------------------------------------------------- errors (api-decisions)

/** Error body of every failed request. */
export interface ErrorBody {
  statusCode: number
  timestamp: string
  path: string
  message: string
  error: string
  /** 422 only: every bad field by its path. */
  errors?: Record<string, { messages: string[]; value?: unknown }>
  /** 500 only. */
  errorId?: string
}

// ---------------------------------------------------------------- the client contract

/** Options of every call. */
export interface RequestOptions {
  signal?: AbortSignal
  /** Sent as `idempotency-key`; one is generated for every POST and PATCH when absent. */
  idempotencyKey?: string
  /** `false`: one attempt only, for a caller that retries on its own terms. */
  retry?: false
}

export interface RetryOptions {
  /** Attempts after the first. @default 2 */
  retries?: number
  /** First backoff in ms, doubled each time. @default 300 */
  baseDelay?: number
  /** Longest wait in ms, Retry-After included. @default 5000 */
  maxDelay?: number
}

export interface InboxClientOptions {
  /** The service's base address, e.g. `https://api.example.com` or `/api` for a proxy. */
  baseUrl: string
  /** Sends `Authorization: ApiKey <key>`. Server side only: never ship a secret key to a browser. */
  apiKey?: string
  /** Extra headers sent with every request. */
  headers?: Record<string, string>
  /** Headers computed per request (a session token, for example). */
  getHeaders?: () => Record<string, string> | Promise<Record<string, string>>
  /** @default globalThis.fetch */
  fetch?: typeof fetch
  /** Per-attempt timeout in ms. @default 15000 */
  timeout?: number
  /** `false` turns retries off. */
  retry?: RetryOptions | false
  /**
   * Called once when a request is answered 401, before it is sent once more with fresh headers: forget a
   * cached token here (a `createTokenAuth` helper's `invalidate`). The request is repeated only when
   * this or `getHeaders` is given.
   */
  onUnauthorized?: () => void | Promise<void>
  /**
   * The subscriber this client serves, kept in `client.options` for code that is handed only the client.
   * The methods do not read it: each subscriber-scoped method takes its id explicitly.
   */
  subscriberId?: string
}

/** One typed method per operation of the API. */
export interface InboxClient {
  readonly options: Readonly<InboxClientOptions>
  /** §4.1 GET /v2/topics/{topicKey}/subscriptions */
  listTopicSubscriptions(
    topicKey: string,
    params?: TopicSubscriptionsParams,
    opts?: RequestOptions,
  ): Promise<CountedCursorPage<TopicSubscription>>
  /** §4.2 POST /v1/integrations/{integrationId}/set-primary */
  setPrimaryIntegration(integrationId: string, opts?: RequestOptions): Promise<PrimaryIntegration>
  /** §4.3 GET /v2/subscribers/{subscriberId}/preferences */
  getPreferences(
    subscriberId: string,
    params?: { criticality?: Criticality },
    opts?: RequestOptions,
  ): Promise<Preferences>
  /** PATCH /v2/subscribers/{subscriberId}/preferences (api-decisions) */
  updatePreferences(subscriberId: string, body: UpdatePreferencesBody, opts?: RequestOptions): Promise<Preferences>
  /** §4.4 GET /v1/subscribers/{subscriberId}/notifications/feed */
  getFeed<P extends JsonObject = JsonObject>(
    subscriberId: string,
    params?: FeedParams<P>,
    opts?: RequestOptions,
  ): Promise<FeedPage<P>>
  /** §4.5 GET /v1/integrations/active */
  listActiveIntegrations(opts?: RequestOptions): Promise<Integration[]>
  /** §4.6 GET /v2/subscribers/{subscriberId}/subscriptions */
  listSubscriberSubscriptions(
    subscriberId: string,
    params?: SubscriberSubscriptionsParams,
    opts?: RequestOptions,
  ): Promise<CursorPage<TopicSubscription>>
  /** §4.7 POST /v1/subscribers/{subscriberId}/messages/mark-as */
  markAs(subscriberId: string, body: MarkAsBody, opts?: RequestOptions): Promise<Message[]>
  /** §4.8 POST /v1/events/trigger */
  trigger<P extends JsonObject = JsonObject>(body: TriggerBody<P>, opts?: RequestOptions): Promise<TriggerResult>
  /** §4.9 POST /v1/events/trigger/bulk */
  bulkTrigger<P extends JsonObject = JsonObject>(
    body: BulkTriggerBody<P>,
    opts?: RequestOptions,
  ): Promise<TriggerResult[]>
}

/** The operations of one subscriber: what an inbox in the browser uses (see `createSubscriberClient`). */
export type SubscriberClient = Pick<
  InboxClient,
  'options' | 'getFeed' | 'markAs' | 'getPreferences' | 'updatePreferences' | 'listSubscriberSubscriptions'
>
