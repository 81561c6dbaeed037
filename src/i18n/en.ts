import type { InboxMessages } from './types'

/** The strings of what renders from the first paint: the bell, the live region, the popover's failure or wait. */
export type CoreMessages = Pick<
  InboxMessages,
  | 'lang'
  | 'dir'
  | 'bellLabel'
  | 'bellLabelUnseen'
  | 'bellLabelUnread'
  | 'bellUnavailable'
  | 'documentTitleCount'
  | 'newNotifications'
  | 'updateError'
  | 'updateHeld'
  | 'errorTitle'
  | 'retry'
  | 'troubleOffline'
>

/**
 * Their English: the part of `en` (src/locales/en.ts) loaded with the bell; the rest comes with the popover.
 */
export const enCore: CoreMessages = {
  lang: 'en',
  dir: 'ltr',
  bellLabel: 'Notifications',
  bellLabelUnseen: { one: 'Notifications, {count} unseen', other: 'Notifications, {count} unseen' },
  bellLabelUnread: { one: 'Notifications, {count} unread', other: 'Notifications, {count} unread' },
  documentTitleCount: '({count}) {title}',
  errorTitle: 'Notifications couldn’t be loaded',
  retry: 'Try again',
  newNotifications: { one: '{count} new notification', other: '{count} new notifications' },
  updateError: 'The change couldn’t be saved.',
  updateHeld: 'The change was saved after all.',
  bellUnavailable: 'Notifications, counts unavailable',
  troubleOffline: 'You’re offline. Notifications will update when you’re back online.',
}
