/** Mutation options of the organization-level operations: set primary integration, trigger events. */
import type { MutationOptions, QueryClient } from '@tanstack/react-query'
import type {
  BulkTriggerBody,
  InboxClient,
  Integration,
  JsonObject,
  PrimaryIntegration,
  Recipient,
  TriggerBody,
  TriggerResult,
} from '../api/types'
import { applySetPrimary } from './optimistic'
import { inboxKeys } from './queryKeys'

interface Deps {
  client: InboxClient
  queryClient: QueryClient
  subscriberId: string
}

/** Variables of a set-primary call. */
export interface SetPrimaryVariables {
  integrationId: string
  idempotencyKey?: string
}

const pendingPrimary = new WeakMap<QueryClient, { count: number; failed: boolean }>()

/**
 * Mutation options of set-primary: optimistic (the other primaries of that channel and environment
 * lose `primary`), rolled back on failure, merged with the service's answer on success.
 */
export function setPrimaryMutationOptions(
  deps: Deps,
): MutationOptions<PrimaryIntegration, Error, SetPrimaryVariables, { snapshot: Integration[] | undefined; alone: boolean }> {
  const { client, queryClient, subscriberId } = deps
  const key = inboxKeys.activeIntegrations(subscriberId)
  const state = () => {
    let s = pendingPrimary.get(queryClient)
    if (!s) {
      s = { count: 0, failed: false }
      pendingPrimary.set(queryClient, s)
    }
    return s
  }
  return {
    mutationKey: [...inboxKeys.all(subscriberId), 'setPrimary'],
    onMutate: async ({ integrationId }) => {
      await queryClient.cancelQueries({ queryKey: key })
      const snapshot = queryClient.getQueryData<Integration[]>(key)
      const s = state()
      s.count++
      if (snapshot) queryClient.setQueryData<Integration[]>(key, applySetPrimary(snapshot, integrationId))
      return { snapshot, alone: s.count === 1 }
    },
    mutationFn: ({ integrationId, idempotencyKey }) =>
      client.setPrimaryIntegration(integrationId, idempotencyKey ? { idempotencyKey } : {}),
    onSuccess: (answer, { integrationId }) => {
      queryClient.setQueryData<Integration[]>(key, (list) =>
        list
          ? applySetPrimary(list, integrationId).map((i) =>
              i._id === integrationId
                ? { ...i, active: answer.active, primary: answer.primary, conditions: answer.conditions ?? [] }
                : i,
            )
          : list,
      )
    },
    onError: (_error, _vars, context) => {
      const s = state()
      s.failed = true
      if (context?.alone && s.count === 1 && context.snapshot) queryClient.setQueryData(key, context.snapshot)
    },
    onSettled: () => {
      const s = state()
      s.count = Math.max(0, s.count - 1)
      if (s.count === 0 && s.failed) {
        s.failed = false
        void queryClient.invalidateQueries({ queryKey: key })
      }
    },
  }
}

/**
 * Whether `to` may include the subscriber: their id, a subscriber object with it, a topic (whose
 * members are not known here) unless it excludes them, or any array containing one of these.
 */
export function mayReachSubscriber(to: Recipient | Recipient[] | undefined, subscriberId: string): boolean {
  if (to === undefined || to === null) return false
  if (Array.isArray(to)) return to.some((r) => mayReachSubscriber(r, subscriberId))
  if (typeof to === 'string') return to === subscriberId
  if (typeof to !== 'object') return true
  if ('type' in to && to.type === 'Topic') return !(to.exclude ?? []).includes(subscriberId)
  if ('subscriberId' in to && typeof to.subscriberId === 'string') return to.subscriberId === subscriberId
  return true
}

function refreshFeeds(queryClient: QueryClient, subscriberId: string) {
  return queryClient.invalidateQueries({ queryKey: inboxKeys.feeds(subscriberId) })
}

/** Variables of a trigger call. */
export interface TriggerVariables<P extends JsonObject = JsonObject> {
  body: TriggerBody<P>
  idempotencyKey?: string
}

/**
 * Mutation options of a single trigger: when it was processed and the subscriber may be a recipient,
 * the feed and counts refresh once (the answer is awaited before the call resolves).
 */
export function triggerMutationOptions<P extends JsonObject = JsonObject>(
  deps: Deps,
): MutationOptions<TriggerResult, Error, TriggerVariables<P>> {
  const { client, queryClient, subscriberId } = deps
  return {
    mutationKey: [...inboxKeys.all(subscriberId), 'trigger'],
    mutationFn: ({ body, idempotencyKey }) => client.trigger(body, idempotencyKey ? { idempotencyKey } : {}),
    onSuccess: (result, { body }) => {
      if (result.status === 'processed' && mayReachSubscriber(body.to, subscriberId)) {
        return refreshFeeds(queryClient, subscriberId)
      }
    },
  }
}

/** Variables of a bulk trigger call. */
export interface BulkTriggerVariables<P extends JsonObject = JsonObject> {
  body: BulkTriggerBody<P>
  idempotencyKey?: string
}

/** Mutation options of a bulk trigger: results per event; one refresh if any processed event may reach the subscriber. */
export function bulkTriggerMutationOptions<P extends JsonObject = JsonObject>(
  deps: Deps,
): MutationOptions<TriggerResult[], Error, BulkTriggerVariables<P>> {
  const { client, queryClient, subscriberId } = deps
  return {
    mutationKey: [...inboxKeys.all(subscriberId), 'bulkTrigger'],
    mutationFn: ({ body, idempotencyKey }) => client.bulkTrigger(body, idempotencyKey ? { idempotencyKey } : {}),
    onSuccess: (results, { body }) => {
      const reached = body.events.some(
        (e, i) => results[i]?.status === 'processed' && mayReachSubscriber(e.to, subscriberId),
      )
      if (reached) return refreshFeeds(queryClient, subscriberId)
    },
  }
}
