/**
 * The development warnings as an app's bundler delivers them: it writes the mode in for
 * `process.env.NODE_ENV`, and the browser has no `process` of its own.
 */
import * as esbuild from 'esbuild'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
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
  {
    nudge = true,
    page: look,
    css = true,
    ready = '.inbox-bell[data-unavailable]',
  }: { nudge?: boolean; page?: (page: Page) => Promise<void>; css?: boolean; ready?: string } = {},
): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'inbox-dev-warning-'))
  dirs.push(dir)
  await esbuild.build({
    ...esbuildOptions(ENTRY),
    minify: mode === 'production',
    define: { 'process.env.NODE_ENV': JSON.stringify(mode) },
    // The kit's stylesheet as app.css beside app.js, linked from the page, or left out.
    loader: { '.css': css ? 'css' : 'empty' },
    write: true,
    outdir: dir,
  })
  await writeFile(
    join(dir, 'index.html'),
    `<!doctype html><html lang="en"><head>${css ? '<link rel="stylesheet" href="/app.css">' : ''}</head><body><div id="root"></div><script type="module" src="/app.js"></script></body></html>`,
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
    await page.waitForSelector(ready)
    // The first look comes with a change of focus (as when the reader comes back to the tab) or after 10 s: room
    // beyond that for a loaded machine.
    if (mode === 'development') {
      await page.waitForLoadState('networkidle')
      if (nudge) await page.evaluate(() => dispatchEvent(new Event('focus')))
      await expect.poll(() => said.length, { timeout: nudge ? 15_000 : 5_000 }).toBeGreaterThan(0)
      await look?.(page)
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
          /^inbox-kit: reading the inbox failed \(401: .*\) — the service \(or your proxy\) refused the credentials/,
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
        expect.stringMatching(/^inbox-kit: reading the inbox failed \(502: .*\) — .*check the proxy's `upstreamUrl`/),
      ])
    },
  )

  // A `baseUrl` with a typo behind a web server that answers unknown paths with its own HTML page (Express's).
  it(
    'points at baseUrl at the first failed read when a web server answers with its own 404 page, whose markup is shown nowhere',
    { timeout: 30_000 },
    async () => {
      const page404 = (request: Request) =>
        Promise.resolve(
          new Response(
            `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Error</title></head><body><pre>Cannot GET ${new URL(request.url).pathname}</pre></body></html>`,
            { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' } },
          ),
        )
      let shown = ''
      const dev = await warnings('development', page404, {
        nudge: false,
        page: async (page) => {
          // The bell says its count is unavailable; nothing of the page's markup reaches the inbox.
          shown = await page.evaluate(() => document.body.innerText + document.querySelector('.inbox-bell')?.outerHTML)
        },
      })
      expect(dev.filter((t) => t.startsWith('inbox-kit:'))).toEqual([
        expect.stringMatching(
          /^inbox-kit: reading the inbox failed \(404: Request failed with status 404\) — there is no inbox route at `baseUrl` /,
        ),
      ])
      expect(shown).not.toMatch(/DOCTYPE|Cannot GET/)
    },
  )

  it("says once that the kit's stylesheet is missing, in development only", { timeout: 45_000 }, async () => {
    const ok = (request: Request) =>
      Promise.resolve(
        request.url.includes('/notifications/feed')
          ? Response.json({ data: [], hasMore: false, page: 0, pageSize: 1, totalCount: 0 })
          : new Response(null, { status: 404 }),
      )
    const missing =
      "inbox-kit: the kit's stylesheet is not on the page: import 'inbox-kit/styles.css' once in your app, or give the components `unstyled` and style them yourself."
    const ready = '.inbox-bell[data-count="0"]:not([data-unavailable])'
    expect(await warnings('development', ok, { css: false, nudge: false, ready })).toEqual([missing])
    expect(await warnings('production', ok, { css: false, ready })).toEqual([])
  })
})
