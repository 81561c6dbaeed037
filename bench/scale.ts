/**
 * The inbox at 10,000 loaded notifications:
 * - "mark all as read" with the unread list and a list of read items both cached, 10,000 items each, in
 *   process against the reference service: the time to lay the write on its way over the two lists (as each
 *   render while it is on its way does) and to fold the answer into them (as the tab that marked does, and any
 *   other tab hearing of it); median of `--runs`;
 * - the feed of `<Inbox>` (built for production, in Chromium) against 10,000 notifications: the layouts, those
 *   a script forced (Chromium's trace records them with the script's stack) and their time, when the bell is
 *   clicked and the first rows mount; over a fling of the mouse wheel through rows never shown before, with
 *   every page loaded (median of `--runs` flings); and while the window is narrowed in steps (every row in view
 *   measured again); and the time of the render of a small scroll step with every page loaded (median of 40,
 *   most of them mounting no row: the work of a render beside the rows it draws).
 * Run: npx tsx bench/scale.ts [--only=ledger|feed] [--runs=5]; writes bench/results/scale.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { QueryClient } from '@tanstack/react-query'
import type { Browser, Page } from 'playwright-core'
import { createService } from '../server'
import { createInboxClient } from '../src/api/client'
import type { FeedPage } from '../src/api/types'
import { inboxKeys } from '../src/core/keys'
import type { FeedData } from '../src/core/lists'
import { createInboxSync, type Write } from '../src/core/sync'
import { launchBrowser } from '../test/support/browser'
import { buildFixture, messages, TEST_API_KEY, TEST_SUBSCRIBER_ID } from '../test/support/fixtures'
import { freshPage, round } from './browser'
import { buildPage, servePage } from './pages'
import { stats } from './probe'

const ITEMS = 10_000
const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? 5)
const args = process.argv.slice(2)
const only = args.find((a) => a.startsWith('--only='))?.slice(7)

/** Median of `runs` timings of `run` (each on state made afresh by `setUp`), in ms. */
async function timed<T>(setUp: () => Promise<T>, run: (state: T) => unknown, runs = RUNS): Promise<number> {
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const state = await setUp()
    const t = performance.now()
    await run(state)
    samples.push(performance.now() - t)
  }
  return round(stats(samples).median)
}

/** Unread and read items one minute apart in turn, `ITEMS` of each. */
const fixture = () =>
  buildFixture({
    messages: messages(TEST_SUBSCRIBER_ID, 2 * ITEMS, (i) => ({ read: i % 2 === 1, seen: i % 2 === 1 })),
  })

/** A ledger over a QueryClient holding the unread list and the list of read items, every page loaded. */
async function loadedLedger() {
  const service = createService({ fixture: fixture() })
  const client = createInboxClient({
    baseUrl: 'http://inbox.test',
    apiKey: service.apiKey,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
      service.fetch(new Request(String(input), init))) as typeof fetch,
    retry: false,
  })
  const queryClient = new QueryClient()
  const sync = createInboxSync(client, queryClient, TEST_SUBSCRIBER_ID)
  for (const read of [false, true]) {
    const pages: FeedPage[] = []
    for (let page = 0; page * 100 < ITEMS; page++)
      pages.push(await client.getFeed(TEST_SUBSCRIBER_ID, { read, limit: 100, page }))
    queryClient.setQueryData<FeedData>(inboxKeys.feed(TEST_SUBSCRIBER_ID, { read, limit: 100 }), {
      pages,
      pageParams: pages.map((_, i) => i),
    })
  }
  // Made after the lists are cached: it takes them as what the service holds.
  const ledger = await sync.ledger()
  const list = (read: boolean) =>
    queryClient.getQueryData<FeedData>(inboxKeys.feed(TEST_SUBSCRIBER_ID, { read, limit: 100 }))!
  return { ledger, list }
}

async function measureLedger() {
  const markAll: Write = { seq: 1, ids: null, markAs: 'read' }
  const overlayMs = await timed(loadedLedger, ({ ledger, list }) => {
    ledger.list(list(false), { read: false }, [markAll])
    ledger.list(list(true), { read: true }, [markAll])
  })
  const foldMs = await timed(loadedLedger, ({ ledger }) => ledger.receive({ t: 'all', markAs: 'read' }))
  const after = await loadedLedger()
  await after.ledger.receive({ t: 'all', markAs: 'read' })
  const counts = [false, true].map((read) => after.list(read).pages.reduce((n, p) => n + p.data.length, 0))
  return { unreadLoaded: ITEMS, readLoaded: ITEMS, runs: RUNS, overlayMs, foldMs, afterFold: counts }
}

// ------------------------------------------------------------------ the feed in Chromium

const KIT_PAGE = fileURLToPath(new URL('./pages/kit.tsx', import.meta.url))
/** The fling: this far down (about 450 rows) and half of it back up, this fast. */
const SCROLL_DOWN = 40_000
const SCROLL_SPEED = 8_000

/** Layouts in a trace: how many, how many a script forced (recorded with its stack), and their time in ms. */
interface Layouts {
  layouts: number
  forced: number
  layoutMs: number
  forcedMs: number
}

function layouts(trace: Buffer): Layouts {
  const { traceEvents } = JSON.parse(trace.toString('utf8')) as {
    traceEvents: { name: string; ph: string; dur?: number; args?: { beginData?: { stackTrace?: unknown[] } } }[]
  }
  const all = traceEvents.filter((e) => e.name === 'Layout' && e.ph === 'X')
  const forced = all.filter((e) => e.args?.beginData?.stackTrace?.length)
  const ms = (list: typeof all) => round(list.reduce((n, e) => n + (e.dur ?? 0), 0) / 1000)
  return { layouts: all.length, forced: forced.length, layoutMs: ms(all), forcedMs: ms(forced) }
}

async function traced(browser: Browser, page: Page, run: () => Promise<unknown>) {
  await browser.startTracing(page, {
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'disabled-by-default-devtools.timeline.stack',
    ],
  })
  await run()
  return layouts(await browser.stopTracing())
}

async function measureFeed(browser: Browser) {
  const server = await servePage(await buildPage(KIT_PAGE))
  try {
    const service = createService({
      fixture: buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, ITEMS, { read: false, seen: false }) }),
      basePath: '/api',
    })
    server.setApi((request) => service.fetch(request))
    const page = await freshPage(browser, server)
    // tsx keeps function names through a helper that does not exist in the page.
    await page.addInitScript('globalThis.__name = (f) => f')
    const query = new URLSearchParams({
      subscriber: TEST_SUBSCRIBER_ID,
      key: TEST_API_KEY,
      poll: '3600000',
      limit: '100',
    })
    await page.goto(`${server.url}/?${query}`)
    await page.locator('.inbox-bell[data-count]').waitFor()
    await page.waitForTimeout(500)
    // The bell clicked: the popover opens and the feed's first rows mount.
    const open = await traced(browser, page, async () => {
      await page.locator('.inbox-bell').click()
      await page.locator('[data-inbox-item]').first().waitFor()
      await page.waitForTimeout(500)
    })
    const scroller = page.locator('.inbox-feed__scroller')
    // Every page loaded: scrolled to the end until the last item is in.
    for (let stale = 0; stale < 20;) {
      const before = await scroller.evaluate((el) => el.scrollHeight)
      await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
      await page.waitForTimeout(150)
      const last = await page.evaluate(() =>
        Math.max(
          0,
          ...Array.from(document.querySelectorAll('[aria-posinset]'), (e) => Number(e.getAttribute('aria-posinset'))),
        ),
      )
      if (last >= ITEMS) break
      stale = (await scroller.evaluate((el) => el.scrollHeight)) > before ? 0 : stale + 1
    }
    // The render of one scroll step near the end of the loaded items: the scroll event renders the rows of its
    // offset at once (flushSync), so that its handler's time is the render's. Steps of 8 px, most of which mount no
    // row: what a render costs beside the rows it draws. Median of 40 steps, a frame apart.
    const stepMs = await scroller.evaluate(async (el) => {
      el.scrollTo({ top: el.scrollHeight - 20_000 })
      const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
      await frame()
      const samples: number[] = []
      for (let i = 0; i < 40; i++) {
        const t = performance.now()
        el.scrollTop += 8
        el.dispatchEvent(new Event('scroll'))
        samples.push(performance.now() - t)
        await frame()
      }
      samples.sort((a, b) => a - b)
      return samples[samples.length >> 1]!
    })
    // A reader's fling with the mouse wheel, down and back up part of the way, through rows never shown before:
    // RUNS of them, each from a place of its own.
    const box = (await scroller.boundingBox())!
    const cdp = await page.context().newCDPSession(page)
    const flings: Layouts[] = []
    for (let run = 0; run < RUNS; run++) {
      await scroller.evaluate((el, top) => el.scrollTo({ top }), run * 2 * SCROLL_DOWN)
      await page.waitForTimeout(300)
      flings.push(
        await traced(browser, page, async () => {
          for (const yDistance of [-SCROLL_DOWN, SCROLL_DOWN / 2])
            await cdp.send('Input.synthesizeScrollGesture', {
              x: box.x + box.width / 2,
              y: box.y + box.height / 2,
              yDistance,
              speed: SCROLL_SPEED,
              gestureSourceType: 'mouse',
            })
        }),
      )
    }
    const scroll = Object.fromEntries(
      Object.keys(flings[0]!).map((k) => [k, round(stats(flings.map((f) => f[k as keyof Layouts])).median)]),
    ) as unknown as Layouts
    // Every row in view measured again: the window narrowed in steps (the rows' text wraps anew).
    await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }))
    await page.waitForTimeout(300)
    const resize = await traced(browser, page, async () => {
      for (const width of [1200, 1000, 800, 600, 500, 420, 380, 360]) {
        await page.setViewportSize({ width, height: 900 })
        await page.waitForTimeout(100)
      }
    })
    await page.context().close()
    return {
      items: ITEMS,
      open,
      stepMs: round(stepMs),
      flings: RUNS,
      scrollPx: SCROLL_DOWN * 1.5,
      scrollPxPerSecond: SCROLL_SPEED,
      scroll,
      resizeSteps: 8,
      resize,
    }
  } finally {
    await server.close()
  }
}

/**
 * The same figures before the unread items entered a list in one walk and before rows were measured by their
 * ResizeObserver alone (`--runs=1` for the ledger: each took minutes; `--runs=3` for the feed).
 */
const BEFORE = {
  markAll: { overlayMs: 91_180.8, foldMs: 142_728 },
  feed: {
    open: { layouts: 7, forced: 6, layoutMs: 30.7, forcedMs: 30.5 },
    // Before each rendered row's place in the list and the item in the tab order were looked up in a map.
    stepMs: 2,
    scroll: { layouts: 506, forced: 302, layoutMs: 581.6, forcedMs: 538.3 },
    resize: { layouts: 14, forced: 2, layoutMs: 28.1, forcedMs: 10.9 },
  },
}

const results: Record<string, unknown> = { date: new Date().toISOString(), before: BEFORE }
if (only !== 'feed') {
  results.markAll = await measureLedger()
  console.log('mark all, 10,000 unread and 10,000 read loaded:', results.markAll)
}
if (only !== 'ledger') {
  const browser = await launchBrowser()
  try {
    results.feed = await measureFeed(browser)
    console.log('feed of 10,000 in Chromium:', JSON.stringify(results.feed))
  } finally {
    await browser.close()
  }
}
const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'scale.json')
mkdirSync(dirname(out), { recursive: true })
writeFileSync(out, JSON.stringify(results, null, 2) + '\n')
console.log(`Wrote ${out}`)
