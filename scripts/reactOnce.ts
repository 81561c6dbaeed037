/**
 * A Vite (Rolldown) plugin: every module under src/ that imports 'react' imports src/react.ts instead, which
 * is the one module that imports React (why: see src/react.ts); 'react/jsx-runtime' likewise src/jsx-runtime.ts. `external` says which imports stay outside
 * the bundle; use {@link reactExternal} there so that these do not.
 */
import { fileURLToPath } from 'node:url'
import type { Plugin as EsbuildPlugin } from 'esbuild'
import type { Plugin } from 'vite'

/** The module each import goes through (the JSX transform adds the imports of the runtime). */
const ONE: Record<string, string> = {
  react: fileURLToPath(new URL('../src/react.ts', import.meta.url)),
  'react/jsx-runtime': fileURLToPath(new URL('../src/jsx-runtime.ts', import.meta.url)),
}
const SRC = fileURLToPath(new URL('../src/', import.meta.url))

/** Where a module of the kit's importing `source` is pointed instead, if anywhere. */
const redirected = (source: string, importer: string | undefined) =>
  importer?.startsWith(SRC) && !Object.values(ONE).includes(importer) ? ONE[source] : undefined

export function reactOnce(): Plugin {
  return {
    name: 'inbox-kit:react-once',
    enforce: 'pre',
    resolveId: (source, importer) => redirected(source, importer) ?? null,
  }
}

/** React and React DOM are external, except the kit's own imports of 'react', which go through src/react.ts. */
export const reactExternal = (id: string, importer: string | undefined): boolean =>
  /^react($|\/)/.test(id) ? !redirected(id, importer) : /^react-dom($|\/)/.test(id)

/** The same for esbuild (the bench's one-file builds, as the issue measured): React stays external or bundled as given. */
export function reactOnceEsbuild(): EsbuildPlugin {
  return {
    name: 'inbox-kit:react-once',
    setup(build) {
      build.onResolve({ filter: /^react(\/jsx-runtime)?$/ }, ({ path, importer }) => {
        const to = redirected(path, importer)
        return to ? { path: to } : undefined
      })
    },
  }
}
