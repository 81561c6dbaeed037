import { gzipSync } from 'node:zlib'
import { dirname } from 'node:path'
import react from '@vitejs/plugin-react'
import { build, type InlineConfig, type Rollup } from 'vite'
import * as esbuild from 'esbuild'
import { reactExternal, reactOnce, reactOnceEsbuild } from '../scripts/reactOnce'
import { publishedEsbuild, publishedVite } from './published'

/** How the kit is taken: `published` builds on dist/ ({@link publishedVite}), else on the sources. */
export interface BuildFrom {
  published?: boolean
}

/** What a tiny app costs the page that loads it, React itself excluded. */
export interface BundleCost {
  /** Minified bytes of what loads before the app renders: the entry's static JS graph plus CSS. */
  min: number
  /** Gzip (level 9) bytes of the same, each file compressed on its own as a browser fetches it. */
  gzip: number
  js: Size
  css: Size
  /** Chunks loaded only through a dynamic `import()`; not counted in `min`/`gzip`. */
  lazy: Size
  /**
   * What the initial JS is made of: bytes per npm package or per `src/<area>`, after tree-shaking and
   * before minification (so shares, not exact minified sizes). Largest first.
   */
  breakdown: Record<string, number>
  /** The same for the lazy chunks. */
  lazyBreakdown: Record<string, number>
}

/** The package (or `src/<area>`, `src/components/<Name>`) a module id belongs to. */
function ownerOf(id: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id)
  if (pkg) return pkg[1]!
  // Components one by one (which of them a page loads first is the point of the split), other areas whole; the
  // published files (dist/) are laid out as the sources are, and named as them.
  const area = /\/(?:src|dist)\/(components\/[^/]+|[^/]+)/.exec(id)
  return area ? `src/${area[1]!.replace(/\.js$/, '.ts')}` : 'app'
}

/** Minified and gzip bytes. */
export interface Size {
  min: number
  gzip: number
}

const size = (): Size => ({ min: 0, gzip: 0 })
const gz = (text: string | Uint8Array) => gzipSync(text, { level: 9 }).length
const bytes = (text: string | Uint8Array) => (typeof text === 'string' ? Buffer.byteLength(text) : text.length)

/** What every bench build shares: no project config, the React plugin, production mode. */
export function buildBase(entry: string, { published = false }: BuildFrom = {}): InlineConfig {
  return {
    configFile: false,
    logLevel: 'silent',
    root: dirname(entry),
    // As the library is built (src/react.ts).
    plugins: [react(), reactOnce(), ...(published ? [publishedVite()] : [])],
    // Vite leaves process.env alone in library mode; the peers' dev-only branches must drop out.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  }
}

/**
 * Builds `entry` (a module that renders an app) with Vite as a production ES bundle, in memory,
 * and measures its JS and CSS. Every kit goes through this same function so the bundler and its
 * settings are equal for all.
 */
export async function measureBundle(entry: string, from: BuildFrom = {}): Promise<BundleCost> {
  // Under Vitest NODE_ENV is `test`, which makes the React plugin emit its development JSX: build as production.
  const env = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  const result = await build({
    ...buildBase(entry, from),
    build: {
      write: false,
      minify: true,
      cssMinify: true,
      sourcemap: false,
      reportCompressedSize: false,
      // Built as an app's entry, not in library mode: Vite's library mode keeps the whitespace and comments of
      // an ES build (for the next bundler), with every module's path in a comment, so sizes grew with the
      // depth of the folder the build ran from. Code the lazy chunks share stays in the entry, as in an app.
      // The host app provides React; every kit is measured without it.
      rollupOptions: { input: entry, external: reactExternal, preserveEntrySignatures: 'allow-extension' },
    },
  }).finally(() => {
    // Assigning undefined would leave the string "undefined", and later page builds in development JSX.
    if (env === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = env
  })
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[]
  const files = outputs.flatMap((output) => output.output)
  const chunks = new Map(files.flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file] as const] : [])))
  const initial = new Set<string>()
  const visit = (name: string) => {
    const chunk = chunks.get(name)
    if (!chunk || initial.has(name)) return
    initial.add(name)
    chunk.imports.forEach(visit)
  }
  for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName)

  const cost: BundleCost = {
    min: 0,
    gzip: 0,
    js: size(),
    css: size(),
    lazy: size(),
    breakdown: {},
    lazyBreakdown: {},
  }
  const owners = (names: Iterable<string>) => {
    const out: Record<string, number> = {}
    for (const name of names)
      for (const [id, info] of Object.entries(chunks.get(name)!.modules))
        out[ownerOf(id)] = (out[ownerOf(id)] ?? 0) + info.renderedLength
    return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1]))
  }
  cost.breakdown = owners(initial)
  cost.lazyBreakdown = owners([...chunks.keys()].filter((name) => !initial.has(name)))
  for (const file of files) {
    const text = file.type === 'chunk' ? file.code : file.source
    const part =
      file.type === 'chunk'
        ? initial.has(file.fileName)
          ? cost.js
          : cost.lazy
        : file.fileName.endsWith('.css')
          ? cost.css
          : undefined
    if (!part) continue
    part.min += bytes(text)
    part.gzip += gz(text)
  }
  cost.min = cost.js.min + cost.css.min
  cost.gzip = cost.js.gzip + cost.css.gzip
  return cost
}

/** esbuild's options for a one-file production build of an app: what the issue measured its figures with. */
export function esbuildOptions(entry: string, { published = false }: BuildFrom = {}): esbuild.BuildOptions {
  return {
    entryPoints: { app: entry },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    outdir: 'out',
    define: { 'process.env.NODE_ENV': '"production"' },
    jsx: 'automatic',
    legalComments: 'none',
    logLevel: 'silent',
    plugins: [reactOnceEsbuild(), ...(published ? [publishedEsbuild()] : [])],
  }
}

/**
 * The JS of an app built by esbuild into one file (every lazy chunk inlined), React external, minified and
 * gzipped: the measure, beside the Vite one above, which keeps what loads later apart.
 */
export async function measureEsbuild(entry: string, from: BuildFrom = {}): Promise<Size> {
  const result = await esbuild.build({
    ...esbuildOptions(entry, from),
    external: ['react', 'react-dom', 'react/*', 'react-dom/*'],
    loader: { '.css': 'empty' },
  })
  const js = (result.outputFiles ?? []).filter((f) => f.path.endsWith('.js'))
  return { min: js.reduce((n, f) => n + f.contents.length, 0), gzip: js.reduce((n, f) => n + gz(f.contents), 0) }
}
