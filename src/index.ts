/** inbox-kit: the notification inbox for React, its headless hooks and the typed API client. */

// API client (also available React-free from inbox-kit/client)
export {
  ApiError,
  CHANNELS,
  InboxError,
  MARK_AS,
  NetworkError,
  ResponseShapeError,
  TimeoutError,
  WEEKDAYS,
  createInboxClient,
  createTokenAuth,
  encodePayloadFilter,
  isInboxError,
  readSubscriberToken,
} from './client'
export type {
  FieldErrors,
  FetchedToken,
  TokenAuth,
  TokenAuthOptions,
  SubscriberTokenPayload,
  Channel,
  JsonObject,
  Topic,
  TopicSubscriber,
  TopicSubscription,
  Credentials,
  PrimaryCredentials,
  Configurations,
  StepFilterType,
  FilterOperator,
  FieldFilterPart,
  StepFilter,
  Integration,
  PrimaryIntegration,
  PreferenceChannels,
  ClockTime,
  TimeRange,
  DaySchedule,
  Weekday,
  Schedule,
  GlobalPreference,
  PreferenceSource,
  PreferenceOverride,
  WorkflowInfo,
  WorkflowPreference,
  Preferences,
  Criticality,
  UpdatePreferencesBody,
  MessageStatus,
  ActorType,
  Actor,
  FeedSubscriber,
  ButtonType,
  MessageButton,
  MessageAction,
  MessageCta,
  FeedItem,
  FeedPage,
  EmailBlock,
  ChannelCredentials,
  ChannelSettings,
  MessageSubscriber,
  DurationUnit,
  TimedConfig,
  StepMetadata,
  NotificationStepBase,
  NotificationStep,
  NotificationTrigger,
  NotificationGroup,
  Workflow,
  Message,
  MarkAs,
  MarkAsBody,
  OrderDirection,
  CursorListParams,
  TopicSubscriptionsParams,
  SubscriberSubscriptionsParams,
  CursorPage,
  CountedCursorPage,
  FeedParams,
  SubscriberRecipient,
  TopicRecipient,
  Recipient,
  TenantObject,
  TriggerBody,
  BulkTriggerEvent,
  BulkTriggerBody,
  TriggerStatus,
  TriggerResult,
  ErrorBody,
  RequestOptions,
  RetryOptions,
  InboxClientOptions,
  InboxClient,
} from './client'

// Components (their stylesheet is emitted as inbox-kit.css)
import './styles/index.css'
export { Inbox } from './components/Inbox/Inbox'
export type { InboxProps, InboxViewProps, InboxPlacement, InboxTab } from './components/Inbox/Inbox'
export { Bell } from './components/Bell/Bell'
export type { BellProps, BellRenderProps, CountKind } from './components/Bell/Bell'
export { Feed } from './components/Feed/Feed'
export type { FeedProps, FeedFilter } from './components/Feed/Feed'
export type { ViewportRect } from './components/Feed/useVirtualRows'
export { NotificationItem, TOGGLE_READ_KEY } from './components/NotificationItem/NotificationItem'
export type {
  NotificationItemProps,
  ItemHelpers,
  NavigateHandler,
  ActionHandler,
} from './components/NotificationItem/NotificationItem'
export { PreferencesPanel } from './components/PreferencesPanel/PreferencesPanel'
export type { PreferencesPanelProps } from './components/PreferencesPanel/PreferencesPanel'
export { TopicSubscriptions } from './components/TopicSubscriptions/TopicSubscriptions'
export type { TopicSubscriptionsProps } from './components/TopicSubscriptions/TopicSubscriptions'
export { useMessages } from './components/internal/ui'
export type { MessagesValue } from './components/internal/ui'

// Strings and formatting
export { locales, baseMessages, resolveMessages, plural, en, de, fr, es, ja, ar } from './i18n'
export type { InboxMessages, InboxLocale, PluralMessage } from './i18n'
export { formatRelativeTime, formatDayLabel, formatDateTime, formatCount } from './core/format'
export type { DayLabels } from './core/format'
