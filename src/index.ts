/** inbox-kit: the notification inbox for React, its headless hooks and the typed API client. */
'use client'

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

// Components (their stylesheet, src/styles/index.css, is built apart as inbox-kit/styles.css)
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

// Headless layer: provider, hooks, UI store and the React-free core they stand on
export { InboxProvider } from './provider/InboxProvider'
export type { InboxProviderProps } from './provider/InboxProvider'
export type { InboxContextValue, InboxTheme } from './provider/InboxContext'
export { createInboxStore } from './store/inboxStore'
export type { InboxStore, InboxUiState, InboxView } from './store/inboxStore'
export { useInboxContext } from './hooks/useInboxContext'
export { useInboxStore } from './hooks/useInboxStore'
export { useFeed } from './hooks/useFeed'
export type { UseFeedOptions, UseFeedResult } from './hooks/useFeed'
export { useCounts } from './hooks/useCounts'
export type { UseCountsOptions, UseCountsResult } from './hooks/useCounts'
export { useMarkAs } from './hooks/useMarkAs'
export type { UseMarkAsResult } from './hooks/useMarkAs'
export { useMarkAll } from './hooks/useMarkAll'
export type { UseMarkAllResult } from './hooks/useMarkAll'
export { usePreferences } from './hooks/usePreferences'
export type { UsePreferencesOptions, UsePreferencesResult } from './hooks/usePreferences'
export { usePreferencesReadOnly } from './hooks/usePreferencesReadOnly'
export { useUpdatePreferences } from './hooks/useUpdatePreferences'
export type { UseUpdatePreferencesResult } from './hooks/useUpdatePreferences'
export { useSubscriberSubscriptions } from './hooks/useSubscriberSubscriptions'
export type { UseSubscriberSubscriptionsOptions } from './hooks/useSubscriberSubscriptions'
export { useTopicSubscriptions } from './hooks/useTopicSubscriptions'
export type { UseTopicSubscriptionsOptions } from './hooks/useTopicSubscriptions'
export type { CursorListResult } from './hooks/useCursorList'
export { useActiveIntegrations } from './hooks/useActiveIntegrations'
export type { UseActiveIntegrationsResult } from './hooks/useActiveIntegrations'
export { useSetPrimaryIntegration } from './hooks/useSetPrimaryIntegration'
export type { UseSetPrimaryIntegrationResult } from './hooks/useSetPrimaryIntegration'
export { useTrigger } from './hooks/useTrigger'
export type { UseTriggerResult } from './hooks/useTrigger'
export { useBulkTrigger } from './hooks/useBulkTrigger'
export type { UseBulkTriggerResult } from './hooks/useBulkTrigger'
export { inboxKeys, COUNT_FILTERS, DEFAULT_FEED_LIMIT } from './core/queryKeys'
export type { FeedFilters } from './core/queryKeys'
export {
  prefetchInbox,
  feedQueryOptions,
  countQueryOptions,
  preferencesQueryOptions,
  DEFAULT_POLL_INTERVAL,
} from './core/queries'
export type { PrefetchInboxOptions, QueryDeps } from './core/queries'
export {
  applyItemStates,
  applyMarkAll,
  applyPreferencesUpdate,
  applySetPrimary,
  compareFeedItems,
  feedCount,
  feedItems,
  markAsState,
  matchesFilters,
  matchesPayload,
  COUNT_CAP,
} from './core/optimistic'
export type { FeedData, ItemState } from './core/optimistic'
