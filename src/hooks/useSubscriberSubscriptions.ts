import type { CursorPage, TopicSubscription } from '../api/types'
import { subscriptionsQueryOptions } from '../core/queries'
import { useInboxScope } from '../provider/context'
import { useCursorList, type CursorListResult } from './useCursorList'

/** Options of {@link useSubscriberSubscriptions}. */
export interface UseSubscriberSubscriptionsOptions {
  /** Only the subscription to the topic with this key. */
  key?: string | undefined
  /** Items per page, 1–100. @default 10 */
  limit?: number | undefined
  /** @default true */
  enabled?: boolean | undefined
}

/**
 * The topics the current subscriber is subscribed to, a page at a time, forwards and backwards.
 *
 * @example
 * const { items, hasNext, next, hasPrevious, previous } = useSubscriberSubscriptions({ limit: 20 })
 */
export function useSubscriberSubscriptions(
  options: UseSubscriberSubscriptionsOptions = {},
): CursorListResult<TopicSubscription> {
  const { sync, enabled } = useInboxScope('useSubscriberSubscriptions')
  const { key, limit } = options
  return useCursorList<TopicSubscription, CursorPage<TopicSubscription>>(
    JSON.stringify([sync.subscriberId, key, limit]),
    (position) =>
      subscriptionsQueryOptions(sync, {
        ...(key === undefined ? {} : { key }),
        ...(limit === undefined ? {} : { limit }),
        ...position,
      }),
    enabled && options.enabled !== false,
    sync.queryClient,
  ).result
}
