import { describe, expect, it } from 'vitest'
import { formatDayLabel, formatRelativeTime } from '../../src/core/format'
import { formatCount } from '../../src/i18n'
import { plural } from '../../src/i18n'
import { ar } from '../../src/locales/ar'
import { de } from '../../src/locales/de'
import { en } from '../../src/locales/en'
import { es } from '../../src/locales/es'
import { fr } from '../../src/locales/fr'
import { ja } from '../../src/locales/ja'

const locales = { en, de, fr, es, ja, ar }

const now = new Date(2026, 5, 15, 12, 0, 0).getTime()
const labels = { today: 'Today', yesterday: 'Yesterday' }

describe('formatRelativeTime', () => {
  it('speaks in the nearest unit, locale-aware', () => {
    expect(formatRelativeTime(now - 10_000, now, 'en')).toBe('now')
    expect(formatRelativeTime(now - 5 * 60_000, now, 'en')).toBe('5 minutes ago')
    expect(formatRelativeTime(now - 3 * 3_600_000, now, 'en')).toBe('3 hours ago')
    expect(formatRelativeTime(new Date(2026, 5, 14, 9).getTime(), now, 'en')).toBe('yesterday')
    expect(formatRelativeTime(new Date(2026, 5, 11, 9).getTime(), now, 'en')).toBe('4 days ago')
    expect(formatRelativeTime(now - 14 * 86_400_000, now, 'en')).toBe('2 weeks ago')
    expect(formatRelativeTime(now - 3 * 3_600_000, now, 'de')).toBe('vor 3 Stunden')
    expect(formatRelativeTime(now - 5 * 60_000, now, 'ja')).toBe('5 分前')
  })

  it('says "now" of a time after now (the reader\'s clock behind the service\'s), not "in 3 minutes"', () => {
    expect(formatRelativeTime(now + 3 * 60_000, now, 'en')).toBe('now')
    expect(formatRelativeTime(now + 2 * 3_600_000, now, 'de')).toBe('jetzt')
  })

  it('never calls a time of today "yesterday", late in the evening or across a change of clocks', () => {
    const late = new Date(2026, 5, 15, 23, 30).getTime()
    expect(formatRelativeTime(new Date(2026, 5, 15, 0, 30).getTime(), late, 'en')).toBe('23 hours ago')
    expect(formatRelativeTime(new Date(2026, 5, 15, 1, 15).getTime(), late, 'de')).toBe('vor 22 Stunden')
    expect(formatRelativeTime(new Date(2026, 5, 14, 23, 0).getTime(), late, 'en')).toBe('yesterday')
    // Just after midnight, an hour ago is yesterday's date: the relative time stays in hours.
    const early = new Date(2026, 5, 16, 0, 30).getTime()
    expect(formatRelativeTime(new Date(2026, 5, 15, 23, 30).getTime(), early, 'en')).toBe('1 hour ago')
    expect(formatRelativeTime(new Date(2026, 5, 14, 23, 30).getTime(), early, 'en')).toBe('2 days ago')
    // The days of the spring and autumn changes in Europe are 23 and 25 hours long.
    for (const [y, mo, d] of [
      [2026, 2, 29],
      [2026, 9, 25],
    ] as const) {
      const evening = new Date(y, mo, d, 23, 50).getTime()
      expect(formatRelativeTime(new Date(y, mo, d, 0, 10).getTime(), evening, 'en')).toMatch(/hours ago$/)
      expect(formatRelativeTime(new Date(y, mo, d - 1, 12).getTime(), evening, 'en')).toBe('yesterday')
    }
  })

  it('gives nothing for a missing or broken timestamp', () => {
    expect(formatRelativeTime(null, now, 'en')).toBe('')
    expect(formatRelativeTime('not a date', now, 'en')).toBe('')
  })
})

describe('formatDayLabel', () => {
  it('says Today, Yesterday, then the date', () => {
    expect(formatDayLabel(new Date(2026, 5, 15, 0, 1).getTime(), now, 'en', labels)).toBe('Today')
    expect(formatDayLabel(new Date(2026, 5, 14, 23, 59).getTime(), now, 'en', labels)).toBe('Yesterday')
    expect(formatDayLabel(new Date(2026, 5, 10, 8).getTime(), now, 'en', labels)).toBe('Wednesday, June 10')
    expect(formatDayLabel(new Date(2025, 11, 24, 8).getTime(), now, 'en', labels)).toBe('December 24, 2025')
    expect(formatDayLabel(new Date(2026, 5, 10, 8).getTime(), now, 'de', labels)).toBe('Mittwoch, 10. Juni')
  })
})

describe('formatCount', () => {
  it('caps at 99+', () => {
    expect(formatCount(0, 'en')).toBe('0')
    expect(formatCount(99, 'en')).toBe('99')
    expect(formatCount(100, 'en')).toBe('99+')
    expect(formatCount(3, 'en', 99, true)).toBe('99+')
    expect(formatCount(42, 'ar-EG')).toBe(new Intl.NumberFormat('ar-EG').format(42))
    expect(formatCount(1234, 'de', 9999)).toBe('1.234')
  })

  // Below 1,000 most locales take the count as it is, without building an Intl.NumberFormat: it must read
  // as the locale's own formatter writes it, in every language with a locale of its own.
  it('writes what Intl.NumberFormat writes, in every locale this runtime knows', () => {
    const letters = 'abcdefghijklmnopqrstuvwxyz'
    const codes = [...letters].flatMap((a) => [...letters].map((b) => a + b))
    const known = Intl.NumberFormat.supportedLocalesOf([
      ...codes,
      ...['ckb', 'sat', 'mni', 'bgc', 'raj', 'bho', 'mzn', 'lrc', 'fil', 'haw', 'yue', 'chr', 'ast', 'kok', 'brx'],
      ...['ar-MA', 'ar-EG', 'ur-IN', 'pa-Arab', 'uz-Arab', 'ff-Adlm', 'en-u-nu-arab', 'sr-Latn', 'zh-Hant'],
    ])
    expect(known.length).toBeGreaterThan(150)
    for (const locale of known) {
      const nf = new Intl.NumberFormat(locale)
      for (const n of [0, 7, 42, 99, 999]) expect(formatCount(n, locale, 9999), `${n} in ${locale}`).toBe(nf.format(n))
      expect(formatCount(120, locale), `120 in ${locale}`).toBe(`${nf.format(99)}+`)
    }
  })
})

describe('i18n', () => {
  it('has every string in every locale', () => {
    for (const [code, messages] of Object.entries(locales)) {
      expect(Object.keys(messages).sort(), code).toEqual(Object.keys(en).sort())
      for (const value of Object.values(messages)) {
        if (typeof value === 'object') expect((value as { other: string }).other, code).toBeTruthy()
        else expect(value, code).toBeTruthy()
      }
    }
  })

  it('chooses plural forms with Intl.PluralRules', () => {
    expect(plural(en.newNotifications, 1, 'en')).toBe('1 new notification')
    expect(plural(en.newNotifications, 4, 'en')).toBe('4 new notifications')
    expect(plural(locales.ar.newNotifications, 2, 'ar')).toBe('إشعاران جديدان')
    expect(plural(locales.ar.newNotifications, 5, 'ar')).toBe('5 إشعارات جديدة')
    expect(plural(locales.fr.newNotifications, 2, 'fr')).toBe('2 nouvelles notifications')
    expect(plural(en.bellLabelUnseen, 120, 'en', {}, '99+')).toBe('Notifications, 99+ unseen')
  })

  it('has a form for every plural category each language selects, or leaves it to `other` for a reason', () => {
    /** What a message leaves to its `other` form on purpose: locales, categories, messages (`*`: every one), why. */
    const FALLS_BACK: [string[], string[], string[], string][] = [
      [
        ['ar'],
        ['zero'],
        ['*'],
        'no count of 0 is ever said: the bell and a trigger say their name alone, a thread has others and unread ' +
          'items when its buttons show, and new notifications are told from one up',
      ],
      [
        ['ar'],
        ['one', 'two', 'few', 'many'],
        ['triggerUnseen', 'triggerUnread', 'threadMore', 'threadMarkRead'],
        'no noun is counted, so one wording reads right for every number',
      ],
      [
        ['fr', 'es'],
        ['many'],
        ['bellLabelUnseen', 'bellLabelUnread', 'triggerUnseen', 'triggerUnread'],
        'the number said is at most 99 (99+ is said as 99), and many is for millions',
      ],
      [['fr', 'es'], ['many'], ['threadMore', 'threadMarkRead'], 'no noun is counted, so no "de" before one'],
    ]
    const missing: string[] = []
    const used = new Set<number>()
    for (const [code, messages] of Object.entries(locales)) {
      const rules = new Intl.PluralRules(code)
      const selected = new Set([...Array.from({ length: 1001 }, (_, n) => rules.select(n)), rules.select(1e6)])
      for (const [key, message] of Object.entries(messages)) {
        if (typeof message !== 'object') continue
        for (const category of selected) {
          if (category in message) continue
          const why = FALLS_BACK.findIndex(
            ([codes, categories, keys]) =>
              codes.includes(code) && categories.includes(category) && (keys.includes('*') || keys.includes(key)),
          )
          if (why < 0) missing.push(`${code} ${key} ${category}`)
          else used.add(why)
        }
      }
    }
    expect(missing).toEqual([])
    // No reason is kept for a form that is there.
    expect(FALLS_BACK.filter((_, i) => !used.has(i))).toEqual([])
    expect(plural(fr.newNotifications, 1e6, 'fr')).toBe('1000000 de nouvelles notifications')
    expect(plural(es.newNotifications, 2e6, 'es')).toBe('2000000 de notificaciones nuevas')
  })

  it('each locale names its language and direction', () => {
    for (const [code, messages] of Object.entries(locales)) expect(messages.lang, code).toBe(code)
    expect(ar.dir).toBe('rtl')
    expect(de.dir).toBe('ltr')
  })
})
