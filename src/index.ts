/**
 * inbox-kit: the notification inbox for React — components, provider and the hooks an inbox needs.
 * The API client and its types: `inbox-kit/client`. Query options and server prefetch:
 * `inbox-kit/server`. Back-office hooks: `inbox-kit/admin`. Other languages: `inbox-kit/locales/<code>`.
 */
'use client'

export { Inbox } from './components/Inbox/Inbox'
export type { InboxProps, InboxViewProps, InboxPlacement, InboxTab } from './components/Inbox/Inbox'
export { InboxTrigger, InboxContent, InboxHeader, InboxFooter, InboxClose } from './components/Inbox/parts'
export { InboxRoot } from './components/Inbox/root'
export type { InboxContentProps, InboxHeaderProps } from './components/Inbox/parts'
export type { InboxRootProps, InboxTriggerProps } from './components/Inbox/root'
export type { InboxPanelProps } from './components/Inbox/InboxPanel'
export { InboxInline } from './components/layouts/InboxInline'
export type { InboxInlineProps } from './components/layouts/InboxInline'
export { InboxPage } from './components/layouts/InboxPage'
export type { InboxPageProps } from './components/layouts/InboxPage'
export { useDismissableLayer, useFocusScope } from './components/internal/layer'
export type { DismissableLayerOptions, DismissReason, FocusScopeOptions } from './components/internal/layer'
export { useControllableState } from './components/internal/hooks'
export { Bell } from './components/Bell/Bell'
export type { BellProps, BellRenderProps, CountKind } from './components/Bell/Bell'
export { Feed } from './components/Feed/Feed'
export type { FeedProps, FeedFilter } from './components/Feed/Feed'
export type { ViewportRect } from './components/Feed/useVirtualRows'
export { NotificationItem } from './components/NotificationItem/NotificationItem'
export type {
  NotificationItemProps,
  ItemHelpers,
  NavigateHandler,
  ActionHandler,
} from './components/NotificationItem/NotificationItem'
export { PreferencesPanel } from './components/PreferencesPanel/PreferencesPanel'
export type { PreferencesPanelProps } from './components/PreferencesPanel/PreferencesPanel'
export { Toaster } from './components/Toaster/Toaster'
export type { ToasterProps } from './components/Toaster/Toaster'
export { TopicSubscriptions } from './components/TopicSubscriptions/TopicSubscriptions'
export type { TopicSubscriptionsProps } from './components/TopicSubscriptions/TopicSubscriptions'

export { InboxProvider } from './provider/InboxProvider'
export type { InboxProviderProps } from './provider/InboxProvider'
export { useInboxContext } from './provider/context'
export type { InboxContextValue, InboxTheme } from './provider/context'
export { useFeed } from './hooks/useFeed'
export type { UseFeedOptions, UseFeedResult } from './hooks/useFeed'
export { useCounts } from './hooks/useCounts'
export type { UseCountsOptions, UseCountsResult } from './hooks/useCounts'
export { useMarkAs, useMarkAll } from './hooks/useMarkAs'
export type { UseMarkAsResult, UseMarkAllResult } from './hooks/useMarkAs'
export { usePreferences, useUpdatePreferences } from './hooks/usePreferences'
export type { UsePreferencesOptions, UsePreferencesResult, UseUpdatePreferencesResult } from './hooks/usePreferences'
export { useSubscriberSubscriptions } from './hooks/useSubscriberSubscriptions'
export type { UseSubscriberSubscriptionsOptions } from './hooks/useSubscriberSubscriptions'
export type { CursorListResult } from './hooks/useCursorList'
export type { InboxMessages, PluralMessage } from './i18n/types'
