import type { Browser, Page, Request as PwRequest } from 'playwright-core'
import { fileURLToPath } from 'node:url'
import { createService } from '../server'
import type { Service, ServiceOptions } from '../server'
import { buildFixture, messages, TEST_API_KEY, TEST_SUBSCRIBER_ID } from '../test/support/fixtures'
import { freshPage, round, type MountTarget } from './browser'
import { buildOneFilePage, buildPage, servePage, type PageServer } from './pages'
import { clickedAt, pageNow, seenAt, stats, watchMore, watchPage } from './probe'

/** The page every inbox-kit browser figure is taken on: the full `<Inbox>`, built for production. */
const KIT_PAGE = fileURLToPath(new URL('./pages/kit.tsx', import.meta.url))

// Counted, not taken: see PEERS (bench/peers.ts).
const BELL_DRAWN = "return document.querySelectorAll('.inbox-bell svg').length > 0"
const BELL_COUNT = "const b = document.querySelector('.inbox-bell'); return b && Number(b.dataset.count) > 0"
const POPOVER = "return document.querySelector('.inbox-popover')"
const FIRST_PAGE = "return document.querySelectorAll('[data-inbox-item]').length > 0"

/** A fixture of `total` notifications for the test subscriber, the newest `unread` of them unread. */
function feedFixture(total: number, unread = total) {
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

/** inbox-kit's scenarios past mount, each on a fresh page against a fresh service on loopback. */
export interface KitBrowserResults {
  longFeed: LongFeed
  optimistic: Optimistic
  requests: Requests
}

type Attempt = <T>(what: string, run: () => Promise<T>) => Promise<T | { error: string }>

/**
 * The kit's page, built for production on the published files (dist/, which must be built: bench/published.ts)
 * and served with a reference service of 50 notifications behind `/api`.
 */
export async function kitPage(oneFile = false): Promise<PageServer> {
  const server = await servePage(await (oneFile ? buildOneFilePage : buildPage)(KIT_PAGE, { published: true }))
  serve(server, 50)
  return server
}

/** The floor (React + React Query + zustand, a bell with a count and nothing else), on the same service. */
const FLOOR_PAGE = fileURLToPath(new URL('./apps/floor.tsx', import.meta.url))

export async function floorPage(oneFile = false): Promise<PageServer> {
  const server = await servePage(await (oneFile ? buildOneFilePage : buildPage)(FLOOR_PAGE))
  serve(server, 50)
  return server
}

export function floorMountTarget(server: PageServer, id = 'floor'): MountTarget {
  return {
    id,
    server,
    path: query(),
    conditions: {
      bellRendered: "return document.querySelector('.floor-bell')",
      bellCount: "const b = document.querySelector('.floor-bell span'); return b && Number(b.dataset.count) > 0",
    },
  }
}

/** The kit's mount loads: closed (bell drawn, bell with count) and open (first page of the feed). */
export function kitMountTargets(server: PageServer): MountTarget[] {
  return [
    {
      id: 'inbox-kit',
      server,
      path: query(),
      conditions: { bellRendered: BELL_DRAWN, bellCount: BELL_COUNT },
      open: { click: '.inbox-bell', conditions: { popoverShown: POPOVER, firstPageShown: FIRST_PAGE } },
    },
    { id: 'inbox-kit open', server, path: query({ open: '' }), conditions: { feedFirstPage: FIRST_PAGE } },
  ]
}

/** Runs the scenarios past mount; one failing leaves the others standing. */
export async function kitScenarios(
  browser: Browser,
  server: PageServer,
  attempt: Attempt,
): Promise<{ [K in keyof KitBrowserResults]: KitBrowserResults[K] | { error: string } }> {
  const longFeed = await attempt('inbox-kit long feed', () => measureLongFeed(browser, server))
  const optimistic = await attempt('inbox-kit optimistic', () => measureOptimistic(browser, server))
  const requests = await attempt('inbox-kit requests', () => countRequests(browser, server))
  return { longFeed, optimistic, requests }
}

/** 10,000 notifications loaded, then scrolled top to bottom. */
interface LongFeed {
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
  for (let stale = 0; stale < 20;) {
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
    Math.max(
      0,
      ...Array.from(document.querySelectorAll('[aria-posinset]'), (el) => Number(el.getAttribute('aria-posinset'))),
    ),
  )
}

/** Click on "Mark as read" to the change in the DOM, with every response 300 ms late. */
interface Optimistic {
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
    const clickAt = await clickedAt(page)
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
interface Requests {
  mount: number
  open: number
  markOne: number
  markAll250: number
  pollNothingNew: number
  pollNothingNewOpen: number
  /** Response bytes (uncompressed bodies) of one poll with the inbox closed: 5 unread of 30. */
  pollBytes: number
  /** The same with 150 unread of 300: the counts read up to a page of 100 each. */
  pollBytesMany: number
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

const POLL = 2000
const POLL_CYCLES = 3

/**
 * Requests per poll interval: after the page has been quiet, counts every `/api` request over
 * {@link POLL_CYCLES} whole intervals (each query polls on its own clock, so one tick's requests need
 * not come together) and divides.
 */
async function countPerPoll(name: string, page: Page): Promise<{ requests: number; bytes: number }> {
  await countUntilQuiet(`${name}:settle`, page, async () => {}, 800)
  delete sent[`${name}:settle`]
  const list: string[] = (sent[name] = [])
  const sizes: Promise<number>[] = []
  const onRequest = (r: PwRequest) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) list.push(describe(r))
  }
  const onFinished = (r: PwRequest) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) sizes.push(r.sizes().then((s) => s.responseBodySize))
  }
  page.on('request', onRequest)
  page.on('requestfinished', onFinished)
  await page.waitForTimeout(POLL * POLL_CYCLES)
  page.off('request', onRequest)
  page.off('requestfinished', onFinished)
  const bytes = (await Promise.all(sizes)).reduce((a, b) => a + b, 0)
  return { requests: Math.round((list.length / POLL_CYCLES) * 10) / 10, bytes: Math.round(bytes / POLL_CYCLES) }
}

/** A page polling every {@link POLL} ms against `total` notifications, `unread` of them unread, once its bell shows. */
async function pollingPage(browser: Browser, server: PageServer, total: number, unread: number): Promise<Page> {
  serve(server, total, unread)
  const page = await freshPage(browser, server)
  await watchPage(page, { bell: BELL_COUNT })
  await page.goto(server.url + query({ poll: String(POLL) }))
  await seenAt(page, 'bell')
  return page
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

  const polling = await pollingPage(browser, server, 30, 5)
  const closed = await countPerPoll('pollNothingNew', polling)
  await polling.locator('.inbox-bell').click()
  await polling.locator('[data-inbox-item]').first().waitFor()
  const opened = await countPerPoll('pollNothingNewOpen', polling)
  await polling.context().close()

  const many = await pollingPage(browser, server, 300, 150)
  const manyUnread = await countPerPoll('pollNothingNew150', many)
  await many.context().close()
  return {
    mount,
    open,
    markOne,
    markAll250,
    pollNothingNew: closed.requests,
    pollNothingNewOpen: opened.requests,
    pollBytes: closed.bytes,
    pollBytesMany: manyUnread.bytes,
    sent: { ...sent },
  }
}
