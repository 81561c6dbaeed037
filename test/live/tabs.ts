/**
 * Tabs of one browser profile (one Playwright context: they share BroadcastChannel and Web Locks) showing
 * test/live/page against a reference service behind the page's own origin under `/api`. Used by
 * test/live/tabs.test.ts and bench/live.ts.
 */
import { rm } from 'node:fs/promises'
import type { BrowserContext, Page, Request as PwRequest } from 'playwright-core'
import { buildPage, servePage, type PageServer } from '../../bench/pages'
import { createService, type Service } from '../../server'
import { buildFixture, messages, TEST_API_KEY, TEST_SUBSCRIBER_ID } from '../support/fixtures'

const PAGE_ENTRY = new URL('./page/main.tsx', import.meta.url).pathname

/** The page built for production once; `serve` puts it on a loopback port of its own, `service` behind `/api`. */
export async function buildLivePage(): Promise<{
  serve(service: Service): Promise<PageServer>
  remove(): Promise<void>
}> {
  // Under vitest NODE_ENV is 'test', and Vite would compile JSX for React's development build.
  const env = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  const dir = await buildPage(PAGE_ENTRY).finally(() =>
    env === undefined ? delete process.env.NODE_ENV : (process.env.NODE_ENV = env),
  )
  return {
    serve: (service) => servePage(dir, (request) => service.fetch(request)),
    remove: () => rm(dir, { recursive: true, force: true }),
  }
}

/** A service of `total` notifications of the test subscriber, the newest `unread` of them unread and unseen. */
export function liveService(total: number, unread: number): Service {
  return createService({
    basePath: '/api',
    fixture: buildFixture({
      messages: messages(TEST_SUBSCRIBER_ID, total, (i) => ({
        subject: `Notification ${i}`,
        read: i >= unread,
        seen: i >= unread,
      })),
    }),
  })
}

/** Sends one notification to the test subscriber through the service's trigger route. */
export async function trigger(service: Service): Promise<void> {
  const response = await service.fetch(
    new Request('http://service.test/api/v1/events/trigger', {
      method: 'POST',
      headers: { authorization: `ApiKey ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'test-workflow', to: TEST_SUBSCRIBER_ID }),
    }),
  )
  if (response.status !== 201) throw new Error(`trigger answered ${response.status}: ${await response.text()}`)
}

/** The ids of the test subscriber's newest notifications, as the service holds them. */
export async function newestIds(service: Service, limit = 1): Promise<string[]> {
  const response = await service.fetch(
    new Request(`http://service.test/api/v1/subscribers/${TEST_SUBSCRIBER_ID}/notifications/feed?limit=${limit}`, {
      headers: { authorization: `ApiKey ${TEST_API_KEY}` },
    }),
  )
  return ((await response.json()) as { data: { _id: string }[] }).data.map((i) => i._id)
}

/** One request a tab sent to the service: `METHOD path?query`, when (Node's clock) and its response body's bytes. */
interface Sent {
  what: string
  at: number
  bytes: Promise<{ body: number; headers: number } | undefined>
}

export interface Tab {
  page: Page
  /** Every request this tab sent to `/api`, as the browser saw it leave this page. */
  sent: Sent[]
  /** The unread count the tab's bell shows. */
  bell(): Promise<number>
  /** What the page recorded: requests with the page's clock, and each onNotification call's ids. */
  record(): Promise<{ sent: { url: string; at: number }[]; notified: string[][] }>
}

/** A count request of the live loop or of a bell: one item, unread or unseen. */
export const isCount = (what: string) => /[?&]limit=1(&|$)/.test(what) && /[?&](read|seen)=false/.test(what)

/**
 * Opens a tab of the page in `context` and waits until its bell shows a count. `poll`: a fixed period
 * (the page's `pollInterval`), else the adaptive default; `list`: the page shows a feed list too.
 */
export async function openTab(
  context: BrowserContext,
  url: string,
  options: { poll?: number; list?: boolean } = {},
): Promise<Tab> {
  const page = await context.newPage()
  const sent: Sent[] = []
  page.on('request', (r: PwRequest) => {
    const u = new URL(r.url())
    if (!u.pathname.startsWith('/api/')) return
    sent.push({
      what: `${r.method()} ${u.pathname.slice(4)}${decodeURIComponent(u.search)}`,
      at: Date.now(),
      bytes: r
        .response()
        .then(async (response) => {
          await response?.finished()
          const sizes = await r.sizes()
          return { body: sizes.responseBodySize, headers: sizes.responseHeadersSize }
        })
        .catch(() => undefined),
    })
  })
  const query = new URLSearchParams({ subscriber: TEST_SUBSCRIBER_ID, key: TEST_API_KEY })
  if (options.poll !== undefined) query.set('poll', String(options.poll))
  if (options.list) query.set('list', '')
  await page.goto(`${url}/?${query}`)
  await page.locator('.inbox-bell[data-count]').waitFor({ timeout: 60_000 })
  await page.waitForFunction(() => Number(document.querySelector('.inbox-bell')?.getAttribute('data-count')) > 0)
  return {
    page,
    sent,
    bell: async () => Number(await page.locator('.inbox-bell').getAttribute('data-count')),
    record: () =>
      page.evaluate(
        () => (window as unknown as { __live: { sent: { url: string; at: number }[]; notified: string[][] } }).__live,
      ),
  }
}

/** The tabs that sent a count request since `since` (Node's clock). */
export const looking = (tabs: Tab[], since: number) =>
  tabs.filter((t) => t.sent.some((s) => s.at >= since && isCount(s.what)))

/** Waits (polling Node-side) until `check` holds, or throws after `timeout` ms naming `what`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeout = 10_000): Promise<number> {
  const start = Date.now()
  for (;;) {
    if (await check()) return Date.now()
    if (Date.now() - start > timeout) throw new Error(`timed out after ${timeout} ms waiting until ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/**
 * Lets a test set a tab's focus and visibility (headless Chromium has every page focused and visible):
 * `window.__activity(focused, visible)` changes what the page reports and fires the events a browser would.
 */
export async function emulateActivity(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    let focused = true
    let visible = true
    Object.defineProperty(Document.prototype, 'hasFocus', { configurable: true, value: () => focused })
    Object.defineProperty(Document.prototype, 'visibilityState', {
      configurable: true,
      get: () => (visible ? 'visible' : 'hidden'),
    })
    Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => !visible })
    Object.assign(window, {
      __activity(nowFocused: boolean, nowVisible: boolean) {
        ;[focused, visible] = [nowFocused, nowVisible]
        document.dispatchEvent(new Event('visibilitychange'))
        window.dispatchEvent(new Event(focused ? 'focus' : 'blur'))
      },
    })
  })
}

/** Sets a tab's focus and visibility; see {@link emulateActivity}. */
export const setActivity = (tab: Tab, focused: boolean, visible = true) =>
  tab.page.evaluate(([f, v]) => (window as unknown as { __activity(f: boolean, v: boolean): void }).__activity(f, v), [
    focused,
    visible,
  ] as const)
