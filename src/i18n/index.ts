import { ar } from './ar'
import { de } from './de'
import { en } from './en'
import { es } from './es'
import { fr } from './fr'
import { ja } from './ja'
import type { InboxLocale, InboxMessages, PluralMessage } from './types'

export type { InboxLocale, InboxMessages, PluralMessage } from './types'
export { en, de, fr, es, ja, ar }

/** The built-in locales by code. */
export const locales: Readonly<Record<InboxLocale, InboxMessages>> = { en, de, fr, es, ja, ar }

/**
 * The built-in strings of a locale: an exact match, then its language ("de-AT" → "de"), then English.
 */
export function baseMessages(locale: string): InboxMessages {
  const lower = locale.toLowerCase()
  const exact = (locales as Record<string, InboxMessages>)[lower]
  if (exact) return exact
  const lang = lower.split(/[-_]/)[0] ?? ''
  return (locales as Record<string, InboxMessages>)[lang] ?? en
}

/** Built-in strings of `locale` with an app's overrides on top. */
export function resolveMessages(locale: string, overrides?: Partial<InboxMessages> | null): InboxMessages {
  const base = baseMessages(locale)
  if (!overrides) return base
  const merged: InboxMessages = { ...base }
  for (const [key, value] of Object.entries(overrides)) {
    if (value !== undefined && value !== null) (merged as unknown as Record<string, unknown>)[key] = value
  }
  return merged
}

/**
 * Fills `{name}` placeholders.
 * @example format('({count}) {title}', { count: 3, title: 'App' }) // "(3) App"
 */
export function format(template: string, vars: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in vars ? String(vars[name]) : whole,
  )
}

const pluralRulesCache = new Map<string, Intl.PluralRules>()

/**
 * Picks the plural form for `count` with `Intl.PluralRules` and fills in `{count}`
 * (with `display` when given, e.g. "99+") and any other placeholders.
 */
export function plural(
  message: PluralMessage | string,
  count: number,
  locale: string,
  vars: Record<string, string | number> = {},
  display?: string,
): string {
  if (typeof message === 'string') return format(message, { count: display ?? count, ...vars })
  let rules = pluralRulesCache.get(locale)
  if (!rules) {
    try {
      rules = new Intl.PluralRules(locale)
    } catch {
      rules = new Intl.PluralRules('en')
    }
    pluralRulesCache.set(locale, rules)
  }
  const category = rules.select(count)
  const template = message[category] ?? message.other
  return format(template, { count: display ?? count, ...vars })
}
