import type { CursorPage, TopicSubscription } from '../api/types'
import { subscriberSubscriptionsQueryOptions } from '../core/queries'
import { useCursorList, type CursorListResult } from './useCursorList'
import { useInboxContext } from './useInboxContext'

/** Options of {@link useSubscriberSubscriptions}. */
export interface UseSubscriberSubscriptionsOptions {
  /** Only the subscription to the topic with this key. */
  key?: string
  /** Items per page, 1–100. @default 10 */
  limit?: number
  /** @default true */
  enabled?: boolean
}

/**
 * The topics the current subscriber is subscribed to, a page at a time, forwards and backwards.
 *
 * @example
 * const { items, hasNext, next, hasPrevious, previous } = useSubscriberSubscriptions({ limit: 20 })
 * @param name - The component or hook named in the error thrown outside `<InboxProvider>`. @default 'useSubscriberSubscriptions'
 */
export function useSubscriberSubscriptions(
  options: UseSubscriberSubscriptionsOptions = {},
  name = 'useSubscriberSubscriptions',
): CursorListResult<TopicSubscription> {
  const { client, queryClient, subscriberId, enabled } = useInboxContext(name)
  const { key, limit } = options
  return useCursorList<TopicSubscription, CursorPage<TopicSubscription>>(
    JSON.stringify([subscriberId, key, limit]),
    (position) =>
      subscriberSubscriptionsQueryOptions(
        { client, subscriberId },
        { ...(key !== undefined ? { key } : {}), ...(limit !== undefined ? { limit } : {}), ...position },
      ),
    enabled && options.enabled !== false,
    queryClient,
  ).result
}
