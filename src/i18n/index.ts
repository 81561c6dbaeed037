/**
 * Fills `{name}` placeholders.
 * @example format('({count}) {title}', { count: 3, title: 'App' }) // "(3) App"
 */
export function format(template: string, vars: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole))
}

/**
 * Picks the plural form for `count` with `Intl.PluralRules` and fills in `{count}` (with `display`
 * when given, e.g. "99+") and any other placeholders.
 */
export function plural(
  message: import('./types').PluralMessage | string,
  count: number,
  locale: string,
  vars: Record<string, string | number> = {},
  display?: string,
): string {
  const template = typeof message === 'string' ? message : (message[rules(locale).select(count)] ?? message.other)
  return format(template, { count: display ?? count, ...vars })
}

let cached: [string, Intl.PluralRules] | undefined

function rules(locale: string): Intl.PluralRules {
  if (cached?.[0] !== locale) {
    let r: Intl.PluralRules
    try {
      r = new Intl.PluralRules(locale)
    } catch {
      r = new Intl.PluralRules('en')
    }
    cached = [locale, r]
  }
  return cached[1]
}
