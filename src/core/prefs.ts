/**
 * Preference updates: shown at once, sent one after another (React Query's mutation `scope`, so the
 * last toggle wins), dropped from what is shown when they fail, shared with the other tabs, and
 * read-only once the service shows it has no update route.
 */
import { notifyManager } from '@tanstack/react-query'
import { createStore } from 'zustand/vanilla'
import { ApiError } from '../api/errors'
import type { Channel, Criticality, Preferences, UpdatePreferencesBody } from '../api/types'
import type { InboxSync } from './sync'

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
  if (criticality === 'critical') return prefs
  const id = body.workflowId
  const all = id === undefined
  const before = prefs.global.channels
  const changes = (Object.entries(body.channels ?? {}) as [Channel, boolean | undefined][]).filter(
    ([, value]) => value !== undefined,
  ) as [Channel, boolean][]
  let found = false
  const workflows = prefs.workflows.map((wf) => {
    const mine = !all && (wf.workflow.identifier === id || wf.workflow.slug === id)
    if (!all && !mine) return wf
    let { channels, overrides } = wf
    for (const [channel, value] of changes) {
      const listed = channel in wf.channels
      const source = wf.overrides.find((o) => o.channel === channel)?.source
      const followsGlobal =
        listed &&
        (source === 'template' || (source === 'subscriber' && wf.channels[channel] === (before[channel] ?? true)))
      // A change naming the workflow applies whatever its channels follow; a global one, where they follow it.
      if (!mine && !followsGlobal) continue
      if (listed) channels = { ...channels, [channel]: value }
      overrides = overrides.map((o) => (o.channel === channel ? { ...o, source: 'subscriber' as const } : o))
    }
    // The workflow a change names is always a new object (`found`), one a global change passes over is kept.
    return mine || channels !== wf.channels ? ((found ||= mine), { ...wf, channels, overrides }) : wf
  })
  if (!all) return found ? { ...prefs, workflows } : prefs
  const global = { ...prefs.global, channels: { ...before }, ...(body.schedule ? { schedule: body.schedule } : {}) }
  for (const [channel, value] of changes) if (channel in before) global.channels[channel] = value
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
  /**
   * Writes an answered update into every cached criticality: the answer lists the non-critical workflows, as
   * the service now holds them; the critical ones, which no choice of the subscriber's reaches, stay as they are
   * (a list of all of them cannot tell which is which: the answer can).
   */
  const fold = (answer: Preferences) =>
    notifyManager.batch(() => {
      const answered = new Map(answer.workflows.map((w) => [w.workflow.identifier, w]))
      for (const q of queryClient.getQueryCache().findAll({ queryKey: all })) {
        const criticality = q.queryKey[3] as Criticality
        const data = q.state.data as Preferences | undefined
        if (data && criticality !== 'critical')
          queryClient.setQueryData(
            q.queryKey,
            criticality === 'nonCritical'
              ? answer
              : {
                  ...data,
                  global: answer.global,
                  workflows: data.workflows.map((w) => answered.get(w.workflow.identifier) ?? w),
                },
          )
      }
    })
  sync.listen((m) => m.t === 'prefs' && fold(m.data as Preferences))
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
              fold(answer)
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
