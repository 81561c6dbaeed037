import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { basename, extname, join, normalize } from 'node:path'
import { build, type Rollup } from 'vite'
import * as esbuild from 'esbuild'
import { buildBase, esbuildOptions, type BuildFrom } from './bundle'
import { toNodeHandler } from '../src/proxy/node'

/**
 * Builds `entry` as a production app (React bundled in, as a real app ships it) into a fresh
 * temp dir and writes an index.html that marks `script-start` before the app's script loads.
 * Returns the directory to serve.
 */
export async function buildPage(entry: string, from: BuildFrom = {}): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'inbox-bench-'))
  const result = await build({
    ...buildBase(entry, from),
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap: false,
      reportCompressedSize: false,
      rollupOptions: { input: entry },
    },
  })
  const files = ((Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[]).flatMap((o) => o.output)
  const script = files.find((f) => f.type === 'chunk' && f.isEntry)
  if (!script || script.type !== 'chunk') throw new Error(`no entry chunk built for ${entry}`)
  const styles = files.filter((f) => f.type === 'asset' && f.fileName.endsWith('.css'))
  // The chunks the entry imports, announced up front as Vite does for an HTML entry (else each is found only
  // once the script that imports it has loaded).
  const chunks = new Map(files.flatMap((f) => (f.type === 'chunk' ? [[f.fileName, f] as const] : [])))
  const preloads = new Set<string>()
  const visit = (name: string) => {
    for (const dep of chunks.get(name)?.imports ?? [])
      if (!preloads.has(dep)) {
        preloads.add(dep)
        visit(dep)
      }
  }
  visit(script.fileName)
  const html = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title>',
    "<script>performance.mark('script-start')</script>",
    ...styles.map((s) => `<link rel="stylesheet" href="/${s.fileName}">`),
    `<script type="module" src="/${script.fileName}"></script>`,
    ...[...preloads].map((dep) => `<link rel="modulepreload" href="/${dep}">`),
    '</head><body><div id="root"></div></body></html>',
  ].join('\n')
  await writeFile(join(outDir, 'index.html'), html)
  return outDir
}

/**
 * The same page built by esbuild into one file (React bundled, every lazy chunk inlined), as the issue
 * measured its mount and heap figures.
 */
export async function buildOneFilePage(entry: string, from: BuildFrom = {}): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'inbox-bench-'))
  const result = await esbuild.build({ ...esbuildOptions(entry, from), loader: { '.css': 'css' } })
  const files = result.outputFiles ?? []
  await mkdir(join(outDir, 'assets'))
  for (const file of files) await writeFile(join(outDir, 'assets', basename(file.path)), file.contents)
  const html = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title>',
    "<script>performance.mark('script-start')</script>",
    ...files
      .filter((f) => f.path.endsWith('.css'))
      .map((f) => `<link rel="stylesheet" href="/assets/${basename(f.path)}">`),
    '<script type="module" src="/assets/app.js"></script>',
    '</head><body><div id="root"></div></body></html>',
  ].join('\n')
  await writeFile(join(outDir, 'index.html'), html)
  return outDir
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
}

/** A loopback HTTP server: static files from `dir`, and `/api/*` answered by `api` when given. */
export interface PageServer {
  url: string
  server: Server
  /** Replaces the handler behind `/api` (a fresh service per scenario). */
  setApi(api: ((request: Request) => Promise<Response>) | undefined): void
  close(): Promise<void>
}

/** Serves a built page directory (and the API under `/api`) on a free loopback port. */
export async function servePage(dir: string, api?: (request: Request) => Promise<Response>): Promise<PageServer> {
  let current = api
  const apiHandler = toNodeHandler((request) =>
    current ? current(request) : Promise.resolve(new Response('no service', { status: 503 })),
  )
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (path.startsWith('/api/')) return apiHandler(req, res)
    const file = normalize(join(dir, path === '/' ? 'index.html' : path))
    if (!file.startsWith(dir)) {
      res.statusCode = 403
      return res.end()
    }
    try {
      const body = await readFile(file)
      res.setHeader('content-type', TYPES[extname(file)] ?? 'application/octet-stream')
      res.end(body)
    } catch {
      res.statusCode = 404
      res.end('not found')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  return {
    url: `http://127.0.0.1:${address.port}`,
    server,
    setApi: (next) => {
      current = next
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
