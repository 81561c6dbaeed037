/**
 * The kit's stylesheet applies only to parts outside `[data-inbox-unstyled]`: each selector of the kit's own
 * CSS (src/) gets {@link SCOPE} on its subject, so parts keep their classes under `unstyled` and lose every
 * rule. `:where()` adds no specificity, so an app's `.inbox-item { … }` wins exactly as it did before.
 * Every Vite build of this repository (library, Storybook, demo, tests, bench) finds this file.
 */
export const SCOPE = ':where(:not([data-inbox-unstyled], [data-inbox-unstyled] *))'

/** Splits at commas outside parentheses and brackets. */
function split(list) {
  const out = []
  let depth = 0
  let start = 0
  for (let i = 0; i < list.length; i++) {
    const ch = list[i]
    if (ch === '(' || ch === '[') depth++
    else if (ch === ')' || ch === ']') depth--
    else if (ch === ',' && depth === 0) {
      out.push(list.slice(start, i))
      start = i + 1
    }
  }
  out.push(list.slice(start))
  return out.map((s) => s.trim())
}

/** Puts the scope on a selector's subject, before its pseudo-element if it has one. */
export function scopeSelector(selector) {
  return split(selector)
    .map((one) => {
      if (one.includes(SCOPE)) return one
      let depth = 0
      for (let i = 0; i < one.length - 1; i++) {
        const ch = one[i]
        if (ch === '(' || ch === '[') depth++
        else if (ch === ')' || ch === ']') depth--
        else if (depth === 0 && ch === ':' && one[i + 1] === ':') return one.slice(0, i) + SCOPE + one.slice(i)
      }
      return one + SCOPE
    })
    .join(',\n')
}

const kitCss = /[\\/]src[\\/](styles|components)[\\/].*\.css$/

/** @type {import('postcss').PluginCreator<void>} */
function scopeToStyled() {
  return {
    postcssPlugin: 'inbox-kit-scope',
    Rule(rule) {
      if (!kitCss.test(rule.source?.input.file ?? '')) return
      if (rule.parent?.type === 'atrule' && /keyframes$/i.test(rule.parent.name)) return
      const scoped = scopeSelector(rule.selector)
      if (scoped !== rule.selector) rule.selector = scoped
    },
  }
}
scopeToStyled.postcss = true

export default { plugins: [scopeToStyled()] }
