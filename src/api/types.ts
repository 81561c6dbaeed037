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
  name?: string | undefined
  createdAt?: string | undefined
  updatedAt?: string | undefined
}

/** §2.3 A subscriber as shown in subscriptions. */
export interface TopicSubscriber {
  _id: string
  subscriberId: string
  avatar?: string | null | undefined
  firstName?: string | null | undefined
  lastName?: string | null | undefined
  email?: string | null | undefined
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
  apiKey?: string | undefined
  user?: string | undefined
  secretKey?: string | undefined
  domain?: string | undefined
  password?: string | undefined
  host?: string | undefined
  port?: string | undefined
  region?: string | undefined
  accountSid?: string | undefined
  messageProfileId?: string | undefined
  token?: string | undefined
  from?: string | undefined
  senderName?: string | undefined
  projectName?: string | undefined
  applicationId?: string | undefined
  clientId?: string | undefined
  baseUrl?: string | undefined
  webhookUrl?: string | undefined
  redirectUrl?: string | undefined
  serviceAccount?: string | undefined
  ipPoolName?: string | undefined
  apiKeyRequestHeader?: string | undefined
  secretKeyRequestHeader?: string | undefined
  idPath?: string | undefined
  datePath?: string | undefined
  apiToken?: string | undefined
  authenticationTokenKey?: string | undefined
  instanceId?: string | undefined
  alertUid?: string | undefined
  title?: string | undefined
  imageUrl?: string | undefined
  state?: string | undefined
  externalLink?: string | undefined
  channelId?: string | undefined
  phoneNumberIdentification?: string | undefined
  accessKey?: string | undefined
  secure?: boolean | undefined
  requireTls?: boolean | undefined
  ignoreTls?: boolean | undefined
  hmac?: boolean | undefined
  authenticateByToken?: boolean | undefined
  tlsOptions?: JsonObject | undefined
}

/** §2.5 The set-primary response adds three credential fields. */
export interface PrimaryCredentials extends Credentials {
  appSid?: string | undefined
  senderId?: string | undefined
  AppIOBaseUrl?: string | undefined
}

/** §2.6 */
export interface Configurations {
  inboundWebhookEnabled?: boolean | undefined
  inboundWebhookSigningKey?: string | undefined
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
  _id?: string | undefined
  _environmentId: string
  _organizationId: string
  name: string
  identifier: string
  providerId: string
  channel: Channel
  credentials: Credentials
  active: boolean
  deleted: boolean
  deletedAt?: string | undefined
  deletedBy?: string | undefined
  primary: boolean
  conditions?: StepFilter[] | undefined
}

/** §2.4 The set-primary response shape: with configurations and the extra credentials. */
export interface PrimaryIntegration extends Omit<Integration, 'credentials'> {
  credentials: PrimaryCredentials
  configurations?: Configurations | undefined
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
  hours?: TimeRange[] | undefined
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
  weeklySchedule?: Partial<Record<Weekday, DaySchedule>> | undefined
}

export interface GlobalPreference {
  enabled: boolean
  channels: PreferenceChannels
  schedule?: Schedule | undefined
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
  updatedAt?: string | undefined
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
  channels?: PreferenceChannels | undefined
  /** Workflow `_id`, identifier or slug; absent = the global preference. */
  workflowId?: string | undefined
  schedule?: Schedule | undefined
}

// ---------------------------------------------------------------- §2.9–2.11 feed and messages

export type MessageStatus = 'sent' | 'error' | 'warning'
export type ActorType = 'none' | 'user' | 'system_icon' | 'system_custom'

export interface Actor {
  data: string | null
  type: ActorType
}

export interface FeedSubscriber {
  _id?: string | undefined
  firstName?: string | undefined
  lastName?: string | undefined
  avatar?: string | undefined
  subscriberId: string
}

/** §2.11 */
export type ButtonType = 'primary' | 'secondary'

export interface MessageButton {
  type: ButtonType
  content: string
  resultContent?: string | undefined
}

export interface MessageAction {
  status?: 'pending' | 'done' | undefined
  buttons?: MessageButton[] | undefined
  result?: { payload?: JsonObject | undefined; type?: ButtonType | undefined } | undefined
}

export interface MessageCta {
  type?: 'redirect' | undefined
  data?: { url?: string | undefined } | undefined
  action?: MessageAction | undefined
}

/** §2.9 An item of the in-app feed. `P` types the trigger payload. */
export interface FeedItem<P extends object = JsonObject> {
  _id: string
  _templateId: string
  _environmentId: string
  _messageTemplateId: string
  _organizationId: string
  _notificationId: string
  _subscriberId: string
  _feedId?: string | null | undefined
  _jobId: string
  createdAt?: string | null | undefined
  updatedAt?: string | null | undefined
  actor?: Actor | undefined
  subscriber?: FeedSubscriber | undefined
  transactionId: string
  templateIdentifier?: string | null | undefined
  providerId?: string | null | undefined
  content: string
  subject?: string | null | undefined
  channel: Channel
  read: boolean
  seen: boolean
  deviceTokens?: string[] | null | undefined
  cta: MessageCta
  status: MessageStatus
  payload?: P | undefined
  overrides?: JsonObject | undefined
}

/** §4.4 */
export interface FeedPage<P extends object = JsonObject> {
  totalCount?: number | undefined
  hasMore: boolean
  data: FeedItem<P>[]
  pageSize: number
  page: number
}

export interface EmailBlock {
  type: 'button' | 'text'
  content: string
  url?: string | undefined
  styles?: { textAlign: 'center' | 'left' | 'right' } | undefined
}

export interface ChannelCredentials {
  webhookUrl?: string | undefined
  channel?: string | undefined
  deviceTokens?: string[] | undefined
  alertUid?: string | undefined
  title?: string | undefined
  imageUrl?: string | undefined
  state?: string | undefined
  externalUrl?: string | undefined
}

export interface ChannelSettings {
  /** One of 20 lowercase chat and push provider identifiers. */
  providerId: string
  integrationIdentifier?: string | undefined
  credentials: ChannelCredentials
  _integrationId: string
}

export interface MessageSubscriber {
  _id?: string | undefined
  firstName?: string | null | undefined
  lastName?: string | null | undefined
  email?: string | null | undefined
  phone?: string | null | undefined
  avatar?: string | null | undefined
  locale?: string | null | undefined
  channels?: ChannelSettings[] | undefined
  /** @deprecated */
  topics?: string[] | undefined
  isOnline?: boolean | null | undefined
  lastOnlineAt?: string | null | undefined
  __v?: number | undefined
  data?: JsonObject | null | undefined
  timezone?: string | null | undefined
  subscriberId: string
  _organizationId: string
  _environmentId: string
  deleted: boolean
  createdAt: string
  updatedAt: string
}

export type DurationUnit = 'seconds' | 'minutes' | 'hours' | 'days' | 'weeks' | 'months'

export interface TimedConfig {
  atTime?: string | undefined
  weekDays?: Weekday[] | undefined
  monthDays?: string[] | undefined
  ordinal?: '1' | '2' | '3' | '4' | '5' | 'last' | undefined
  ordinalValue?:
    | 'day'
    | 'weekday'
    | 'weekend'
    | 'sunday'
    | 'monday'
    | 'tuesday'
    | 'wednesday'
    | 'thursday'
    | 'friday'
    | 'saturday'
    | undefined
  monthlyType?: 'each' | 'on' | undefined
}

export type StepMetadata =
  | {
      type: 'regular' | 'backoff'
      amount?: number | undefined
      unit?: DurationUnit | undefined
      digestKey?: string | undefined
      backoff?: boolean | undefined
      backoffAmount?: number | undefined
      backoffUnit?: DurationUnit | undefined
      updateMode?: boolean | undefined
    }
  | {
      type: 'timed'
      amount?: number | undefined
      unit?: DurationUnit | undefined
      digestKey?: string | undefined
      timed?: TimedConfig | undefined
    }
  | { type: 'regular'; amount?: number | undefined; unit?: DurationUnit | undefined }
  | { type: 'scheduled'; delayPath: string }

export interface NotificationStepBase {
  _id?: string | undefined
  uuid?: string | undefined
  name?: string | undefined
  _templateId?: string | undefined
  active?: boolean | undefined
  shouldStopOnFail?: boolean | undefined
  /** Fields not shown by the spec. */
  template?: JsonObject | undefined
  filters?: StepFilter[] | undefined
  _parentId?: string | undefined
  metadata?: StepMetadata | undefined
  replyCallback?: { active?: boolean | undefined; url?: string | undefined } | undefined
}

export interface NotificationStep extends NotificationStepBase {
  variants?: NotificationStepBase[] | undefined
}

export interface NotificationTrigger {
  type: 'event'
  identifier: string
  variables: { name: string }[]
  subscriberVariables?: { name: string }[] | undefined
}

export interface NotificationGroup {
  _id?: string | undefined
  name: string
  _environmentId: string
  _organizationId: string
  _parentId?: string | undefined
}

/** The workflow (template) of a message. */
export interface Workflow {
  _id?: string | undefined
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
  _parentId?: string | undefined
  deleted: boolean
  deletedAt: string
  deletedBy: string
  notificationGroup?: NotificationGroup | undefined
  data?: JsonObject | undefined
  workflowIntegrationStatus?: JsonObject | undefined
}

/** §2.10 A message as returned by mark-as. */
export interface Message<P extends object = JsonObject> {
  _id?: string | undefined
  _templateId?: string | null | undefined
  _environmentId: string
  _messageTemplateId?: string | null | undefined
  _organizationId: string
  _notificationId: string
  _subscriberId: string
  subscriber?: MessageSubscriber | undefined
  template?: Workflow | undefined
  templateIdentifier?: string | undefined
  createdAt: string
  deliveredAt?: string[] | undefined
  lastSeenDate?: string | undefined
  lastReadDate?: string | undefined
  content?: EmailBlock[] | string | undefined
  transactionId: string
  subject?: string | undefined
  channel: Channel
  read: boolean
  seen: boolean
  snoozedUntil?: string | undefined
  email?: string | undefined
  phone?: string | undefined
  directWebhookUrl?: string | undefined
  providerId?: string | undefined
  deviceTokens?: string[] | undefined
  title?: string | undefined
  cta: MessageCta
  _feedId?: string | null | undefined
  status: MessageStatus
  errorId?: string | undefined
  errorText?: string | undefined
  payload?: P | undefined
  overrides?: JsonObject | undefined
  contextKeys?: string[] | undefined
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
  after?: string | undefined
  /** Cursor: the `_id` of the item before which to list. */
  before?: string | undefined
  /** 1–100, default 10. */
  limit?: number | undefined
  orderDirection?: OrderDirection | undefined
  orderBy?: '_id' | undefined
  includeCursor?: boolean | undefined
}

export interface TopicSubscriptionsParams extends CursorListParams {
  subscriberId?: string | undefined
}

export interface SubscriberSubscriptionsParams extends CursorListParams {
  key?: string | undefined
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

export interface FeedParams<P extends object = JsonObject> {
  /** Zero-based page number. */
  page?: number | undefined
  /** 1–100, default 10. */
  limit?: number | undefined
  read?: boolean | undefined
  seen?: boolean | undefined
  /** Partial payload to match; sent as base64 JSON. */
  payload?: Partial<P> | JsonObject | undefined
}

// ---------------------------------------------------------------- §2.12–2.13, §4.8–4.9 triggers

/** §2.12 */
export interface SubscriberRecipient {
  subscriberId: string
  email?: string | undefined
  firstName?: string | undefined
  lastName?: string | undefined
  phone?: string | undefined
  avatar?: string | undefined
  locale?: string | undefined
  data?: Record<string, string> | undefined
  channels?:
    | {
        providerId: string
        integrationIdentifier?: string | undefined
        credentials: { webhookUrl?: string | undefined; deviceTokens?: string[] | undefined }
      }[]
    | undefined
  timezone?: string | undefined
}

/** The second recipient shape: every subscriber of a topic. */
export interface TopicRecipient {
  type: 'Topic'
  topicKey: string
  /** subscriberIds to leave out. */
  exclude?: string[] | undefined
}

export type Recipient = string | SubscriberRecipient | TopicRecipient

export interface TenantObject {
  identifier: string
  name?: string | undefined
  data?: JsonObject | undefined
}

export interface TriggerBody<P extends object = JsonObject> {
  /** Trigger identifier of the workflow. */
  name: string
  to: Recipient | Recipient[]
  payload?: P | undefined
  overrides?: JsonObject | undefined
  transactionId?: string | undefined
  actor?: string | SubscriberRecipient | undefined
  tenant?: string | TenantObject | undefined
}

export interface BulkTriggerEvent<P extends object = JsonObject> extends TriggerBody<P> {
  context?: Record<string, string> | undefined
}

export interface BulkTriggerBody<P extends object = JsonObject> {
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
  error?: string[] | undefined
  transactionId?: string | undefined
}

// ---------------------------------------------------------------- errors (api-decisions)

/** Error body of every failed request. */
export interface ErrorBody {
  statusCode: number
  timestamp: string
  path: string
  message: string
  error: string
  /** 422 only: every bad field by its path (the reference service lists 100 and counts the rest). */
  errors?: Record<string, { messages: string[]; value?: unknown }> | undefined
  /** 500 only. */
  errorId?: string | undefined
}

// ---------------------------------------------------------------- the client contract

/** Options of every call. */
export interface RequestOptions {
  signal?: AbortSignal | undefined
  /** Sent as `idempotency-key`; one is generated for every POST and PATCH when absent. */
  idempotencyKey?: string | undefined
  /** `false`: one attempt only, for a caller that retries on its own terms. */
  retry?: false | undefined
}

export interface RetryOptions {
  /** Attempts after the first. @default 2 */
  retries?: number | undefined
  /** First backoff in ms, doubled each time. @default 300 */
  baseDelay?: number | undefined
  /**
   * Longest wait in ms between attempts. A `Retry-After` longer than this is not waited out: the error is
   * thrown at once, its `retryAfter` saying how long the service asked for. @default 5000
   */
  maxDelay?: number | undefined
}

export interface InboxClientOptions {
  /** The service's base address, e.g. `https://api.example.com` or `/api` for a proxy. */
  baseUrl: string
  /** Sends `Authorization: ApiKey <key>`. Server side only: never ship a secret key to a browser. */
  apiKey?: string | undefined
  /** Extra headers sent with every request. */
  headers?: Record<string, string> | undefined
  /** Headers computed per request (a session token, for example). */
  getHeaders?: (() => Record<string, string> | Promise<Record<string, string>>) | undefined
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined
  /** Per-attempt timeout in ms. @default 15000 */
  timeout?: number | undefined
  /** `false` turns retries off. */
  retry?: RetryOptions | false | undefined
  /**
   * Called once when a request is answered 401, before it is sent once more with fresh headers: forget a
   * cached token here (a `createTokenAuth` helper's `invalidate`). The request is repeated only when
   * this or `getHeaders` is given.
   */
  onUnauthorized?: (() => void | Promise<void>) | undefined
  /**
   * The subscriber this client serves, kept in `client.options` for code that is handed only the client.
   * The methods do not read it: each subscriber-scoped method takes its id explicitly.
   */
  subscriberId?: string | undefined
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
    params?: { criticality?: Criticality | undefined },
    opts?: RequestOptions,
  ): Promise<Preferences>
  /** PATCH /v2/subscribers/{subscriberId}/preferences (api-decisions) */
  updatePreferences(subscriberId: string, body: UpdatePreferencesBody, opts?: RequestOptions): Promise<Preferences>
  /** §4.4 GET /v1/subscribers/{subscriberId}/notifications/feed */
  getFeed<P extends object = JsonObject>(
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
  trigger<P extends object = JsonObject>(body: TriggerBody<P>, opts?: RequestOptions): Promise<TriggerResult>
  /** §4.9 POST /v1/events/trigger/bulk */
  bulkTrigger<P extends object = JsonObject>(body: BulkTriggerBody<P>, opts?: RequestOptions): Promise<TriggerResult[]>
}

/** The operations of one subscriber: what an inbox in the browser uses (see `createSubscriberClient`). */
export type SubscriberClient = Pick<
  InboxClient,
  'options' | 'getFeed' | 'markAs' | 'getPreferences' | 'updatePreferences' | 'listSubscriberSubscriptions'
>
