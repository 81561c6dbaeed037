/**
 * The development warnings as an app's bundler delivers them: it writes the mode in for
 * `process.env.NODE_ENV`, and the browser has no `process` of its own.
 */
import * as esbuild from 'esbuild'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { esbuildOptions } from '../../bench/bundle'
import { servePage } from '../../bench/pages'
import { createInboxProxy } from '../../src/proxy'
import { launchBrowser } from '../support/browser'
import { liveService } from './tabs'

const ENTRY = new URL('../../bench/apps/inbox.tsx', import.meta.url).pathname

let browser: Browser
const dirs: string[] = []

beforeAll(async () => {
  browser = await launchBrowser()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
})

/**
 * The page built as a bundler builds it in `mode`; what its console says while `api` answers its requests (by
 * default the service, which refuses its key).
 */
async function warnings(
  mode: 'development' | 'production',
  api?: (request: Request) => Promise<Response>,
): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'inbox-dev-warning-'))
  dirs.push(dir)
  await esbuild.build({
    ...esbuildOptions(ENTRY),
    minify: mode === 'production',
    define: { 'process.env.NODE_ENV': JSON.stringify(mode) },
    loader: { '.css': 'empty' },
    write: true,
    outdir: dir,
  })
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><html lang="en"><body><div id="root"></div><script type="module" src="/app.js"></script></body></html>',
  )
  // bench/apps/inbox.tsx sends the key "key", which the service does not know: every request gets 401.
  const service = liveService(3, 1)
  const server = await servePage(dir, api ?? ((request) => service.fetch(request)))
  const page = await browser.newPage()
  const said: string[] = []
  page.on('console', (m) => void (m.type() === 'warning' && said.push(m.text())))
  page.on('pageerror', (e) => said.push(`pageerror: ${e.message}`))
  try {
    await page.goto(server.url)
    await page.waitForSelector('.inbox-bell[data-unavailable]')
    // The first look comes with a change of focus (as when the reader comes back to the tab) or after 10 s: room
    // beyond that for a loaded machine.
    if (mode === 'development') {
      await page.waitForLoadState('networkidle')
      await page.evaluate(() => dispatchEvent(new Event('focus')))
      await expect.poll(() => said.length, { timeout: 15_000 }).toBeGreaterThan(0)
    }
    // What would come, has come by now.
    else await page.waitForTimeout(1_000)
    return said
  } finally {
    await page.close()
    await server.close()
  }
}

describe('development warnings in a bundled app', () => {
  it(
    'names the failed request and the likely fix in development, once, and says nothing in production',
    { timeout: 45_000 },
    async () => {
      const dev = await warnings('development')
      expect(dev.filter((t) => t.startsWith('inbox-kit:'))).toEqual([
        expect.stringMatching(
          /^inbox-kit: looking for news failed \(401: .*\) — the service \(or your proxy\) refused the credentials/,
        ),
      ])
      expect(await warnings('production')).toEqual([])
    },
  )

  // An `upstreamUrl` where nothing listens (a wrong port, the service not started): the proxy answers 502.
  it(
    "points at the proxy's upstreamUrl when the proxy gets no answer from the service",
    { timeout: 30_000 },
    async () => {
      const closed = createServer()
      await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done))
      const { port } = closed.address() as AddressInfo
      await new Promise((done) => closed.close(done))
      const proxy = createInboxProxy({
        upstreamUrl: `http://127.0.0.1:${port}`,
        apiKey: 'key',
        basePath: '/api',
        authenticate: () => 'demo-user',
      })
      const dev = await warnings('development', proxy)
      expect(dev.filter((t) => t.startsWith('inbox-kit:'))).toEqual([
        expect.stringMatching(/^inbox-kit: looking for news failed \(502: .*\) — .*check the proxy's `upstreamUrl`/),
      ])
    },
  )
})
