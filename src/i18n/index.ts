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

let nf: [string, Intl.NumberFormat] = ['', undefined as never]

// Languages that do not write numbers in Latin digits by default (CLDR); their counts, and those of locales that
// name a numbering system (`-u-`) or a script, go through Intl.NumberFormat. Any other writes a count under
// 1,000 as it is, for the first NumberFormat of a page costs Chromium some 30 ms, more than the rest of the
// bell's first render. (A set rather than one regular expression: the alternation compiled to some 6 kB of
// machine code on the page's heap.)
const OWN_DIGITS = new Set('ar fa ps ur bn as mr ne sa my dz ckb sd ks mni sat bgc raj bho mzn lrc ff'.split(' '))

const latin = (locale: string) => {
  const [lang, ...tags] = locale.toLowerCase().split('-')
  return !OWN_DIGITS.has(lang!) && !tags.some((t) => t === 'u' || (t.length === 4 && t[0]! > '9'))
}

/**
 * A badge count: locale digits, capped as "99+".
 * @example formatCount(120, 'en') // "99+"
 */
export function formatCount(count: number, locale: string, max = 99, capped = false): string {
  const over = capped || count > max
  const n = over ? max : Math.max(0, count)
  const text =
    n < 1000 && latin(locale)
      ? String(n)
      : (nf[0] === locale ? nf : (nf = [locale, new Intl.NumberFormat(locale)]))[1].format(n)
  return over ? text + '+' : text
}
