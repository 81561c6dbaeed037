import { CHANNELS } from '../src/api/types'
import type { Channel, Criticality, Preferences, PreferenceChannels, WorkflowPreference } from '../src/api/types'
import type { Environment } from './store'
import type { SubscriberRecord, WorkflowRecord } from './types'

/** Channels of the workflow's active steps, in the order of CHANNELS. */
function workflowChannels(workflow: WorkflowRecord): Channel[] {
  const used = new Set(workflow.steps.filter((s) => s.active && s.channel !== 'delay').map((s) => s.channel))
  return CHANNELS.filter((c) => used.has(c))
}

/**
 * A channel's value for a subscriber: workflow default → subscriber global → subscriber per workflow,
 * later winning; a critical workflow ignores the subscriber's layers.
 */
function channelPreference(
  workflow: WorkflowRecord,
  sub: SubscriberRecord,
  channel: Channel,
): { enabled: boolean; source: 'subscriber' | 'template' } {
  const template = workflow.preferenceSettings[channel] ?? true
  if (workflow.critical) return { enabled: template, source: 'template' }
  const own = sub.preferences.workflows.get(workflow._id)?.[channel] ?? sub.preferences.channels[channel]
  return own === undefined ? { enabled: template, source: 'template' } : { enabled: own, source: 'subscriber' }
}

/** Whether a delivery on `channel` goes out (for critical workflows only the workflow's default counts). */
export function channelEnabled(workflow: WorkflowRecord, sub: SubscriberRecord, channel: Channel): boolean {
  return channelPreference(workflow, sub, channel).enabled
}

/** The preferences document of GET /v2/subscribers/{id}/preferences. */
export function preferencesOf(env: Environment, sub: SubscriberRecord, criticality: Criticality): Preferences {
  const listed = [...env.workflows.values()].filter(
    (w) => w.active && (criticality === 'all' || (criticality === 'critical' ? w.critical : !w.critical)),
  )
  const workflows: WorkflowPreference[] = listed.map((w) => {
    const channels: PreferenceChannels = {}
    const overrides: WorkflowPreference['overrides'] = []
    for (const channel of workflowChannels(w)) {
      const { enabled, source } = channelPreference(w, sub, channel)
      channels[channel] = enabled
      overrides.push({ channel, source })
    }
    return {
      enabled: true,
      channels,
      overrides,
      workflow: { slug: w.slug, identifier: w.identifier, name: w.name, updatedAt: w.updatedAt },
    }
  })
  const globalChannels: PreferenceChannels = {}
  const used = new Set(listed.filter((w) => !w.critical).flatMap(workflowChannels))
  for (const channel of CHANNELS) {
    if (used.has(channel)) globalChannels[channel] = sub.preferences.channels[channel] ?? true
  }
  return {
    global: {
      enabled: true,
      channels: globalChannels,
      ...(sub.preferences.schedule && { schedule: structuredClone(sub.preferences.schedule) }),
    },
    workflows,
  }
}
