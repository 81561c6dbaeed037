/**
 * inbox-kit/admin: hooks for back-office screens — trigger and bulk trigger, integrations, a topic's
 * subscribers. They need an API key that may do these things, which a browser must not hold: use them
 * in trusted internal tools, or behind a server of your own that checks who may do what. The kit's own
 * proxy (`inbox-kit/proxy`) refuses these operations from a browser.
 */
'use client'

import { QueryClient, queryOptions, useMutation, useQuery } from '@tanstack/react-query'
import { createContext, createElement, useCallback, useContext, useMemo, useState, type ReactNode } from 'react'
import { createInboxClient } from '../api/client'
import { randomKey } from '../api/encoding'
import type {
  BulkTriggerBody,
  CountedCursorPage,
  InboxClient,
  Integration,
  JsonObject,
  PrimaryIntegration,
  Recipient,
  TopicSubscription,
  TopicSubscriptionsParams,
  TriggerBody,
  TriggerResult,
} from '../api/types'
import type { InboxQueryOptions } from '../core/queries'
import { ledgerOf } from '../core/ledger'
import { useCursorList, type CursorListResult } from '../hooks/useCursorList'
import { InboxContext } from '../provider/context'

export type { CursorListResult } from '../hooks/useCursorList'

/** Query keys of the admin reads (under the subscriber's, so that a subscriber switch drops them). */
export const adminKeys = {
  integrations: (subscriberId: string) => ['inbox', subscriberId, 'admin', 'integrations'] as const,
  topicSubscriptions: (subscriberId: string, topicKey: string, params: TopicSubscriptionsParams = {}) =>
    ['inbox', subscriberId, 'admin', 'topic', topicKey, params] as const,
}

/** What the admin option builders need: a full client (see `createInboxClient`). */
export interface AdminDeps {
  client: InboxClient
  subscriberId: string
}

/** Options of the organization's active integrations. */
export function integrationsQueryOptions(
  deps: AdminDeps,
): InboxQueryOptions<Integration[], ReturnType<typeof adminKeys.integrations>> {
  return queryOptions({
    queryKey: adminKeys.integrations(deps.subscriberId),
    queryFn: ({ signal }) => deps.client.listActiveIntegrations({ signal }),
    staleTime: 30_000,
  })
}

/** Options of one page of a topic's subscriptions. */
export function topicSubscriptionsQueryOptions(
  deps: AdminDeps,
  topicKey: string,
  params: TopicSubscriptionsParams = {},
): InboxQueryOptions<CountedCursorPage<TopicSubscription>, ReturnType<typeof adminKeys.topicSubscriptions>> {
  return queryOptions({
    queryKey: adminKeys.topicSubscriptions(deps.subscriberId, topicKey, params),
    queryFn: ({ signal }) => deps.client.listTopicSubscriptions(topicKey, params, { signal }),
    staleTime: 30_000,
  })
}

/** What an {@link InboxAdminProvider} gives the hooks below it. */
interface AdminValue {
  client: InboxClient
  /** Its own QueryClient when it stands alone (no `InboxProvider` around it). */
  queryClient: QueryClient | undefined
}

const AdminContext = /* @__PURE__ */ createContext<AdminValue | null>(null)

/**
 * Gives the admin hooks below it their own client (e.g. one that reaches your back office). Inside an
 * `InboxProvider` they keep its subscriber (a trigger that reaches that subscriber refreshes the inbox) and,
 * unless given `queryClient`, its cache; on a back-office page of its own, with no inbox around it, it brings a
 * QueryClient of its own (or takes `queryClient`).
 *
 * @example
 * <InboxAdminProvider client={createInboxClient({ baseUrl: '/admin/api' })}>
 *   <SendForm />
 * </InboxAdminProvider>
 */
export function InboxAdminProvider({
  client,
  queryClient,
  children,
}: {
  client: InboxClient
  /** The QueryClient of the admin reads and writes; by default the `InboxProvider`'s around, else one of its own. */
  queryClient?: QueryClient | undefined
  children?: ReactNode
}): ReactNode {
  const inbox = useContext(InboxContext)
  // Without React Query's own retries, as the InboxProvider's: the client already retries what can be retried
  // (with backoff, after `Retry-After`), and three more rounds on top would hold a 403 or 404 back for seconds.
  const [own] = useState(() =>
    inbox || queryClient ? undefined : new QueryClient({ defaultOptions: { queries: { retry: false } } }),
  )
  const value = useMemo(() => ({ client, queryClient: queryClient ?? own }), [client, queryClient, own])
  return createElement(AdminContext.Provider, { value }, children)
}

/**
 * The client of the admin hooks: an `InboxAdminProvider`'s, else the provider's own when it has every
 * operation, else a full client built from the provider's options; with the surrounding inbox (if any) and
 * the QueryClient to use.
 */
function useAdmin(name: string) {
  const scope = useContext(InboxContext)
  const given = useContext(AdminContext)
  if (!scope && !given)
    throw new Error(`\`${name}\` must be used within \`<InboxAdminProvider>\` or \`<InboxProvider>\``)
  const sync = scope?.sync
  const clientOptions = scope?.clientOptions
  const client = useMemo(() => {
    if (given) return given.client
    if (sync && 'trigger' in sync.client) return sync.client as InboxClient
    if (clientOptions) return createInboxClient(clientOptions)
    throw new Error(`\`${name}\` needs a client with every operation: pass one to \`<InboxAdminProvider client={…}>\``)
  }, [given, sync, clientOptions, name])
  return {
    client,
    sync,
    // Alone, the admin provider's own; inside an inbox, the inbox's.
    queryClient: (given?.queryClient ?? sync?.queryClient)!,
    /** Whose inbox a trigger may refresh ('' on a page without one); the admin reads' keys sit under it. */
    subscriberId: sync?.subscriberId ?? '',
    enabled: scope?.enabled ?? true,
  }
}

/**
 * What each write of the hooks below takes beside its body, as the client's calls do. `idempotencyKey` is sent
 * as `Idempotency-Key`: the service applies a write once per key and answers a repeat with the first answer.
 */
interface WriteOptions {
  /**
   * The key of this write, at most 255 characters. Without one, each call makes its own, kept through every retry
   * of that call (the client's and React Query's). Pass your own when your screen may send the same write again
   * in a new call (a "Try again" after a dropped connection): make it once per intended write, e.g. with
   * `crypto.randomUUID()` when the form is filled in, and send the same key and the same body each time. The
   * service keeps a key's answer for 24 hours, refusals (4xx) included, and refuses the same key with another body
   * (422): once the body changes, make a new key.
   */
  idempotencyKey?: string | undefined
}

/** A write's variables as its mutation sees them: the key is made once per call, not per attempt. */
interface Keyed<T> {
  input: T
  idempotencyKey: string
}

const keyed = <T>(input: T, options: WriteOptions | undefined): Keyed<T> => ({
  input,
  idempotencyKey: options?.idempotencyKey ?? randomKey(),
})

/** What {@link useActiveIntegrations} returns. */
export interface UseActiveIntegrationsResult {
  /** Every active integration of the organization, all environments and channels. */
  data?: Integration[] | undefined
  isLoading: boolean
  error: Error | null
  refetch: () => Promise<void>
}

/**
 * The organization's active integrations.
 *
 * @example
 * const { data } = useActiveIntegrations()
 * const primaryEmail = data?.find((i) => i.channel === 'email' && i.primary)
 */
export function useActiveIntegrations(options: { enabled?: boolean } = {}): UseActiveIntegrationsResult {
  const { client, queryClient, subscriberId, enabled } = useAdmin('useActiveIntegrations')
  const query = useQuery(
    { ...integrationsQueryOptions({ client, subscriberId }), enabled: enabled && options.enabled !== false },
    queryClient,
  )
  const { refetch: again } = query
  const refetch = useCallback(() => again().then(() => {}), [again])
  return { ...(query.data ? { data: query.data } : {}), isLoading: query.isLoading, error: query.error, refetch }
}

/** Channels whose integrations can be primary. */
const PRIMARY_CHANNELS = ['email', 'sms']

/**
 * Makes one integration primary as the service does: the others of its channel and environment lose
 * `primary`, it becomes active with no conditions. Returns `list` itself when nothing changes.
 */
export function applySetPrimary<T extends Integration>(list: T[], integrationId: string): T[] {
  const target = list.find((i) => i._id === integrationId)
  if (!target || !PRIMARY_CHANNELS.includes(target.channel)) return list
  return list.map((i) =>
    i === target
      ? { ...i, active: true, primary: true, conditions: [] }
      : i.primary && i.channel === target.channel && i._environmentId === target._environmentId
        ? { ...i, primary: false }
        : i,
  )
}

/** What {@link useSetPrimaryIntegration} returns. */
export interface UseSetPrimaryIntegrationResult {
  /**
   * Makes an email or sms integration primary; resolves with the service's answer, rejects on failure. Each call
   * sends one idempotency key, its own unless `options.idempotencyKey` is given (see {@link useTrigger}).
   */
  setPrimary: (integrationId: string, options?: WriteOptions) => Promise<PrimaryIntegration>
  isPending: boolean
  error: Error | null
  reset: () => void
}

/**
 * Sets the primary integration of a channel, optimistically: in the cached list the other primaries
 * of that channel and environment lose `primary` at once; a failure restores the list and fetches it
 * again. Calls run one after another, in order.
 *
 * @example
 * const { setPrimary } = useSetPrimaryIntegration()
 * <button onClick={() => setPrimary(integration._id!).catch(() => {})}>Make primary</button>
 */
export function useSetPrimaryIntegration(): UseSetPrimaryIntegrationResult {
  const { client, queryClient, subscriberId } = useAdmin('useSetPrimaryIntegration')
  const key = adminKeys.integrations(subscriberId)
  const mutation = useMutation(
    {
      mutationKey: [...key, 'setPrimary'],
      scope: { id: key.join('\u0000') },
      onMutate: async ({ input: integrationId }: Keyed<string>) => {
        await queryClient.cancelQueries({ queryKey: key })
        const before = queryClient.getQueryData<Integration[]>(key)
        if (before) queryClient.setQueryData(key, applySetPrimary(before, integrationId))
        return before
      },
      mutationFn: ({ input, idempotencyKey }: Keyed<string>) => client.setPrimaryIntegration(input, { idempotencyKey }),
      onError: (_error, _variables, before) => {
        // Restored only when no later call laid its own change over it; the refetch settles the rest.
        if (before && queryClient.isMutating({ mutationKey: [...key, 'setPrimary'] }) === 1)
          queryClient.setQueryData(key, before)
        void queryClient.invalidateQueries({ queryKey: key })
      },
    },
    queryClient,
  )
  const { mutateAsync } = mutation
  const setPrimary = useCallback(
    (integrationId: string, options?: WriteOptions) => mutateAsync(keyed(integrationId, options)),
    [mutateAsync],
  )
  return {
    setPrimary,
    isPending: mutation.isPending,
    error: mutation.error,
    reset: mutation.reset,
  }
}

/**
 * Whether `to` may include the subscriber: their id, a subscriber object with it, a topic (whose
 * members are not known here) unless it excludes them, or an array with one of these.
 */
function mayReach(to: Recipient | Recipient[] | undefined, subscriberId: string): boolean {
  if (Array.isArray(to)) return to.some((r) => mayReach(r, subscriberId))
  if (typeof to === 'string') return to === subscriberId
  if (!to || typeof to !== 'object') return false
  if ('type' in to && to.type === 'Topic') return !(to.exclude ?? []).includes(subscriberId)
  return !('subscriberId' in to) || to.subscriberId === subscriberId
}

/** What {@link useTrigger} returns. */
export interface UseTriggerResult<P extends object = JsonObject> {
  /**
   * Triggers a workflow; resolves with the result (`status` says whether it was processed), rejects on failure.
   * Each call sends one idempotency key, its own unless `options.idempotencyKey` is given.
   */
  trigger: (body: TriggerBody<P>, options?: WriteOptions) => Promise<TriggerResult>
  /** The latest result. */
  data?: TriggerResult | undefined
  isPending: boolean
  error: Error | null
  reset: () => void
}

/**
 * Triggers a workflow. When the current subscriber may be a recipient, the inbox looks for news once
 * the service answered.
 *
 * Each call of `trigger` carries one `Idempotency-Key` through all its attempts: the client's retries and, when
 * the QueryClient retries mutations, React Query's. A request whose answer was lost (the connection dropped after
 * the service took it) is then sent again under the same key, and the service answers with the first result
 * instead of sending the notification twice. A new call makes a new key, so a screen that lets its user send
 * again after a failure passes its own `idempotencyKey`, the same for every try of one notification.
 *
 * @example
 * const { trigger } = useTrigger<{ orderId: string }>()
 * await trigger({ name: 'order-shipped', to: 'user-1', payload: { orderId: '42' } })
 *
 * @example
 * // One key per notification meant, kept across "Try again" (send the same body with it)
 * const [key, setKey] = useState(() => crypto.randomUUID())
 * await trigger(body, { idempotencyKey: key })
 * setKey(crypto.randomUUID()) // sent: the next one is another notification
 */
export function useTrigger<P extends object = JsonObject>(): UseTriggerResult<P> {
  const { client, queryClient, sync, subscriberId } = useAdmin('useTrigger')
  const mutation = useMutation(
    {
      mutationFn: ({ input, idempotencyKey }: Keyed<TriggerBody<P>>) => client.trigger(input, { idempotencyKey }),
      onSuccess: (result, { input }) => {
        if (sync && result.status === 'processed' && mayReach(input.to, subscriberId)) return ledgerOf(sync).refresh()
      },
    },
    queryClient,
  )
  const { mutateAsync } = mutation
  const trigger = useCallback(
    (body: TriggerBody<P>, options?: WriteOptions) => mutateAsync(keyed(body, options)),
    [mutateAsync],
  )
  return {
    trigger,
    ...(mutation.data ? { data: mutation.data } : {}),
    isPending: mutation.isPending,
    error: mutation.error,
    reset: mutation.reset,
  }
}

/** What {@link useBulkTrigger} returns. */
export interface UseBulkTriggerResult<P extends object = JsonObject> {
  /**
   * Triggers 1–100 events; resolves with one result per event in order, rejects when the request fails. Each call
   * sends one idempotency key for the whole request, its own unless `options.idempotencyKey` is given (see
   * {@link useTrigger}).
   */
  bulkTrigger: (body: BulkTriggerBody<P>, options?: WriteOptions) => Promise<TriggerResult[]>
  /** The latest results. */
  data?: TriggerResult[] | undefined
  isPending: boolean
  error: Error | null
  reset: () => void
}

/**
 * Triggers several events in one request. One event's failure does not stop the others (see each
 * result's `status`); the inbox looks for news once if any processed event may reach the subscriber.
 *
 * @example
 * const { bulkTrigger } = useBulkTrigger()
 * const results = await bulkTrigger({ events: ids.map((to) => ({ name: 'digest', to })) })
 */
export function useBulkTrigger<P extends object = JsonObject>(): UseBulkTriggerResult<P> {
  const { client, queryClient, sync, subscriberId } = useAdmin('useBulkTrigger')
  const mutation = useMutation(
    {
      mutationFn: ({ input, idempotencyKey }: Keyed<BulkTriggerBody<P>>) =>
        client.bulkTrigger(input, { idempotencyKey }),
      onSuccess: (results, { input }) => {
        if (sync && input.events.some((e, i) => results[i]?.status === 'processed' && mayReach(e.to, subscriberId)))
          return ledgerOf(sync).refresh()
      },
    },
    queryClient,
  )
  const { mutateAsync } = mutation
  const bulkTrigger = useCallback(
    (body: BulkTriggerBody<P>, options?: WriteOptions) => mutateAsync(keyed(body, options)),
    [mutateAsync],
  )
  return {
    bulkTrigger,
    ...(mutation.data ? { data: mutation.data } : {}),
    isPending: mutation.isPending,
    error: mutation.error,
    reset: mutation.reset,
  }
}

/** Options of {@link useTopicSubscriptions}. */
export interface UseTopicSubscriptionsOptions {
  /** Only this subscriber's subscription. */
  subscriberId?: string | undefined
  /** Items per page, 1–100. @default 10 */
  limit?: number | undefined
  /** @default true */
  enabled?: boolean | undefined
}

/**
 * The subscriptions of a topic, a page at a time, forwards and backwards, with the total count
 * (`totalCountCapped` when the service stopped counting).
 *
 * @example
 * const { items, totalCount, totalCountCapped, next, hasNext } = useTopicSubscriptions('release-notes')
 */
export function useTopicSubscriptions(
  topicKey: string,
  options: UseTopicSubscriptionsOptions = {},
): CursorListResult<TopicSubscription> {
  const { client, queryClient, subscriberId: current, enabled } = useAdmin('useTopicSubscriptions')
  const { subscriberId, limit } = options
  const { page, result } = useCursorList<TopicSubscription, CountedCursorPage<TopicSubscription>>(
    JSON.stringify([current, topicKey, subscriberId, limit]),
    (position) =>
      topicSubscriptionsQueryOptions({ client, subscriberId: current }, topicKey, {
        ...(subscriberId === undefined ? {} : { subscriberId }),
        ...(limit === undefined ? {} : { limit }),
        ...position,
      }),
    enabled && options.enabled !== false && topicKey !== '',
    queryClient,
  )
  return page ? { ...result, totalCount: page.totalCount, totalCountCapped: page.totalCountCapped } : result
}
