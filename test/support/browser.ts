import react from '@vitejs/plugin-react'
import { chromium, type Browser, type Page } from 'playwright-core'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, createServer, type InlineConfig, type ViteDevServer } from 'vite'
import { serveStatic } from '../stories/staticServer'
import { afterAll, beforeAll } from 'vitest'

/** The flags Debian's chromium needs here: headless, as root, with no network beyond loopback. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
}

/** Resolves once every animation and transition of the page that ends has ended (a spinner's goes on). */
export const animationsDone = (page: Page): Promise<unknown> =>
  page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => {})),
    ),
  )

/**
 * Starts a Vite dev server on a free loopback port; the caller closes it. Each server of a test page has a
 * dependency cache of its own: test files run three at once, and servers of different roots sharing
 * `node_modules/.vite` would each optimize it again for their own config, under the other's pages.
 */
export async function startVite(config: InlineConfig): Promise<{ server: ViteDevServer; url: string }> {
  // Not for the demo's config, whose server lets the browser reach only the folders it names.
  const cacheDir = config.root ? mkdtempSync(join(tmpdir(), 'inbox-kit-vite-')) : undefined
  const server = await createServer({
    logLevel: 'error',
    ...(cacheDir && { cacheDir }),
    ...config,
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, ...config.server },
  })
  const close = server.close.bind(server)
  if (cacheDir) server.close = () => close().finally(() => rmSync(cacheDir, { recursive: true, force: true }))
  await server.listen()
  const address = server.httpServer?.address()
  if (!address || typeof address === 'string') throw new Error('Vite did not report a port')
  return { server, url: `http://127.0.0.1:${address.port}` }
}

/** A build of a test page in development mode (React's checks and warnings kept) into `outDir`, unminified. */
export const devBuild = (outDir: string): InlineConfig => ({
  mode: 'development',
  logLevel: 'error',
  define: { 'process.env.NODE_ENV': '"development"' },
  build: { outDir, emptyOutDir: true, minify: false, sourcemap: false, reportCompressedSize: false },
})

/**
 * The page in `root` built by Vite in development mode (React's checks and warnings kept; the kit's lazy parts in
 * chunks of their own, as an app's build has them) and served as plain files on a free loopback port. Built once
 * (under a second), a page then loads in a fraction of the time a dev server's hundred modules take.
 */
export async function buildPage(root: string): Promise<{ url: string; close: () => Promise<void> }> {
  const outDir = mkdtempSync(join(tmpdir(), 'inbox-kit-page-'))
  await build({ root, configFile: false, plugins: [react()], ...devBuild(outDir) })
  const site = await serveStatic(outDir)
  return {
    url: site.url,
    close: () => site.close().finally(() => rmSync(outDir, { recursive: true, force: true })),
  }
}

/**
 * For a test file: before its tests, the page in `dir` built and served ({@link buildPage}) and Chromium, handed
 * to `ready`; after them, both closed.
 */
export function servePage(dir: URL, ready: (url: string, browser: Browser) => void): void {
  let close = async () => {}
  beforeAll(async () => {
    const [site, browser] = await Promise.all([buildPage(fileURLToPath(dir)), launchBrowser()])
    close = async () => {
      await browser.close()
      await site.close()
    }
    ready(site.url, browser)
  }, 90_000)
  afterAll(() => close())
}
