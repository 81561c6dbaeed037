/**
 * Preference updates: shown at once, sent one after another (React Query's mutation `scope`, so the
 * last toggle wins), dropped from what is shown when they fail, shared with the other tabs, and
 * read-only once the service shows it has no update route.
 */
import { notifyManager } from '@tanstack/react-query'
import { createStore } from 'zustand/vanilla'
import { ApiError } from '../api/errors'
import type { Criticality, PreferenceChannels, Preferences, UpdatePreferencesBody } from '../api/types'
import type { InboxSync } from './sync'

function mergeChannels(
  current: PreferenceChannels,
  changes: PreferenceChannels,
  onlyListed: boolean,
): PreferenceChannels {
  const out: PreferenceChannels = { ...current }
  for (const [channel, value] of Object.entries(changes) as [keyof PreferenceChannels, boolean | undefined][]) {
    if (value === undefined) continue
    if (onlyListed && !(channel in current)) continue
    out[channel] = value
  }
  return out
}

/**
 * What a preferences update will most likely look like, for showing it before the service answers
 * (the answer replaces it). A global change reaches every workflow whose channel still follows the
 * global value; a workflow change reaches that workflow only. A list of critical workflows is left
 * alone, since the service ignores the subscriber's choices for them.
 */
export function applyPreferencesUpdate(
  prefs: Preferences,
  body: UpdatePreferencesBody,
  criticality: Criticality = 'nonCritical',
): Preferences {
  const changes = body.channels ?? {}
  if (criticality === 'critical') return prefs
  if (body.workflowId !== undefined) {
    const id = body.workflowId
    let changed = false
    const workflows = prefs.workflows.map((wf) => {
      if (wf.workflow.identifier !== id && wf.workflow.slug !== id) return wf
      changed = true
      const channels = mergeChannels(wf.channels, changes, true)
      const overrides = wf.overrides.map((o) =>
        changes[o.channel] !== undefined ? { ...o, source: 'subscriber' as const } : o,
      )
      return { ...wf, channels, overrides }
    })
    return changed ? { ...prefs, workflows } : prefs
  }
  const before = prefs.global.channels
  const global = {
    ...prefs.global,
    channels: mergeChannels(before, changes, true),
    ...(body.schedule ? { schedule: body.schedule } : {}),
  }
  const workflows = prefs.workflows.map((wf) => {
    let channels = wf.channels
    let overrides = wf.overrides
    for (const [channel, value] of Object.entries(changes) as [keyof PreferenceChannels, boolean | undefined][]) {
      if (value === undefined || !(channel in wf.channels)) continue
      const source = wf.overrides.find((o) => o.channel === channel)?.source
      const followsGlobal =
        source === 'template' || (source === 'subscriber' && wf.channels[channel] === (before[channel] ?? true))
      if (!followsGlobal) continue
      channels = { ...channels, [channel]: value }
      overrides = overrides.map((o) => (o.channel === channel ? { ...o, source: 'subscriber' as const } : o))
    }
    return channels === wf.channels ? wf : { ...wf, channels, overrides }
  })
  return { ...prefs, global, workflows }
}

/**
 * Whether an update failed because the route is missing (404 or 405 from a service or proxy without
 * it) rather than because the workflow or subscriber is unknown.
 */
function isMissingRoute(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.status === 405 || (error.status === 404 && !/^(workflow|subscriber)\b.*not found/i.test(error.message)))
  )
}

interface PrefsState {
  /** Updates on their way, oldest first. */
  updates: readonly UpdatePreferencesBody[]
  /** The service has no update route. */
  readOnly: boolean
  error: Error | null
}

/** The preferences bookkeeping of a provider, made on first use. */
export function prefsOf(sync: InboxSync) {
  return (sync.slots.prefs ??= createPrefs(sync)) as ReturnType<typeof createPrefs>
}

function createPrefs(sync: InboxSync) {
  const { queryClient, subscriberId, client } = sync
  const all = ['inbox', subscriberId, 'preferences']
  const store = createStore<PrefsState>(() => ({ updates: [], readOnly: false, error: null }))
  /** Applies an answered update to every cached criticality but the one the answer lists. */
  const fold = (body: UpdatePreferencesBody, answer: Preferences) =>
    notifyManager.batch(() => {
      for (const q of queryClient.getQueryCache().findAll({ queryKey: all })) {
        const criticality = q.queryKey[3] as Criticality
        const data = q.state.data as Preferences | undefined
        if (data)
          queryClient.setQueryData(
            q.queryKey,
            criticality === 'nonCritical' ? answer : applyPreferencesUpdate(data, body, criticality),
          )
      }
    })
  sync.listen((m) => m.t === 'prefs' && fold(m.body as UpdatePreferencesBody, m.data as Preferences))
  const drop = (body: UpdatePreferencesBody) => (s: PrefsState) => ({ updates: s.updates.filter((u) => u !== body) })
  return {
    store,
    /** Preferences as shown: the cached ones with the updates on their way applied. */
    view: (data: Preferences | undefined, criticality: Criticality, updates: readonly UpdatePreferencesBody[]) =>
      data && updates.reduce((d, body) => applyPreferencesUpdate(d, body, criticality), data),
    /** Sends one update; resolves with the error when it failed. */
    update(body: UpdatePreferencesBody): Promise<Error | undefined> {
      store.setState((s) => ({ updates: [...s.updates, body], error: null }))
      return queryClient
        .getMutationCache()
        .build(queryClient, {
          mutationKey: [...all, 'update'],
          scope: { id: all.join('\u0000') },
          mutationFn: () => client.updatePreferences(subscriberId, body),
        })
        .execute(undefined)
        .then(
          (answer) => {
            notifyManager.batch(() => {
              fold(body, answer)
              store.setState(drop(body))
            })
            sync.post({ t: 'prefs', body, data: answer })
            return undefined
          },
          (error: Error) => {
            store.setState((s) => ({ ...drop(body)(s), error, readOnly: s.readOnly || isMissingRoute(error) }))
            void queryClient.invalidateQueries({ queryKey: all })
            return error
          },
        )
    },
  }
}
