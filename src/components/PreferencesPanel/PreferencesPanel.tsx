import type { Part } from '../internal/ui'
import { forwardRef, useId } from 'react'
import type { HTMLAttributes, ReactElement } from 'react'
import { useStore } from 'zustand'
import type { Channel, Schedule, UpdatePreferencesBody, Weekday, WorkflowPreference } from '../../api/types'
import { CHANNELS, WEEKDAYS } from '../../api/types'
import { prefsOf } from '../../core/prefs'
import { usePreferences, useUpdatePreferences } from '../../hooks/usePreferences'
import type { InboxMessages } from '../../i18n/types'
import { LOCK } from '../internal/glyphs'
import { icon } from '../internal/icons'
import { ErrorBanner, Skeleton, StateMessage } from '../internal/parts'
import { useUI, visuallyHidden } from '../internal/ui'
import { Switch } from './Switch'
import { formatClock, to12h, to24h, weekdayName } from './schedule'

/** Props of {@link PreferencesPanel}; the rest lands on its root `<div>`. */
export interface PreferencesPanelProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** Lists the critical workflows, locked. @default true */
  showCritical?: boolean
  /** Shows the weekly delivery schedule. @default true */
  showSchedule?: boolean
  /** Drops the kit's visual rules (when used outside an `<Inbox>`). */
  unstyled?: boolean
}

/**
 * The subscriber's notification preferences: global channel switches, each workflow's channel
 * switches (critical ones locked) and the weekly schedule. Changes show at once and are undone,
 * with a visible message, when the service refuses them.
 * @example <PreferencesPanel showCritical={false} />
 */
export const PreferencesPanel = forwardRef<HTMLDivElement, PreferencesPanelProps>(function PreferencesPanel(
  { showCritical = true, showSchedule = true, unstyled, className, ...rest },
  ref,
): ReactElement {
  const { m, locale, root, c, sync } = useUI('PreferencesPanel', unstyled)
  const prefs = usePreferences()
  const critical = usePreferences({ criticality: 'critical', enabled: showCritical })
  const updater = useUpdatePreferences()
  const updates = useStore(prefsOf(sync).store, (s) => s.updates)
  const readOnly = prefs.readOnly
  const id = useId()

  const toggle = (workflowId: string | undefined, channel: Channel, value: boolean) =>
    void updater.update({ channels: { [channel]: value }, ...(workflowId ? { workflowId } : {}) })
  /** Whether an update of this switch is on its way. */
  const pending = (workflowId: string | undefined, channel: Channel) =>
    updates.some((u: UpdatePreferencesBody) => u.workflowId === workflowId && u.channels?.[channel] !== undefined)

  if (prefs.isLoading) {
    return (
      <div ref={ref} {...root} {...c('inbox-prefs', className)} data-state="loading" {...rest}>
        <Skeleton c={c} label={m.loading} rows={3} lines={2} />
      </div>
    )
  }

  if (!prefs.data) {
    return (
      <div ref={ref} {...root} {...c('inbox-prefs', className)} data-state="error" {...rest}>
        <StateMessage
          c={c}
          state="error"
          title={m.preferencesLoadError}
          action={{ label: m.retry, onClick: () => void prefs.refetch() }}
        />
      </div>
    )
  }

  const data = prefs.data
  const globalChannels = CHANNELS.filter((c) => data.global.channels[c] !== undefined)
  const criticalWorkflows = showCritical ? (critical.data?.workflows ?? []) : []
  const schedule = data.global.schedule
  const lockId = `${id}-lock`
  const saveSchedule = (next: Schedule) => void updater.update({ schedule: next })

  const workflowGroup = (wf: WorkflowPreference, locked: boolean) => {
    const channels = CHANNELS.filter((c) => wf.channels[c] !== undefined)
    const headingId = `${id}-wf-${wf.workflow.identifier}`
    return (
      <div
        key={`${locked ? 'c' : 'n'}:${wf.workflow.identifier}`}
        role="group"
        aria-labelledby={headingId}
        {...c('inbox-prefs__workflow')}
        data-critical={locked ? '' : undefined}
      >
        <div {...c('inbox-prefs__workflow-head')}>
          <h4 id={headingId} {...c('inbox-prefs__workflow-name')}>
            {wf.workflow.name}
          </h4>
          {locked && icon(LOCK, { width: 14, height: 14, ...c('inbox-prefs__lock') })}
        </div>
        {locked && (
          <p {...c('inbox-prefs__hint')} id={`${lockId}-${wf.workflow.identifier}`}>
            {m.criticalLocked}
          </p>
        )}
        <div {...c('inbox-prefs__switches')}>
          {channels.map((ch) => (
            <Switch
              key={ch}
              label={m[`channel_${ch}`]}
              checked={wf.channels[ch] ?? true}
              disabled={locked || readOnly}
              describedBy={locked ? `${lockId}-${wf.workflow.identifier}` : undefined}
              pending={!locked && pending(wf.workflow.identifier, ch)}
              onChange={(v) => toggle(wf.workflow.identifier, ch, v)}
              c={c}
            />
          ))}
        </div>
      </div>
    )
  }

  return (
    <div ref={ref} {...root} {...c('inbox-prefs', className)} data-state="ready" {...rest}>
      {readOnly && <p {...c('inbox-prefs__note')}>{m.preferencesReadOnly}</p>}
      {updater.error && (
        <ErrorBanner c={c} message={m.preferencesSaveError} dismissLabel={m.dismiss} onDismiss={updater.reset} />
      )}
      <section {...c('inbox-prefs__section')} aria-labelledby={`${id}-global`}>
        <h3 id={`${id}-global`} {...c('inbox-prefs__title')}>
          {m.globalPreferencesTitle}
        </h3>
        <p {...c('inbox-prefs__hint')}>{m.globalPreferencesDescription}</p>
        <div {...c('inbox-prefs__switches')}>
          {globalChannels.map((ch) => (
            <Switch
              key={ch}
              label={m[`channel_${ch}`]}
              checked={data.global.channels[ch] ?? true}
              disabled={readOnly}
              pending={pending(undefined, ch)}
              onChange={(v) => toggle(undefined, ch, v)}
              c={c}
            />
          ))}
        </div>
      </section>
      {(data.workflows.length > 0 || criticalWorkflows.length > 0) && (
        <section {...c('inbox-prefs__section')} aria-labelledby={`${id}-workflows`}>
          <h3 id={`${id}-workflows`} {...c('inbox-prefs__title')}>
            {m.workflowPreferencesTitle}
          </h3>
          {data.workflows.map((wf) => workflowGroup(wf, false))}
          {criticalWorkflows.map((wf) => workflowGroup(wf, true))}
        </section>
      )}
      {globalChannels.length === 0 && data.workflows.length === 0 && criticalWorkflows.length === 0 && (
        <p {...c('inbox-prefs__hint')}>{m.preferencesEmpty}</p>
      )}
      {showSchedule && (schedule || !readOnly) && (
        <ScheduleEditor
          schedule={schedule}
          readOnly={readOnly}
          locale={locale}
          labels={m}
          idBase={`${id}-schedule`}
          c={c}
          onChange={saveSchedule}
        />
      )}
    </div>
  )
})

const DEFAULT_HOURS = { start: '09:00 AM', end: '05:00 PM' }

function ScheduleEditor({
  schedule,
  readOnly,
  locale,
  labels: m,
  idBase,
  onChange,
  c,
}: {
  schedule: Schedule | undefined
  readOnly: boolean
  locale: string
  labels: InboxMessages
  idBase: string
  onChange: (next: Schedule) => void
  c: Part
}): ReactElement {
  const enabled = !!schedule?.isEnabled
  const week = schedule?.weeklySchedule ?? {}
  const setDay = (day: Weekday, patch: { isEnabled?: boolean; start?: string; end?: string }) => {
    const current = week[day] ?? { isEnabled: false }
    const hours = current.hours?.[0] ?? DEFAULT_HOURS
    const nextDay = {
      isEnabled: patch.isEnabled ?? current.isEnabled,
      hours: [{ start: patch.start ?? hours.start, end: patch.end ?? hours.end }],
    }
    onChange({ isEnabled: enabled, weeklySchedule: { ...week, [day]: nextDay } })
  }
  return (
    <section {...c('inbox-prefs__section')} aria-labelledby={`${idBase}-title`}>
      <h3 id={`${idBase}-title`} {...c('inbox-prefs__title')}>
        {m.scheduleTitle}
      </h3>
      <p {...c('inbox-prefs__hint')}>{m.scheduleDescription}</p>
      <div {...c('inbox-prefs__switches')}>
        <Switch
          label={m.scheduleEnabled}
          checked={enabled}
          disabled={readOnly}
          onChange={(v) => onChange({ isEnabled: v, weeklySchedule: week })}
          c={c}
        />
      </div>
      {enabled && (
        <ul {...c('inbox-schedule')}>
          {WEEKDAYS.map((day) => {
            const d = week[day]
            const on = !!d?.isEnabled
            const hours = d?.hours?.[0]
            const name = weekdayName(day, locale)
            const dayId = `${idBase}-${day}`
            return (
              <li key={day} {...c('inbox-schedule__day')} data-enabled={on ? '' : undefined}>
                {readOnly ? (
                  <>
                    <span {...c('inbox-schedule__name')}>{name}</span>
                    <span {...c('inbox-schedule__hours')}>
                      {!on
                        ? m.scheduleOff
                        : hours
                          ? `${formatClock(hours.start, locale)} – ${formatClock(hours.end, locale)}`
                          : m.scheduleAllDay}
                    </span>
                  </>
                ) : (
                  <>
                    <label {...c('inbox-schedule__name')}>
                      <input
                        type="checkbox"
                        checked={on}
                        onChange={(e) => setDay(day, { isEnabled: e.currentTarget.checked })}
                      />
                      <span id={dayId}>{name}</span>
                    </label>
                    {on ? (
                      <span {...c('inbox-schedule__hours')}>
                        <label>
                          <span style={visuallyHidden}>{`${name} ${m.scheduleFrom}`}</span>
                          <input
                            type="time"
                            {...c('inbox-input')}
                            value={to24h(hours?.start ?? DEFAULT_HOURS.start)}
                            onChange={(e) =>
                              e.currentTarget.value && setDay(day, { start: to12h(e.currentTarget.value) })
                            }
                          />
                        </label>
                        <span aria-hidden="true">–</span>
                        <label>
                          <span style={visuallyHidden}>{`${name} ${m.scheduleTo}`}</span>
                          <input
                            type="time"
                            {...c('inbox-input')}
                            value={to24h(hours?.end ?? DEFAULT_HOURS.end)}
                            onChange={(e) =>
                              e.currentTarget.value && setDay(day, { end: to12h(e.currentTarget.value) })
                            }
                          />
                        </label>
                      </span>
                    ) : (
                      <span {...c('inbox-schedule__hours')} data-off="">
                        {m.scheduleOff}
                      </span>
                    )}
                  </>
                )}
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
