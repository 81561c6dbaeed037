import type { FeedFilter } from '../Feed/Feed'

/** A tab of the inbox: a label and the feed filter it shows. */
export interface InboxTab {
  /** Unique id. */
  id: string
  label: string
  filter: FeedFilter
  /** Shown beside the label as given (the Unread tab's own count says "99+" above 99). */
  count?: string | undefined
}
