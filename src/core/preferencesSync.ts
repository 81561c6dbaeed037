/**
 * Preference updates: optimistic across every cached criticality, serialized so the last toggle
 * wins, rolled back on failure, shared with other tabs, and read-only once the service shows it
 * has no update route.
 */
import type { MutationOptions, QueryClient, QueryKey } from '@tanstack/react-query'
import { ApiError } from '../api/errors'
import type { Criticality, InboxClient, Preferences, UpdatePreferencesBody } from '../api/types'
import type { CrossTabMessage } from './crossTab'
import { applyPreferencesUpdate } from './optimistic'
import { perSubscriber } from './perSubscriber'
import { inboxKeys } from './queryKeys'

// ---------------------------------------------------------------- read-only, remembered per client

const readOnlyClients = new WeakMap<InboxClient, boolean>()
const readOnlyListeners = new Set<() => void>()

/** Whether the service behind `client` turned out to have no preferences update route. */
export function isPreferencesReadOnly(client: InboxClient): boolean {
  return readOnlyClients.get(client) === true
}

/** Remembers that `client`'s service cannot update preferences. */
export function setPreferencesReadOnly(client: InboxClient): void {
  if (readOnlyClients.get(client)) return
  readOnlyClients.set(client, true)
  for (const listener of readOnlyListeners) listener()
}

/** Calls `listener` whenever some client becomes read-only (for useSyncExternalStore). */
export function subscribePreferencesReadOnly(listener: () => void): () => void {
  readOnlyListeners.add(listener)
  return () => readOnlyListeners.delete(listener)
}

/**
 * Whether an update failed because the route is missing (404 or 405 from a service or proxy without
 * it) rather than because the workflow or subscriber is unknown.
 */
export function isMissingRouteError(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false
  if (error.status === 405) return true
  return error.status === 404 && !/^(workflow|subscriber)\b.*not found/i.test(error.message)
}

// ---------------------------------------------------------------- updates

/** Variables of one update. */
export interface UpdatePreferencesVariables {
  body: UpdatePreferencesBody
  /** Sent with the request and each of its retries. */
  idempotencyKey?: string
}

interface PendingUpdate {
  body: UpdatePreferencesBody
  snapshot: Map<string, { queryKey: QueryKey; data: unknown }>
  overlapped: boolean
}

class PreferencesLedger {
  readonly pending: PendingUpdate[] = []
  chain: Promise<unknown> = Promise.resolve()
  failed = false
}

const ledgers = perSubscriber(() => new PreferencesLedger())

function criticalityOf(queryKey: QueryKey): Criticality {
  const c = queryKey[3]
  return c === 'critical' || c === 'all' ? c : 'nonCritical'
}

function cachedPreferences(queryClient: QueryClient, subscriberId: string) {
  return queryClient
    .getQueryCache()
    .findAll({ queryKey: inboxKeys.preferencesAll(subscriberId) })
    .filter((q) => q.state.data !== undefined)
}

/** Applies `update` to every cached criticality in one batch. */
function updatePreferencesCache(
  queryClient: QueryClient,
  subscriberId: string,
  update: (data: Preferences, criticality: Criticality) => Preferences,
): void {
  const next = new Map<unknown, Preferences>()
  for (const q of cachedPreferences(queryClient, subscriberId)) {
    const data = q.state.data as Preferences
    const result = update(data, criticalityOf(q.queryKey))
    if (result !== data) next.set(data, result)
  }
  if (next.size === 0) return
  queryClient.setQueriesData<Preferences>(
    { queryKey: inboxKeys.preferencesAll(subscriberId) },
    (old) => (old && next.get(old)) ?? old,
  )
}

/** The service's answer (for `criticality`) with the updates still pending on top. */
function withPending(ledger: PreferencesLedger, data: Preferences, criticality: Criticality): Preferences {
  return ledger.pending.reduce((d, p) => applyPreferencesUpdate(d, p.body, criticality), data)
}

/** Writes the answer to its criticality and the pending updates over it; other criticalities keep theirs. */
function acceptAnswer(queryClient: QueryClient, subscriberId: string, ledger: PreferencesLedger, answer: Preferences) {
  const key = inboxKeys.preferences(subscriberId, 'nonCritical')
  if (queryClient.getQueryData(key) !== undefined) {
    queryClient.setQueryData<Preferences>(key, withPending(ledger, answer, 'nonCritical'))
  }
}

/** The criticality the update route's answer lists (the client asks for none, so the default). */
const ANSWER_CRITICALITY: Criticality = 'nonCritical'

/**
 * Mutation options of a preferences update.
 * A success costs the one request (other criticalities in the cache keep the optimistic change);
 * a failure rolls back and refetches each cached criticality once, after the last pending update.
 */
export function updatePreferencesMutationOptions(deps: {
  client: InboxClient
  queryClient: QueryClient
  subscriberId: string
  broadcast?: (message: CrossTabMessage) => void
}): MutationOptions<Preferences, Error, UpdatePreferencesVariables, PendingUpdate> {
  const { client, queryClient, subscriberId, broadcast } = deps
  const ledger = ledgers.get(queryClient, subscriberId)
  const settle = (entry: PendingUpdate | undefined) => {
    const at = entry ? ledger.pending.indexOf(entry) : -1
    if (at >= 0) ledger.pending.splice(at, 1)
  }
  return {
    mutationKey: [...inboxKeys.preferencesAll(subscriberId), 'update'],
    onMutate: async (vars) => {
      await queryClient.cancelQueries({ queryKey: inboxKeys.preferencesAll(subscriberId) })
      const snapshot = new Map(
        cachedPreferences(queryClient, subscriberId).map((q) => [q.queryHash, { queryKey: q.queryKey, data: q.state.data }]),
      )
      const entry: PendingUpdate = { body: vars.body, snapshot, overlapped: ledger.pending.length > 0 }
      for (const other of ledger.pending) other.overlapped = true
      ledger.pending.push(entry)
      updatePreferencesCache(queryClient, subscriberId, (data, c) => applyPreferencesUpdate(data, vars.body, c))
      return entry
    },
    mutationFn: (vars) => {
      // One at a time, in order: the service ends in the state of the last toggle.
      const run = ledger.chain.then(() =>
        client.updatePreferences(subscriberId, vars.body, vars.idempotencyKey ? { idempotencyKey: vars.idempotencyKey } : {}),
      )
      ledger.chain = run.catch(() => undefined)
      return run
    },
    onSuccess: (answer, vars, entry) => {
      settle(entry)
      acceptAnswer(queryClient, subscriberId, ledger, answer)
      broadcast?.({ type: 'preferences', body: vars.body, criticality: ANSWER_CRITICALITY, data: answer })
    },
    onError: (error, _vars, entry) => {
      settle(entry)
      if (isMissingRouteError(error)) setPreferencesReadOnly(client)
      ledger.failed = true
      if (entry && !entry.overlapped && ledger.pending.length === 0) {
        const current = new Map(cachedPreferences(queryClient, subscriberId).map((q) => [q.queryHash, q.state.data]))
        const next = new Map<unknown, unknown>()
        for (const [hash, { data }] of entry.snapshot) if (current.has(hash)) next.set(current.get(hash), data)
        queryClient.setQueriesData(
          { queryKey: inboxKeys.preferencesAll(subscriberId), predicate: (q) => entry.snapshot.has(q.queryHash) },
          (old: unknown) => (next.has(old) ? next.get(old) : old),
        )
      }
    },
    onSettled: () => {
      if (ledger.pending.length > 0 || !ledger.failed) return
      ledger.failed = false
      void queryClient.invalidateQueries({ queryKey: inboxKeys.preferencesAll(subscriberId) })
    },
  }
}

/** Applies a preferences change another tab made, without a request. */
export function applyRemotePreferencesChange(
  queryClient: QueryClient,
  subscriberId: string,
  message: Extract<CrossTabMessage, { type: 'preferences' }>,
): void {
  const ledger = ledgers.get(queryClient, subscriberId)
  updatePreferencesCache(queryClient, subscriberId, (data, c) =>
    c === message.criticality ? withPending(ledger, message.data, c) : applyPreferencesUpdate(data, message.body, c),
  )
}
