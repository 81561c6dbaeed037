/**
 * Gives every relative import of the emitted declaration files the path Node's own resolution needs:
 * the sources import `./client` or `./i18n` (bundler style), which a consumer compiling with
 * `moduleResolution: node16`/`nodenext` cannot resolve. `./client` becomes `./client.js`, `./i18n`
 * becomes `./i18n/index.js`. A relative import that reaches no declaration file (a stylesheet, say)
 * fails the build, since every consumer's type check would fail on it.
 *
 * Usage: tsx scripts/dts-specifiers.ts [dist]
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"]*)\2/g

function resolved(file: string, specifier: string): string | undefined {
  const base = resolve(dirname(file), specifier.replace(/\.js$/, ''))
  if (existsSync(`${base}.d.ts`)) return specifier.endsWith('.js') ? specifier : `${specifier}.js`
  if (existsSync(join(base, 'index.d.ts'))) return `${specifier.replace(/\/$/, '')}/index.js`
  return undefined
}

const dist = resolve(process.argv[2] ?? 'dist')
const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.d.ts'))
const unresolved: string[] = []
for (const name of files) {
  const file = join(dist, name)
  const text = readFileSync(file, 'utf8')
  const next = text.replace(SPECIFIER, (all, lead: string, quote: string, specifier: string) => {
    const to = resolved(file, specifier)
    if (to === undefined) unresolved.push(`${name}: ${specifier}`)
    return to === undefined ? all : `${lead}${quote}${to}${quote}`
  })
  if (next !== text) writeFileSync(file, next)
}
if (unresolved.length > 0) {
  console.error(`Relative imports in the declarations that reach no declaration file:\n  ${unresolved.join('\n  ')}`)
  process.exit(1)
}
