/**
 * The bench measures inbox-kit as it is published, as it measures the peers: the files `npm run build` writes to
 * dist/ (what the tarball holds), not the sources. An app's bundler does not chunk the two alike. From the
 * sources, Vite split the full inbox's first chunk in four files (the entry, two modules the lazy chunks share
 * with it, and the bundler's runtime); from dist/, one file, as in a fresh app on the tarball (test/package).
 * The bench's apps and pages import the sources (`../../src`), so that the tests that build them need no
 * build first; a bench build given {@link publishedVite} or {@link publishedEsbuild} takes each import of an
 * entry's source to its built file instead.
 */
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin as EsbuildPlugin } from 'esbuild'
import type { Plugin } from 'vite'
import config from '../vite.config'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const DIST = resolve(ROOT, 'dist')

/** Each entry's source file → its built file: `index` is dist/index.js, the stylesheet dist/inbox-kit.css. */
const BUILT = new Map(
  Object.entries((config.build?.lib && config.build.lib.entry) as Record<string, string>).map(([name, source]) => [
    resolve(ROOT, source),
    resolve(DIST, `${name}${source.endsWith('.css') ? '.css' : '.js'}`),
  ]),
)

/**
 * Builds the package into dist/ as `npm pack` does (`npm run build`: a few seconds), declarations included, so
 * that the bench leaves dist/ whole for whoever packs or links it next.
 */
export function buildPackage(): void {
  const built = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
  if (built.status !== 0) throw new Error(`npm run build failed (exit ${built.status})`)
}

/** For Vite: an import that resolves to an entry's source resolves to its built file. */
export function publishedVite(): Plugin {
  return {
    name: 'bench:published',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || importer.startsWith(DIST)) return null
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true })
      return (resolved && BUILT.get(resolved.id)) ?? null
    },
  }
}

/** The same for esbuild. */
export function publishedEsbuild(): EsbuildPlugin {
  return {
    name: 'bench:published',
    setup(build) {
      build.onResolve({ filter: /\/src(\/|$)/ }, async ({ path, importer, resolveDir, kind, pluginData }) => {
        if (pluginData === 'bench:published' || importer.startsWith(DIST)) return undefined
        const resolved = await build.resolve(path, { importer, resolveDir, kind, pluginData: 'bench:published' })
        const to = BUILT.get(resolved.path)
        return to ? { path: to } : undefined
      })
    },
  }
}
