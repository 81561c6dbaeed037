import type { Browser, Page, Request as PwRequest } from 'playwright-core'
import { fileURLToPath } from 'node:url'
import { createService } from '../server'
import type { Service, ServiceOptions } from '../server'
import { buildFixture, messages, TEST_API_KEY, TEST_SUBSCRIBER_ID } from '../test/support/fixtures'
import { freshPage, medianLoads, round } from './browser'
import { buildPage, servePage, type PageServer } from './pages'
import { pageNow, seenAt, stats, watchMore, watchPage } from './probe'

/** The page every inbox-kit browser figure is taken on: the full `<Inbox>`, built for production. */
export const KIT_PAGE = fileURLToPath(new URL('./pages/kit.tsx', import.meta.url))

const BELL_COUNT = "const b = document.querySelector('.inbox-bell'); return b && Number(b.dataset.count) > 0"
const FIRST_PAGE = "return document.querySelectorAll('[data-inbox-item]').length > 0"

/** A fixture of `total` notifications for the test subscriber, the newest `unread` of them unread. */
export function feedFixture(total: number, unread = total) {
  return buildFixture({
    messages: messages(TEST_SUBSCRIBER_ID, total, (i) => ({
      subject: `Notification ${i}`,
      read: i >= unread,
      seen: i >= unread,
    })),
  })
}

/** Starts a reference service for one scenario and puts it behind the page server's `/api`. */
function serve(server: PageServer, total: number, unread = total, options: ServiceOptions = {}): Service {
  const service = createService({ fixture: feedFixture(total, unread), basePath: '/api', ...options })
  server.setApi((request) => service.fetch(request))
  return service
}

function query(extra: Record<string, string> = {}): string {
  return '/?' + new URLSearchParams({ subscriber: TEST_SUBSCRIBER_ID, key: TEST_API_KEY, ...extra }).toString()
}

/** inbox-kit's browser figures, each on a fresh page against a fresh service on loopback. */
export interface KitBrowserResults {
  mount: { bellCount: number; feedFirstPage: number }
  longFeed: LongFeed
  optimistic: Optimistic
  requests: Requests
}

type Attempt = <T>(what: string, run: () => Promise<T>) => Promise<T | { error: string }>

/** Builds the page once and runs every scenario on it; one failing scenario leaves the others standing. */
export async function kitBrowser(
  browser: Browser,
  attempt: Attempt,
): Promise<{ [K in keyof KitBrowserResults]: KitBrowserResults[K] | { error: string } }> {
  const server = await servePage(await buildPage(KIT_PAGE))
  try {
    const mount = await attempt('inbox-kit mount', async () => {
      serve(server, 50)
      const closed = await medianLoads(browser, server, { bell: BELL_COUNT }, query())
      const open = await medianLoads(browser, server, { feed: FIRST_PAGE }, query({ open: '' }))
      return { bellCount: closed.bell!, feedFirstPage: open.feed! }
    })
    const longFeed = await attempt('inbox-kit long feed', () => measureLongFeed(browser, server))
    const optimistic = await attempt('inbox-kit optimistic', () => measureOptimistic(browser, server))
    const requests = await attempt('inbox-kit requests', () => countRequests(browser, server))
    return { mount, longFeed, optimistic, requests }
  } finally {
    server.setApi(undefined)
    await server.close()
  }
}

/** 10,000 notifications loaded, then scrolled top to bottom. */
export interface LongFeed {
  notifications: number
  loaded: number
  /** Largest number of item rows in the DOM at any point of the scroll. */
  renderedRows: number
  /** Largest number of DOM elements in the document at any point of the scroll. */
  domNodes: number
  frames: number
  frameMs: { median: number; p95: number }
  scrollFrames: number
}

const LONG_FEED = 10_000
/** Frames the top-to-bottom scroll is spread over (a fast fling; every frame shows new rows). */
const SCROLL_FRAMES = 600

async function measureLongFeed(browser: Browser, server: PageServer): Promise<LongFeed> {
  serve(server, LONG_FEED)
  const page = await freshPage(browser, server)
  await watchPage(page, { feed: FIRST_PAGE })
  // Pages of 100 (the API's maximum) only to load the 10,000 sooner; the scroll is what is measured.
  await page.goto(server.url + query({ open: '', poll: '3600000', limit: '100' }))
  await seenAt(page, 'feed')
  const scroller = await scrollerOf(page)
  // Load every page: keep scrolling to the end until no more pages come.
  let loaded = 0
  for (let stale = 0; stale < 20; ) {
    await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
    await page.waitForTimeout(100)
    const now = await maxPosInSet(page)
    if (now > loaded) {
      loaded = now
      stale = 0
    } else stale++
    if (loaded >= LONG_FEED) break
  }
  await scroller.evaluate((el) => el.scrollTo({ top: 0 }))
  await page.waitForTimeout(300)
  const run = await scroller.evaluate(
    (el, frames) =>
      new Promise<{ deltas: number[]; rows: number; nodes: number }>((resolve) => {
        const step = (el.scrollHeight - el.clientHeight) / frames
        const deltas: number[] = []
        let rows = 0
        let nodes = 0
        let last = performance.now()
        let i = 0
        const frame = (t: number) => {
          deltas.push(t - last)
          last = t
          rows = Math.max(rows, document.querySelectorAll('[data-inbox-item]').length)
          nodes = Math.max(nodes, document.getElementsByTagName('*').length)
          if (i++ >= frames) return resolve({ deltas: deltas.slice(1), rows, nodes })
          el.scrollTop = Math.min(el.scrollHeight, step * i)
          requestAnimationFrame(frame)
        }
        requestAnimationFrame((t) => {
          last = t
          requestAnimationFrame(frame)
        })
      }),
    SCROLL_FRAMES,
  )
  await page.context().close()
  const s = stats(run.deltas)
  return {
    notifications: LONG_FEED,
    loaded,
    renderedRows: run.rows,
    domNodes: run.nodes,
    frames: run.deltas.length,
    frameMs: { median: round(s.median), p95: round(s.p95) },
    scrollFrames: SCROLL_FRAMES,
  }
}

/** The feed's scroll container: the nearest scrollable ancestor of the first item. */
async function scrollerOf(page: Page) {
  const handle = await page.evaluateHandle(() => {
    let el: HTMLElement | null = document.querySelector<HTMLElement>('[data-inbox-item]')?.parentElement ?? null
    while (el && !(el.scrollHeight > el.clientHeight && /auto|scroll/.test(getComputedStyle(el).overflowY)))
      el = el.parentElement
    if (!el) throw new Error('no scrollable feed container')
    return el
  })
  return handle.asElement()!
}

/** Highest `aria-posinset` of an item in the DOM: how far into the feed the page has loaded. */
function maxPosInSet(page: Page): Promise<number> {
  return page.evaluate(() =>
    Math.max(0, ...Array.from(document.querySelectorAll('[aria-posinset]'), (el) => Number(el.getAttribute('aria-posinset')))),
  )
}

/** Click on "Mark as read" to the change in the DOM, with every response 300 ms late. */
export interface Optimistic {
  latencyMs: number
  clicks: number
  itemMs: { median: number; max: number }
  badgeMs: { median: number; max: number }
  /** Click to the server's answer as the page saw it, for scale. */
  serverMs: { median: number }
}

const LATENCY = 300
const CLICKS = 5

async function measureOptimistic(browser: Browser, server: PageServer): Promise<Optimistic> {
  serve(server, 30, 30, { latency: LATENCY })
  const page = await freshPage(browser, server)
  await watchPage(page, { feed: FIRST_PAGE, bell: BELL_COUNT })
  await page.addInitScript(() => {
    const g = globalThis as any
    addEventListener('click', () => (g.__clickAt = g.__bench.since()), { capture: true })
  })
  await page.goto(server.url + query({ open: '', poll: '3600000', count: 'unread' }))
  await seenAt(page, 'feed')
  await seenAt(page, 'bell')
  await page.waitForLoadState('networkidle')
  const item: number[] = []
  const badge: number[] = []
  const answer: number[] = []
  for (let i = 0; i < CLICKS; i++) {
    const target = page.locator('[data-inbox-item][data-unread]').first()
    const id = await target.getAttribute('data-id')
    const before = Number(await page.locator('.inbox-bell').getAttribute('data-count'))
    await watchMore(page, {
      [`item${i}`]: `const el = document.querySelector('[data-inbox-item][data-id="${id}"]'); return el && !el.hasAttribute('data-unread')`,
      [`badge${i}`]: `return Number(document.querySelector('.inbox-bell').dataset.count) === ${before - 1}`,
    })
    const response = page.waitForResponse((r) => r.url().includes('/mark-as'))
    await target.getByRole('button', { name: 'Mark as read' }).click()
    await response
    const answeredAt = await pageNow(page)
    const clickAt = Number(await page.evaluate(() => (globalThis as any).__clickAt))
    item.push((await seenAt(page, `item${i}`)) - clickAt)
    badge.push((await seenAt(page, `badge${i}`)) - clickAt)
    answer.push(answeredAt - clickAt)
    await page.waitForLoadState('networkidle')
    await page.waitForTimeout(200)
  }
  await page.context().close()
  const summary = (v: number[]) => ({ median: round(stats(v).median), max: round(Math.max(...v)) })
  return {
    latencyMs: LATENCY,
    clicks: CLICKS,
    itemMs: summary(item),
    badgeMs: summary(badge),
    serverMs: { median: round(stats(answer).median) },
  }
}

/** Requests to the service for each user action, counted at the browser (page.on('request')). */
export interface Requests {
  mount: number
  open: number
  markOne: number
  markAll250: number
  pollNothingNew: number
  pollNothingNewOpen: number
  /** Each action's requests as `METHOD path?query`, in the order sent. */
  sent: Record<string, string[]>
}

const sent: Record<string, string[]> = {}
const describe = (r: PwRequest) => {
  const url = new URL(r.url())
  return `${r.method()} ${url.pathname.slice(4)}${decodeURIComponent(url.search)}`
}

/** Counts `/api` requests from now until none has started for `quietMs`; keeps them under `sent[name]`. */
async function countUntilQuiet(
  name: string,
  page: Page,
  action: () => Promise<unknown>,
  quietMs = 600,
  already: string[] = [],
): Promise<number> {
  const list = (sent[name] = [...already])
  let last = Date.now()
  const onRequest = (r: PwRequest) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) {
      list.push(describe(r))
      last = Date.now()
    }
  }
  page.on('request', onRequest)
  await action()
  last = Date.now()
  while (Date.now() - last < quietMs) await page.waitForTimeout(50)
  page.off('request', onRequest)
  return list.length
}

/** Count of `/api` requests in one poll: waits for the next request to start, then until quiet. */
async function countOnePoll(name: string, page: Page, pollMs: number): Promise<number> {
  const first = await page.waitForRequest((r) => new URL(r.url()).pathname.startsWith('/api/'), { timeout: pollMs * 3 })
  // The first request of the tick has already started: count it, then the rest.
  return countUntilQuiet(name, page, async () => {}, Math.min(600, pollMs / 3), [describe(first)])
}

async function countRequests(browser: Browser, server: PageServer): Promise<Requests> {
  const noPoll = { poll: '3600000' }
  // 251 unread: after marking one, "mark all" has 250 to mark.
  serve(server, 300, 251)
  const page = await freshPage(browser, server)
  await watchPage(page, { bell: BELL_COUNT })
  const mount = await countUntilQuiet('mount', page, async () => {
    await page.goto(server.url + query(noPoll))
    await seenAt(page, 'bell')
  })
  const open = await countUntilQuiet('open', page, async () => {
    await page.locator('.inbox-bell').click()
    await page.locator('[data-inbox-item]').first().waitFor()
  })
  const markOne = await countUntilQuiet('markOne', page, () =>
    page.locator('[data-inbox-item][data-unread]').first().getByRole('button', { name: 'Mark as read' }).click(),
  )
  const markAll250 = await countUntilQuiet('markAll250', page, async () => {
    await page.getByRole('button', { name: 'Mark all as read' }).click()
    await page.locator('[data-inbox-item][data-unread]').first().waitFor({ state: 'detached' })
  })
  await page.context().close()

  const POLL = 2000
  serve(server, 30, 5)
  const polling = await freshPage(browser, server)
  await watchPage(polling, { bell: BELL_COUNT })
  await polling.goto(server.url + query({ poll: String(POLL) }))
  await seenAt(polling, 'bell')
  await polling.waitForTimeout(POLL / 2)
  const pollNothingNew = await countOnePoll('pollNothingNew', polling, POLL)
  await polling.locator('.inbox-bell').click()
  await polling.locator('[data-inbox-item]').first().waitFor()
  await polling.waitForLoadState('networkidle')
  const pollNothingNewOpen = await countOnePoll('pollNothingNewOpen', polling, POLL)
  await polling.context().close()
  return { mount, open, markOne, markAll250, pollNothingNew, pollNothingNewOpen, sent: { ...sent } }
}
