/**
 * Locale-aware formatting for the inbox: relative times, day group labels and counts.
 * React-free; every function takes the clock (`now`) so that it is pure and testable.
 */

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

type Time = string | number | Date | null | undefined

/** Each formatter is made once per locale and options: making one costs far more than using it. */
const formatters = new Map<string, unknown>()

function cached<F>(key: string, make: () => F): F {
  let f = formatters.get(key) as F | undefined
  if (!f) formatters.set(key, (f = make()))
  return f
}

const dtf = (locale: string, options: Intl.DateTimeFormatOptions) =>
  cached(locale + JSON.stringify(options), () => new Intl.DateTimeFormat(locale, options))

/** Parses an API timestamp; `null` when absent or invalid. */
function toTime(value: Time): number | null {
  if (value == null || value === '') return null
  // A Date or a string gives the same time as `getTime()` or `Date.parse` would.
  const t = typeof value === 'number' ? value : +new Date(value)
  return Number.isFinite(t) ? t : null
}

/**
 * "now", "5 minutes ago", "yesterday", "3 weeks ago" in the given locale.
 * @example formatRelativeTime('2026-01-01T10:00:00Z', Date.parse('2026-01-01T10:05:00Z'), 'en') // "5 minutes ago"
 */
export function formatRelativeTime(value: Time, now: number, locale: string, utc?: boolean): string {
  const at = toTime(value)
  if (at === null) return ''
  // A notification is never from the future: a time after `now` is a reader's clock behind the service's ("now",
  // not "in 3 minutes").
  const t = Math.min(at, now)
  const diff = t - now
  const abs = Math.abs(diff)
  // The key of a locale alone (a date formatter's has its options after it).
  const f = cached(locale, () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }))
  if (abs < 45_000) return f.format(0, 'second')
  if (abs < 45 * MINUTE) return f.format(Math.round(diff / MINUTE), 'minute')
  // Calendar days, so that "yesterday" means the previous date, not 24 hours ago; hours all through today.
  const days = calendarDayDiff(t, now, utc)
  if (abs < 22 * HOUR || days === 0) return f.format(Math.round(diff / HOUR), 'hour')
  if (Math.abs(days) < 7) return f.format(days, 'day')
  if (abs < 30 * DAY) return f.format(Math.round(diff / (7 * DAY)), 'week')
  if (abs < 365 * DAY) return f.format(Math.round(diff / (30 * DAY)), 'month')
  return f.format(Math.round(diff / (365 * DAY)), 'year')
}

/** Year, month (0–11) and day of `t`, local or in UTC. */
function ymd(t: number, utc?: boolean): [number, number, number] {
  const d = new Date(t)
  return utc ? [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()] : [d.getFullYear(), d.getMonth(), d.getDate()]
}

/**
 * Calendar day key, e.g. "2026-0-31", local or in UTC (as a server renders, and the browser hydrates what it
 * rendered); items with the same key share a group.
 */
export function dayKey(value: Time, utc?: boolean): string {
  const t = toTime(value)
  return t === null ? '' : ymd(t, utc).join('-')
}

/** Whole calendar days from `now` to `t` (negative in the past). */
function calendarDayDiff(t: number, now: number, utc?: boolean): number {
  return Math.round((Date.UTC(...ymd(t, utc)) - Date.UTC(...ymd(now, utc))) / DAY)
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
export function formatDayLabel(value: Time, now: number, locale: string, labels: DayLabels, utc?: boolean): string {
  const t = toTime(value)
  if (t === null) return ''
  const days = calendarDayDiff(t, now, utc)
  if (days === 0) return labels.today
  if (days === -1) return labels.yesterday
  const timeZone = utc ? 'UTC' : undefined
  return dtf(
    locale,
    ymd(t, utc)[0] === ymd(now, utc)[0]
      ? { weekday: 'long', month: 'long', day: 'numeric', timeZone }
      : { year: 'numeric', month: 'long', day: 'numeric', timeZone },
  ).format(t)
}

/** A full date and time for tooltips and `<time title>`, local or in UTC. */
export function formatDateTime(value: Time, locale: string, utc?: boolean): string {
  const t = toTime(value)
  return t === null
    ? ''
    : dtf(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: utc ? 'UTC' : undefined }).format(t)
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
