import { forwardRef, useCallback, useId, useState } from 'react'
import type { HTMLAttributes, ReactElement, ReactNode } from 'react'
import { useStore } from 'zustand'
import type { PreferenceChannels, TimeRange, UpdatePreferencesBody, WorkflowPreference } from '../../api/types'
import { CHANNELS } from '../../api/types'
import { unknownSubscriber } from '../../core/keys'
import { prefsOf } from '../../core/prefs'
import { usePreferences, useUpdatePreferences } from '../../hooks/usePreferences'
import { useFocusKeeper } from '../internal/focus'
import { LOCK } from '../internal/glyphs'
import { icon } from '../internal/icons'
import { ErrorBanner, Skeleton, StateMessage } from '../internal/parts'
import { plain } from '../internal/text'
import { useUI, visuallyHidden } from '../internal/ui'
import { Switch } from './Switch'
import { formatClock, to12h, to24h, weekdayName, weekOf } from './schedule'
import { TimeField } from './TimeField'

/** Props of {@link PreferencesPanel}; the rest lands on its root `<div>`. */
export interface PreferencesPanelProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** Lists the critical workflows, locked. @default true */
  showCritical?: boolean | undefined
  /** Shows the weekly delivery schedule. @default true */
  showSchedule?: boolean | undefined
  /** Drops the kit's visual rules (when used outside an `<Inbox>`). */
  unstyled?: boolean | undefined
}

const DEFAULT_HOURS: TimeRange = { start: '09:00 AM', end: '05:00 PM' }

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
  const { data, readOnly } = prefs
  const id = useId()
  // Inside an inbox (under its h2 heading) its sections are h3; on a page of their own, h2 (workflows one
  // level down). Its own root attributes are there only when it stands alone.
  const alone = 'data-inbox-root' in root
  const level = alone ? 2 : 3
  // Alone, it keeps focus when what had it goes (a Try again replaced by the list, a banner dismissed): to the
  // panel itself, not the page's body. In an inbox, the inbox does.
  const [element, setElement] = useState<HTMLDivElement | null>(null)
  // Set here rather than with the popover root's `useMergedRef`: importing that module from this lazy one moved
  // 0.4 kB into `<Inbox/>`'s first chunk.
  const setRef = useCallback(
    (node: HTMLDivElement | null) => {
      setElement(node)
      if (typeof ref === 'function') ref(node)
      else if (ref) ref.current = node
    },
    [ref],
  )
  useFocusKeeper(alone ? element : null)
  const Title = `h${level}` as 'h3'
  const Sub = `h${level + 1}` as 'h4'
  const update = (body: UpdatePreferencesBody) => void updater.update(body)

  /**
   * The channel switches of the global preferences (no `workflowId`) or of one workflow; `lockHint`, the
   * id of the text that says why, locks them (critical workflows).
   */
  const switches = (channels: PreferenceChannels, workflowId?: string, lockHint?: string) => (
    <div {...c('inbox-prefs__switches')}>
      {CHANNELS.filter((ch) => channels[ch] !== undefined).map((ch) => (
        <Switch
          key={ch}
          label={m[`channel_${ch}`]}
          checked={channels[ch] ?? true}
          disabled={!!lockHint || readOnly}
          describedBy={lockHint}
          // An update of this switch is on its way.
          pending={!lockHint && updates.some((u) => u.workflowId === workflowId && u.channels?.[ch] !== undefined)}
          onChange={(v) => update({ channels: { [ch]: v }, ...(workflowId ? { workflowId } : {}) })}
          c={c}
        />
      ))}
    </div>
  )
  const group = (wf: WorkflowPreference, locked?: boolean) => {
    const { identifier, name } = wf.workflow
    const lockHint = locked ? `${id}-lock-${identifier}` : undefined
    return (
      <div
        key={`${locked ? 'c' : 'n'}:${identifier}`}
        role="group"
        aria-labelledby={`${id}-wf-${identifier}`}
        {...c('inbox-prefs__workflow')}
        data-critical={locked ? '' : undefined}
      >
        <div {...c('inbox-prefs__workflow-head')}>
          <Sub id={`${id}-wf-${identifier}`} {...c('inbox-prefs__workflow-name')}>
            {plain(name)}
          </Sub>
          {locked && icon(LOCK, { width: 14, height: 14, ...c('inbox-prefs__lock') })}
        </div>
        {locked && (
          <p {...c('inbox-prefs__hint')} id={lockHint}>
            {m.criticalLocked}
          </p>
        )}
        {switches(wf.channels, identifier, lockHint)}
      </div>
    )
  }

  /** The root, the same in every state. */
  const frame = (state: string, children: ReactNode) => (
    <div
      ref={setRef}
      tabIndex={alone ? -1 : undefined}
      {...root}
      {...c('inbox-prefs', className)}
      data-state={state}
      {...rest}
    >
      {children}
    </div>
  )
  if (prefs.isLoading) return frame('loading', <Skeleton c={c} label={m.loading} rows={3} lines={2} />)
  // No notification was ever sent to this subscriber: the service has no settings for them yet.
  if (!data && unknownSubscriber(prefs.error))
    return frame('empty', <p {...c('inbox-prefs__hint')}>{m.preferencesEmpty}</p>)
  if (!data)
    return frame(
      'error',
      <StateMessage
        c={c}
        state="error"
        title={m.preferencesLoadError}
        action={{ label: m.retry, onClick: () => void prefs.refetch() }}
      />,
    )
  const { channels, schedule } = data.global
  const groups = [
    ...data.workflows.map((wf) => group(wf)),
    ...((showCritical && critical.data?.workflows) || []).map((wf) => group(wf, true)),
  ]
  const enabled = !!schedule?.isEnabled
  const week = schedule?.weeklySchedule ?? {}
  return frame(
    'ready',
    <>
      {readOnly && <p {...c('inbox-prefs__note')}>{m.preferencesReadOnly}</p>}
      {updater.error && (
        <ErrorBanner c={c} message={m.preferencesSaveError} dismissLabel={m.dismiss} onDismiss={updater.reset} />
      )}
      <section {...c('inbox-prefs__section')} aria-labelledby={`${id}-global`}>
        <Title id={`${id}-global`} {...c('inbox-prefs__title')}>
          {m.globalPreferencesTitle}
        </Title>
        <p {...c('inbox-prefs__hint')}>{m.globalPreferencesDescription}</p>
        {switches(channels)}
      </section>
      {groups.length > 0 && (
        <section {...c('inbox-prefs__section')} aria-labelledby={`${id}-workflows`}>
          <Title id={`${id}-workflows`} {...c('inbox-prefs__title')}>
            {m.workflowPreferencesTitle}
          </Title>
          {groups}
        </section>
      )}
      {!groups.length && !CHANNELS.some((ch) => channels[ch] !== undefined) && (
        <p {...c('inbox-prefs__hint')}>{m.preferencesEmpty}</p>
      )}
      {showSchedule && (schedule || !readOnly) && (
        <section {...c('inbox-prefs__section')} aria-labelledby={`${id}-schedule-title`}>
          <Title id={`${id}-schedule-title`} {...c('inbox-prefs__title')}>
            {m.scheduleTitle}
          </Title>
          <p {...c('inbox-prefs__hint')}>{m.scheduleDescription}</p>
          <div {...c('inbox-prefs__switches')}>
            <Switch
              label={m.scheduleEnabled}
              checked={enabled}
              disabled={readOnly}
              onChange={(v) => update({ schedule: { isEnabled: v, weeklySchedule: week } })}
              c={c}
            />
          </div>
          {enabled && (
            <ul {...c('inbox-schedule')}>
              {weekOf(locale).map((day) => {
                const on = !!week[day]?.isEnabled
                // The first range is edited here; any others (set elsewhere) are shown and kept as they are.
                // Only what is a range: a misbehaving service's `hours: 5` or a hole in the list would throw below.
                const list = week[day]?.hours
                const [hours, ...more] = (Array.isArray(list) ? list : []).filter((h) => h && typeof h === 'object')
                const name = weekdayName(day, locale)
                const range = (h: TimeRange) => `${formatClock(h.start, locale)} – ${formatClock(h.end, locale)}`
                /**
                 * Saves the day, with its hours (the defaults when it has none) and `change` laid over them; refuses
                 * (false) a change that would end the day's hours before they start.
                 */
                const save = (isEnabled: boolean, change?: Partial<TimeRange>) => {
                  const first = { ...(hours ?? DEFAULT_HOURS), ...change }
                  if (change && to24h(first.end) < to24h(first.start)) return false
                  update({
                    schedule: {
                      isEnabled: enabled,
                      weeklySchedule: { ...week, [day]: { isEnabled, hours: [first, ...more] } },
                    },
                  })
                  return true
                }
                /** The day's start or end, empty while it has no hours; each bounds the other. */
                const timeInput = (edge: keyof TimeRange, label: string) => (
                  <label>
                    <span style={visuallyHidden}>{`${name} ${label}`}</span>
                    <TimeField
                      {...c('inbox-input')}
                      value={hours ? to24h(hours[edge]) : ''}
                      {...(hours && (edge === 'start' ? { max: to24h(hours.end) } : { min: to24h(hours.start) }))}
                      onCommit={(value) => save(on, { [edge]: to12h(value) })}
                      refusal={m.scheduleEndBeforeStart}
                    />
                  </label>
                )
                return (
                  <li key={day} {...c('inbox-schedule__day')} data-enabled={on ? '' : undefined}>
                    {readOnly ? (
                      <span {...c('inbox-schedule__name')}>{name}</span>
                    ) : (
                      <label {...c('inbox-schedule__name')}>
                        <input type="checkbox" checked={on} onChange={(e) => save(e.currentTarget.checked)} />
                        <span id={`${id}-schedule-${day}`}>{name}</span>
                      </label>
                    )}
                    <span {...c('inbox-schedule__hours')} data-off={on || readOnly ? undefined : ''}>
                      {!on ? (
                        m.scheduleOff
                      ) : readOnly ? (
                        hours ? (
                          [hours, ...more].map(range).join(', ')
                        ) : (
                          m.scheduleAllDay
                        )
                      ) : (
                        // Shown only while the day is on, so their changes keep it on. A day on without hours is
                        // on all day: said so, and its inputs left empty rather than showing hours it does not have.
                        <>
                          {!hours && <span {...c('inbox-schedule__all-day')}>{m.scheduleAllDay}</span>}
                          {timeInput('start', m.scheduleFrom)}
                          <span aria-hidden="true">–</span>
                          {timeInput('end', m.scheduleTo)}
                          {more.length > 0 && <span {...c('inbox-schedule__more')}>{more.map(range).join(', ')}</span>}
                        </>
                      )}
                    </span>
                  </li>
                )
              })}
            </ul>
          )}
        </section>
      )}
    </>,
  )
})
