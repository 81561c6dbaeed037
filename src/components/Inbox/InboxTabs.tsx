import type { FeedFilter } from '../Feed/Feed'

/** A tab of the inbox: a label and the feed filter it shows. */
export interface InboxTab {
  /** Unique id. */
  id: string
  label: string
  filter: FeedFilter
  /** A count shown beside the label ("99+" above 99). */
  count?: string | undefined
}
