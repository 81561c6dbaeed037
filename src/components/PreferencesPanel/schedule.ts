/** "09:30 PM" → "21:30" (the value of an `<input type="time">`); empty when unreadable. */
export function to24h(clock: string | undefined): string {
  const match = /^\s*(\d{1,2}):(\d{2})\s*([AaPp][Mm])\s*$/.exec(clock ?? '')
  if (!match) return ''
  let h = Number(match[1]) % 12
  if (match[3]!.toUpperCase() === 'PM') h += 12
  return `${String(h).padStart(2, '0')}:${match[2]}`
}

/** "21:30" → "09:30 PM", the API's 12-hour clock. */
export function to12h(value: string): string {
  const match = /^(\d{2}):(\d{2})/.exec(value)
  if (!match) return '12:00 AM'
  const h = Number(match[1])
  const suffix = h >= 12 ? 'PM' : 'AM'
  const h12 = h % 12 === 0 ? 12 : h % 12
  return `${String(h12).padStart(2, '0')}:${match[2]} ${suffix}`
}

/** A locale's name for a weekday ("monday" → "Montag" in German). */
export function weekdayName(day: string, locale: string): string {
  const index = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].indexOf(day)
  // 2023-01-01 was a Sunday.
  const date = new Date(Date.UTC(2023, 0, 1 + Math.max(0, index), 12))
  return new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(date)
}

/** A clock time for display in the locale ("21:30" in German, "9:30 PM" in English). */
export function formatClock(clock: string | undefined, locale: string): string {
  const value = to24h(clock)
  if (!value) return clock ?? ''
  const [h, m] = value.split(':').map(Number)
  return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2023, 0, 1, h ?? 0, m ?? 0)),
  )
}
