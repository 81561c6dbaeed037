import { readdirSync, readFileSync } from 'node:fs'
import { join, posix } from 'node:path'

/** One subpath a user can import, as the package's `exports` map lists it (patterns expanded). */
export interface Entry {
  /** What a user writes: `inbox-kit`, `inbox-kit/client`, `inbox-kit/styles.css` … */
  specifier: string
  /** The key in `exports`, e.g. `./client`. */
  subpath: string
  /** Path of its type declarations inside the package, when it has any. */
  types?: string
  /** Path of the file it resolves to at run time, inside the package. */
  file: string
  kind: 'js' | 'css' | 'json'
}

type Target = string | null | { [condition: string]: Target } | Target[]

/** The package's manifest (`package.json` of `dir`). */
function readManifest(dir: string): { name: string; version: string; exports: Record<string, Target> } {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
}

/** The first target an ESM importer gets: conditions in map order, `import` and `default` taken. */
function pick(target: Target, conditions: string[]): string | undefined {
  if (typeof target === 'string') return target
  if (!target) return undefined
  if (Array.isArray(target)) return target.map((t) => pick(t, conditions)).find(Boolean)
  for (const [condition, value] of Object.entries(target)) {
    if (conditions.includes(condition)) {
      const found = pick(value, conditions)
      if (found) return found
    }
  }
  return undefined
}

/** Files of `dir` (recursively, relative to it) that a `prefix*suffix` pattern matches, with what `*` stood for. */
function expand(dir: string, pattern: string): string[] {
  const [prefix, suffix] = pattern.replace(/^\.\//, '').split('*') as [string, string]
  const base = prefix.slice(0, prefix.lastIndexOf('/') + 1)
  const files = readdirSync(join(dir, base), { recursive: true, encoding: 'utf8' }).map((f) => posix.join(base, f))
  return files
    .filter((f) => f.startsWith(prefix) && f.endsWith(suffix) && f.length > prefix.length + suffix.length)
    .map((f) => f.slice(prefix.length, f.length - suffix.length))
}

/**
 * Every entry of the package in `dir` (an unpacked tarball or the repository), read from its `exports`
 * map; a `*` pattern is expanded over the files that exist for its run-time target.
 */
export function listEntries(dir: string): Entry[] {
  const manifest = readManifest(dir)
  const entries: Entry[] = []
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const file = pick(target, ['import', 'default'])
    if (!file) continue
    const types = pick(target, ['types'])
    const typesOnly = types !== file ? types : undefined
    const stars = subpath.includes('*') ? expand(dir, file) : ['']
    for (const star of stars) {
      const fill = (s: string) => s.replace('*', star)
      const sub = fill(subpath)
      const kind = file.endsWith('.css') ? 'css' : file.endsWith('.json') ? 'json' : 'js'
      entries.push({
        specifier: sub === '.' ? manifest.name : `${manifest.name}/${sub.slice(2)}`,
        subpath: sub,
        file: fill(file).replace(/^\.\//, ''),
        kind,
        ...(kind === 'js' && typesOnly ? { types: fill(typesOnly).replace(/^\.\//, '') } : {}),
      })
    }
  }
  return entries
}
