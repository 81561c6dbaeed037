/**
 * Locale-aware formatting for the inbox: relative times, day group labels and counts.
 * React-free; every function takes the clock (`now`) so that it is pure and testable.
 */

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

const rtfCache = new Map<string, Intl.RelativeTimeFormat>()
const dtfCache = new Map<string, Intl.DateTimeFormat>()

function rtf(locale: string): Intl.RelativeTimeFormat {
  let f = rtfCache.get(locale)
  if (!f) {
    f = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'long' })
    rtfCache.set(locale, f)
  }
  return f
}

function dtf(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`
  let f = dtfCache.get(key)
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options)
    dtfCache.set(key, f)
  }
  return f
}

/** Parses an API timestamp; `null` when absent or invalid. */
function toTime(value: string | number | Date | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null
  const t = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value)
  return Number.isFinite(t) ? t : null
}

/**
 * "now", "5 minutes ago", "yesterday", "3 weeks ago" in the given locale.
 * @example formatRelativeTime('2026-01-01T10:00:00Z', Date.parse('2026-01-01T10:05:00Z'), 'en') // "5 minutes ago"
 */
export function formatRelativeTime(
  value: string | number | Date | null | undefined,
  now: number,
  locale: string,
): string {
  const t = toTime(value)
  if (t === null) return ''
  const diff = t - now
  const abs = Math.abs(diff)
  const f = rtf(locale)
  if (abs < 45 * SECOND) return f.format(0, 'second')
  if (abs < 45 * MINUTE) return f.format(Math.round(diff / MINUTE), 'minute')
  if (abs < 22 * HOUR) return f.format(Math.round(diff / HOUR), 'hour')
  // Calendar days, so that "yesterday" means the previous date, not 24 hours ago.
  const days = calendarDayDiff(t, now)
  if (Math.abs(days) < 7) return f.format(days === 0 ? Math.sign(diff) : days, 'day')
  if (abs < 30 * DAY) return f.format(Math.round(diff / (7 * DAY)), 'week')
  if (abs < 365 * DAY) return f.format(Math.round(diff / (30 * DAY)), 'month')
  return f.format(Math.round(diff / (365 * DAY)), 'year')
}

/** Local calendar day key, e.g. "2026-01-31"; items with the same key share a group. */
export function dayKey(value: string | number | Date | null | undefined): string {
  const t = toTime(value)
  if (t === null) return ''
  const d = new Date(t)
  return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`
}

function startOfDay(t: number): number {
  const d = new Date(t)
  d.setHours(0, 0, 0, 0)
  return d.getTime()
}

/** Whole local calendar days from `now` to `t` (negative in the past). */
function calendarDayDiff(t: number, now: number): number {
  return Math.round((startOfDay(t) - startOfDay(now)) / DAY)
}

/** Labels used by {@link formatDayLabel} for the two nearest days. */
export interface DayLabels {
  today: string
  yesterday: string
}

/**
 * The label of a day group: "Today", "Yesterday", then a locale-aware date
 * ("Monday, January 5"; the year is added outside the current year).
 */
export function formatDayLabel(
  value: string | number | Date | null | undefined,
  now: number,
  locale: string,
  labels: DayLabels,
): string {
  const t = toTime(value)
  if (t === null) return ''
  const days = calendarDayDiff(t, now)
  if (days === 0) return labels.today
  if (days === -1) return labels.yesterday
  const sameYear = new Date(t).getFullYear() === new Date(now).getFullYear()
  return dtf(
    locale,
    sameYear ? { weekday: 'long', month: 'long', day: 'numeric' } : { year: 'numeric', month: 'long', day: 'numeric' },
  ).format(t)
}

/** A full date and time for tooltips and `<time title>`. */
export function formatDateTime(value: string | number | Date | null | undefined, locale: string): string {
  const t = toTime(value)
  if (t === null) return ''
  return dtf(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(t)
}

/**
 * Builds the formatters a row uses (relative time, date and time), so that the first opening does not pay
 * for them: some 30 ms in Chromium the first time a page makes one.
 */
export function warmFormats(locale: string): void {
  const now = Date.now()
  formatRelativeTime(now, now, locale)
  formatDateTime(now, locale)
}
