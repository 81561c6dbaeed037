import type { CountedCursorPage, TopicSubscription } from '../api/types'
import { topicSubscriptionsQueryOptions } from '../core/queries'
import { useCursorList, type CursorListResult } from './useCursorList'
import { useInboxContext } from './useInboxContext'

/** Options of {@link useTopicSubscriptions}. */
export interface UseTopicSubscriptionsOptions {
  /** Only this subscriber's subscription. */
  subscriberId?: string
  /** Items per page, 1–100. @default 10 */
  limit?: number
  /** @default true */
  enabled?: boolean
}

/**
 * The subscriptions of a topic, a page at a time, forwards and backwards, with the total count
 * (`totalCountCapped` when the service stopped counting).
 *
 * @example
 * const { items, totalCount, totalCountCapped, next, hasNext } = useTopicSubscriptions('release-notes')
 * @param name - The component or hook named in the error thrown outside `<InboxProvider>`. @default 'useTopicSubscriptions'
 */
export function useTopicSubscriptions(
  topicKey: string,
  options: UseTopicSubscriptionsOptions = {},
  name = 'useTopicSubscriptions',
): CursorListResult<TopicSubscription> {
  const { client, queryClient, subscriberId: current, enabled } = useInboxContext(name)
  const { subscriberId, limit } = options
  const { page, result } = useCursorList<TopicSubscription, CountedCursorPage<TopicSubscription>>(
    JSON.stringify([current, topicKey, subscriberId, limit]),
    (position) =>
      topicSubscriptionsQueryOptions({ client, subscriberId: current }, topicKey, {
        ...(subscriberId !== undefined ? { subscriberId } : {}),
        ...(limit !== undefined ? { limit } : {}),
        ...position,
      }),
    enabled && options.enabled !== false && topicKey !== '',
    queryClient,
  )
  return page ? { ...result, totalCount: page.totalCount, totalCountCapped: page.totalCountCapped } : result
}
