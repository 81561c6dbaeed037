import { WEEKDAYS, type Weekday } from '../../api/types'

/** "09:30 PM" → "21:30" (the value of an `<input type="time">`); empty when unreadable. */
export function to24h(clock: string | undefined): string {
  const match = /^\s*(1[0-2]|0?\d):([0-5]\d)\s*([AaPp][Mm])\s*$/.exec(clock ?? '')
  return match
    ? `${String((Number(match[1]) % 12) + (/p/i.test(match[3]!) ? 12 : 0)).padStart(2, '0')}:${match[2]}`
    : ''
}

/** "21:30" → "09:30 PM", the API's 12-hour clock. */
export function to12h(value: string): string {
  const match = /^(\d{2}):(\d{2})/.exec(value)
  if (!match) return '12:00 AM'
  const h = Number(match[1])
  return `${String(h % 12 || 12).padStart(2, '0')}:${match[2]} ${h >= 12 ? 'PM' : 'AM'}`
}

/** A locale's name for a weekday ("monday" → "Montag" in German). */
export function weekdayName(day: string, locale: string): string {
  // 2023-01-02 was a Monday, the first of WEEKDAYS; an unknown day gives the Sunday before it.
  return new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(
    Date.UTC(2023, 0, 2 + WEEKDAYS.indexOf(day as Weekday), 12),
  )
}

/** The week as the locale lays it out: from Sunday in the US, Saturday in Egypt; from Monday where the browser cannot tell. */
export function weekOf(locale: string): Weekday[] {
  let first = 1
  try {
    const l = new Intl.Locale(locale) as Intl.Locale &
      Partial<Record<'weekInfo', { firstDay: number }>> & {
        getWeekInfo?(): { firstDay: number }
      }
    first = (l.getWeekInfo?.() ?? l.weekInfo)?.firstDay ?? 1
  } catch {
    // An odd tag: Monday first.
  }
  return [...WEEKDAYS.slice(first - 1), ...WEEKDAYS.slice(0, first - 1)]
}

/** A clock time for display in the locale ("21:30" in German, "9:30 PM" in English). */
export function formatClock(clock: string | undefined, locale: string): string {
  const value = to24h(clock)
  if (!value) return clock ?? ''
  const [h, m] = value.split(':').map(Number)
  return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(
    Date.UTC(2023, 0, 1, h, m),
  )
}
