import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { build, preview } from 'vite'
import { devBuild, launchBrowser, startVite } from '../support/browser'

/** The demo (`npm run dev`'s config, its service embedded) on a free port, and a browser to drive it. */
export interface DemoRun {
  url: string
  browser: Browser
  close(): Promise<void>
}

const CONFIG = 'demo/vite.config.ts'

/**
 * The demo's page built by Vite in development mode (React's checks and warnings kept) and served by `vite
 * preview` with the demo's own routes (sign-in, proxy, admin): a page loads in about half the time the dev
 * server's hundred modules take. `{ dev: true }`: `npm run dev`'s dev server itself. `browser`: drive it with
 * one already open (left open on close).
 */
export async function startDemo(options: { dev?: boolean; browser?: Browser } = {}): Promise<DemoRun> {
  const served = async () => {
    if (options.dev) return startVite({ configFile: CONFIG })
    const outDir = mkdtempSync(join(tmpdir(), 'inbox-kit-demo-'))
    await build({ configFile: CONFIG, ...devBuild(outDir) })
    const server = await preview({
      configFile: CONFIG,
      logLevel: 'error',
      build: { outDir },
      preview: { host: '127.0.0.1', port: 0 },
    })
    const address = server.httpServer.address()
    if (!address || typeof address === 'string') throw new Error('vite preview did not report a port')
    const close = () => server.close().finally(() => rmSync(outDir, { recursive: true, force: true }))
    return { server: { close }, url: `http://127.0.0.1:${address.port}` }
  }
  const [{ server, url }, browser] = await Promise.all([served(), options.browser ?? launchBrowser()])
  return {
    url,
    browser,
    close: async () => {
      if (!options.browser) await browser.close()
      await server.close()
    },
  }
}

/** A fresh context (no storage shared with other tests), signed in as `subscriberId`. */
/** A browser context of the size the demo is tried at. */
export const demoContext = (run: DemoRun): Promise<BrowserContext> =>
  run.browser.newContext({ viewport: { width: 1280, height: 860 } })

export async function openDemo(
  run: DemoRun,
  subscriberId: string,
  options: { theme?: 'light' | 'dark'; locale?: string; context?: BrowserContext } = {},
): Promise<Page> {
  const context = options.context ?? (await demoContext(run))
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console error: ${message.text()}`)
  })
  problems.set(page, errors)
  const params = new URLSearchParams({
    subscriber: subscriberId,
    theme: options.theme ?? 'light',
    locale: options.locale ?? 'en',
  })
  await page.goto(`${run.url}/?${params}`)
  await waitForApp(page)
  return page
}

/** Signs in through the demo's route, as the page does, and returns the subscriber token. */
export async function signIn(run: DemoRun, subscriberId: string): Promise<string> {
  const response = await fetch(`${run.url}/demo-auth/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ subscriberId }),
  })
  if (!response.ok) throw new Error(`sign-in failed: ${response.status}`)
  return ((await response.json()) as { token: string }).token
}

/** How many unread messages the service holds for a subscriber, asked through the proxy. */
export async function unreadCount(run: DemoRun, subscriberId: string): Promise<number> {
  const token = await signIn(run, subscriberId)
  const response = await fetch(
    `${run.url}/api/inbox/v1/subscribers/${subscriberId}/notifications/feed?read=false&limit=100`,
    { headers: { authorization: `Bearer ${token}` } },
  )
  return ((await response.json()) as { totalCount: number }).totalCount
}

const problems = new WeakMap<Page, string[]>()

/** Uncaught errors and console errors of a page opened by {@link openDemo}, so far. */
export function pageProblems(page: Page): string[] {
  return problems.get(page) ?? []
}

/** Waits for the bell after a navigation or reload (the first visit may wait for Vite's pre-bundling). */
export async function waitForApp(page: Page): Promise<void> {
  try {
    await bell(page).waitFor({ timeout: 60_000 })
  } catch (error) {
    throw new Error(`The demo did not show its bell: ${pageProblems(page).join('; ') || (error as Error).message}`)
  }
}

/** The inbox's bell button. */
export function bell(page: Page): Locator {
  return page.locator('button[aria-haspopup="dialog"].inbox-bell, button[aria-haspopup="dialog"][data-count]').first()
}

/** The unread count the bell shows (its `data-count`). */
export async function bellCount(page: Page): Promise<number> {
  return Number(await bell(page).getAttribute('data-count'))
}

/** The inbox popover (named "Notifications" in English; the demo has no other dialog). */
export function inboxDialog(page: Page): Locator {
  return page.getByRole('dialog')
}

/** Opens the inbox and waits for its feed to show. */
export async function openInbox(page: Page): Promise<Locator> {
  await bell(page).click()
  const dialog = inboxDialog(page)
  await dialog.waitFor()
  return dialog
}
