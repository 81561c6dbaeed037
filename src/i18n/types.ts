/** A string that depends on a count, one entry per `Intl.PluralRules` category (`other` required). */
export type PluralMessage = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }

/** Every visible string of the components. `{name}` placeholders are filled in at render time. */
export interface InboxMessages {
  /** BCP 47 language of these strings; dates and numbers follow it unless the provider's `locale` says otherwise. */
  lang: string
  /** Direction of the locale's script. */
  dir: 'ltr' | 'rtl'
  inboxTitle: string
  bellLabel: string
  /** `{count}` is the formatted count ("3", "99+"). */
  bellLabelUnseen: PluralMessage
  bellLabelUnread: PluralMessage
  /** Prefix of the document title when `titleCount` is on: "(3) My app". */
  documentTitleCount: string
  markAllAsRead: string
  openPreferences: string
  backToFeed: string
  preferencesTitle: string
  tabsLabel: string
  tabAll: string
  tabUnread: string
  feedLabel: string
  today: string
  yesterday: string
  loading: string
  loadingMore: string
  emptyTitle: string
  emptyBody: string
  emptyUnreadTitle: string
  errorTitle: string
  retry: string
  newNotifications: PluralMessage
  markAsRead: string
  markAsUnread: string
  unread: string
  actionDone: string
  /** The title of a notification whose subject and content are both empty. */
  untitled: string
  updateError: string
  /** Said when a change said not to be saved turns out to be (its answer was lost on the way). */
  updateHeld: string
  markAllError: string
  dismiss: string
  /** The popover's close button (shown where the popover covers the screen). */
  close: string
  preferencesLoadError: string
  preferencesSaveError: string
  preferencesReadOnly: string
  preferencesEmpty: string
  globalPreferencesTitle: string
  globalPreferencesDescription: string
  workflowPreferencesTitle: string
  criticalLocked: string
  channel_in_app: string
  channel_email: string
  channel_sms: string
  channel_chat: string
  channel_push: string
  scheduleTitle: string
  scheduleDescription: string
  scheduleEnabled: string
  scheduleFrom: string
  scheduleTo: string
  scheduleOff: string
  /** Said by a schedule's time field refused because the day's hours would end before they start. */
  scheduleEndBeforeStart: string
  scheduleAllDay: string
  topicsTitle: string
  topicsEmpty: string
  topicsLoadError: string
  previousPage: string
  nextPage: string
  pagination: string
  /** Why the inbox cannot show news, and what to do: 401, 403, 404, 5xx, offline, an unreadable answer. */
  troubleSignedOut: string
  troubleForbidden: string
  troubleNotFound: string
  troubleUnavailable: string
  troubleOffline: string
  troubleMalformed: string
  /** After `troubleUnavailable`; `{count}` is the seconds to the next try. */
  retryingIn: string
  retryNow: string
  /** The bell's name while counts cannot be read. */
  bellUnavailable: string
  toastsLabel: string
  toastOpen: string
  /** Added in parentheses to a custom trigger's name when there is a count: "{count} unseen". */
  triggerUnseen: PluralMessage
  /** Added in parentheses to a custom trigger's name when there is a count: "{count} unread". */
  triggerUnread: PluralMessage
  /** Added in parentheses to a custom trigger's name when the counts cannot be read. */
  triggerUnavailable: string
  /** A collapsed thread's button: "Show {count} more". */
  threadMore: PluralMessage
  threadLess: string
  /** Marks a thread's unread items read: "Mark {count} as read". */
  threadMarkRead: PluralMessage
  /** The page layout's detail pane when nothing is selected. */
  detailEmpty: string
  /** The page layout's link to an item's URL. */
  openLink: string
}
