import type { Criticality, JsonObject } from '../api/types'

/** The filters of one feed list. Lists with equal filters share one cache entry. */
export interface FeedFilters {
  /** `false`: unread only, `true`: read only, absent: both. */
  read?: boolean
  /** `false`: unseen only, `true`: seen only, absent: both. */
  seen?: boolean
  /** Subset of the payload an item must match. */
  payload?: JsonObject
  /** Page size, 1–100. */
  limit: number
}

/** Page size of a feed list when none is given. */
export const DEFAULT_FEED_LIMIT = 20

/** The lists the counts are read from: one page of up to 100, so "99+" can be told from 99. */
export const COUNT_FILTERS = {
  unread: { read: false, limit: 100 },
  unseen: { seen: false, limit: 100 },
} as const satisfies Record<'unread' | 'unseen', FeedFilters>

/** Filters with defaults filled in and absent keys left out, so equal lists get equal keys. */
export function normalizeFeedFilters(filters: Partial<FeedFilters> = {}): FeedFilters {
  const out: FeedFilters = { limit: filters.limit ?? DEFAULT_FEED_LIMIT }
  if (typeof filters.read === 'boolean') out.read = filters.read
  if (typeof filters.seen === 'boolean') out.seen = filters.seen
  if (filters.payload && Object.keys(filters.payload).length > 0) out.payload = filters.payload
  return out
}

/** Cursor position of a cursor-paginated list. */
export interface CursorPosition {
  after?: string
  before?: string
}

/**
 * Every query key of the kit. All start `['inbox', subscriberId, …]`, so one subscriber's cache can be
 * dropped, cancelled or invalidated as a whole.
 */
export const inboxKeys = {
  /** Everything cached for a subscriber. */
  all: (subscriberId: string) => ['inbox', subscriberId] as const,
  /** Every feed list of a subscriber, whatever its filters (the counts included). */
  feeds: (subscriberId: string) => ['inbox', subscriberId, 'feed'] as const,
  /** One feed list. */
  feed: (subscriberId: string, filters: Partial<FeedFilters> = {}) =>
    ['inbox', subscriberId, 'feed', normalizeFeedFilters(filters)] as const,
  /** Every preferences query of a subscriber. */
  preferencesAll: (subscriberId: string) => ['inbox', subscriberId, 'preferences'] as const,
  preferences: (subscriberId: string, criticality: Criticality = 'nonCritical') =>
    ['inbox', subscriberId, 'preferences', criticality] as const,
  subscriberSubscriptions: (
    subscriberId: string,
    params: { key?: string; limit?: number } & CursorPosition = {},
  ) => ['inbox', subscriberId, 'subscriberSubscriptions', params] as const,
  topicSubscriptions: (
    subscriberId: string,
    topicKey: string,
    params: { subscriberId?: string; limit?: number } & CursorPosition = {},
  ) => ['inbox', subscriberId, 'topicSubscriptions', topicKey, params] as const,
  /** Integrations belong to the organization; the key is still scoped so a subscriber switch drops them. */
  activeIntegrations: (subscriberId: string) => ['inbox', subscriberId, 'integrations', 'active'] as const,
}

/** The type of a feed list's key. */
export type FeedQueryKey = ReturnType<typeof inboxKeys.feed>

/** The filters of a feed list from its key, or `undefined` for another key. */
export function feedFiltersOf(queryKey: readonly unknown[]): FeedFilters | undefined {
  if (queryKey[0] !== 'inbox' || queryKey[2] !== 'feed') return undefined
  const filters = queryKey[3]
  return filters && typeof filters === 'object' ? (filters as FeedFilters) : undefined
}

/** The subscriber a key belongs to. */
export function subscriberOf(queryKey: readonly unknown[]): string | undefined {
  return queryKey[0] === 'inbox' && typeof queryKey[1] === 'string' ? queryKey[1] : undefined
}
