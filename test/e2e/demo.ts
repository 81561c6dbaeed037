import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { launchBrowser, startVite } from '../support/browser'

/** The demo's dev server (`npm run dev`'s config) on a free port, and a browser to drive it. */
export interface DemoRun {
  url: string
  browser: Browser
  close(): Promise<void>
}

export async function startDemo(): Promise<DemoRun> {
  const [{ server, url }, browser] = await Promise.all([
    startVite({ configFile: 'demo/vite.config.ts' }),
    launchBrowser(),
  ])
  return {
    url,
    browser,
    close: async () => {
      await browser.close()
      await server.close()
    },
  }
}

/** A fresh context (no storage shared with other tests), signed in as `subscriberId`. */
export async function openDemo(
  run: DemoRun,
  subscriberId: string,
  options: { theme?: 'light' | 'dark'; locale?: string; context?: BrowserContext } = {},
): Promise<Page> {
  const context = options.context ?? (await run.browser.newContext({ viewport: { width: 1280, height: 860 } }))
  const page = await context.newPage()
  const params = new URLSearchParams({ subscriber: subscriberId, theme: options.theme ?? 'light', locale: options.locale ?? 'en' })
  await page.goto(`${run.url}/?${params}`)
  await bell(page).waitFor()
  return page
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
