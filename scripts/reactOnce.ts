/**
 * A Vite (Rolldown) plugin: every module under src/ that imports 'react' imports src/react.ts instead, which
 * is the one module that imports React (why: see src/react.ts). `external` says which imports stay outside
 * the bundle; use {@link reactExternal} there so that these do not.
 */
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'

const ONE = fileURLToPath(new URL('../src/react.ts', import.meta.url))
const SRC = fileURLToPath(new URL('../src/', import.meta.url))

/** Whether `importer` is one of the kit's modules whose 'react' import goes through src/react.ts. */
const redirected = (source: string, importer: string | undefined) =>
  source === 'react' && !!importer && importer.startsWith(SRC) && importer !== ONE

export function reactOnce(): Plugin {
  return {
    name: 'inbox-kit:react-once',
    enforce: 'pre',
    resolveId: (source, importer) => (redirected(source, importer) ? ONE : null),
  }
}

/** React and React DOM are external, except the kit's own imports of 'react', which go through src/react.ts. */
export const reactExternal = (id: string, importer: string | undefined): boolean =>
  /^react($|\/)/.test(id) ? !redirected(id, importer) : /^react-dom($|\/)/.test(id)
