/**
 * Drives the consistency page (test/consistency/page) in Chromium: seeded, human-fast actions on the
 * real `<Inbox>` while its writes are slow and a quarter of them fail for good, then the checks — no
 * frame where the bell, the Unread tab and the list disagree, a final state equal to the service's, and
 * every failed write told. Shared by the test (a few seeds) and `npm run bench` (many).
 */
import type { Browser, Page } from 'playwright-core'
import type { Click, Disagreement } from './page/sampler'
import type { SeenWrite } from './page/forwarder'
import { random } from './page/forwarder'

const ITEMS = 40
/** Tall enough for the popover to hold all 40 rows in view (the feed renders only rows in view). */
const VIEWPORT = { width: 960, height: 4900 }

export interface SeedOptions {
  seed: number
  /** Actions after the first rows show. @default 30 */
  actions?: number
  /** Pause between actions, ms. @default [150, 400] */
  interval?: [number, number]
  /** ms per mark-as. @default 300 */
  latency?: number
  /** Share of writes that fail for good. @default 0.25 */
  fail?: number
  /** ms per read of a count. @default 30, as every read */
  countRead?: number
  /** `popover`: the popover at its own size in a 960 × 900 view (rows out of view are not rendered). @default 'tall' */
  layout?: 'tall' | 'popover'
}

export interface SeedReport {
  seed: number
  actions: string[]
  frames: number
  /** Frames where the whole list was in the DOM (the ones the rows are checked in). */
  listFrames: number
  commits: number
  /** Painted frames where the bell, the tab and the list disagreed. */
  disagreements: Disagreement[]
  /** DOM commits that disagreed but were not painted (another commit followed before the frame). */
  commitDisagreements: Disagreement[]
  writes: number
  /** Writes the forwarder failed for good. */
  failuresInjected: number
  /** Of those, told in the live region or on a row with `data-failed`. */
  failuresTold: number
  untold: SeenWrite[]
  /** What the page shows after everything settled, against what the service holds. */
  finalMismatches: string[]
  toggles: Click[]
}

type Item = { id: string; read: boolean; seen: boolean }
const UPDATE_ERROR = 'The change couldn’t be saved.'
/** The alert of a failed "mark all" (followed by its Dismiss button's name). */
const MARK_ALL_ERROR = 'Not all notifications could be marked as read.'
/** A failed write counts as told when the live region speaks within this long after its last answer. */
const TELL_WITHIN = 1500

interface PageState {
  sampler: {
    counts: { frames: number; commits: number; listFrames: number }
    disagreements: Disagreement[]
    clicks: Click[]
    announcements: { t: number; text: string }[]
    failedSpans: { id: string; from: number; to: number | null }[]
  }
  writes: SeenWrite[]
  quiet: { inFlight: number; idleMs: number }
}

const state = (page: Page) =>
  page.evaluate(() => {
    const c = (window as any).__consistency
    return { sampler: c.sampler, writes: c.forwarder.writes(), quiet: c.forwarder.quiet() } as PageState
  })

/** Waits until no request has been on its way for `quietMs` and no row is pending. */
export async function settle(page: Page, quietMs = 1200, timeout = 30_000): Promise<void> {
  await page.waitForFunction(
    (quiet) => {
      const c = (window as any).__consistency
      const q = c.forwarder.quiet()
      return q.inFlight === 0 && q.idleMs >= quiet && !document.querySelector('[data-pending]')
    },
    quietMs,
    { timeout, polling: 100 },
  )
}

/** Rows of the list shown: id, unread, unseen. */
const rows = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[role="tabpanel"] article[data-inbox-item]')].map((r) => ({
      id: r.dataset.id!,
      read: !r.hasAttribute('data-unread'),
      seen: !r.hasAttribute('data-unseen'),
    })),
  )

/** Clicks the centre of the first element matching `selector` (a trusted click); false when there is none. */
async function clickAt(page: Page, selector: string): Promise<boolean> {
  const box = await page.evaluate((s) => {
    const el = document.querySelector(s)
    if (!el || (el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true') return null
    const r = el.getBoundingClientRect()
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 }
  }, selector)
  if (!box) return false
  await page.mouse.click(box.x, box.y)
  return true
}

const tabSelector = (name: 'All' | 'Unread') => `[role="tab"][id$="-${name.toLowerCase()}"]`
const MARK_ALL = 'button[title="Mark all as read"]'

/** Opens the page for one seed and waits for the first rows. */
export async function openSeed(browser: Browser, url: string, o: SeedOptions): Promise<Page> {
  const tall = (o.layout ?? 'tall') === 'tall'
  const context = await browser.newContext({ viewport: tall ? VIEWPORT : { width: VIEWPORT.width, height: 900 } })
  const page = await context.newPage()
  const query = new URLSearchParams({
    seed: String(o.seed),
    latency: String(o.latency ?? 300),
    fail: String(o.fail ?? 0.25),
    countRead: String(o.countRead ?? 30),
    layout: tall ? 'tall' : 'popover',
  })
  await page.goto(`${url}/?${query}`)
  await page.waitForFunction(
    (n) => document.querySelectorAll('[role="tabpanel"] article[data-inbox-item]').length >= n,
    tall ? ITEMS : 5,
    { timeout: 60_000 },
  )
  return page
}

/** The painted frames so far where the bell, the Unread tab and the list shown disagreed. */
export const frameDisagreements = (page: Page): Promise<Disagreement[]> =>
  page.evaluate(() =>
    (window as any).__consistency.sampler.disagreements.filter((d: Disagreement) => d.source === 'frame'),
  )

/** Runs one seed on a fresh page and reports what it found. */
export async function runSeed(browser: Browser, url: string, o: SeedOptions): Promise<SeedReport> {
  const page = await openSeed(browser, url, o)
  try {
    return await drive(page, o)
  } finally {
    await page.context().close()
  }
}

async function drive(page: Page, o: SeedOptions): Promise<SeedReport> {
  const draw = random(o.seed)
  const total = o.actions ?? 30
  const [lo, hi] = o.interval ?? [150, 400]
  // Two "Mark all as read" at seeded places, the second in the later half.
  const markAllAt = [2 + Math.floor(draw() * (total / 2 - 2)), Math.floor(total / 2 + draw() * (total / 2 - 1))]
  const actions: string[] = []
  let next = Date.now()
  let markAlls = 0
  for (let i = 0; i < total; i++) {
    next += lo + draw() * (hi - lo)
    await page.waitForTimeout(Math.max(0, next - Date.now()))
    const roll = draw()
    if (markAlls < 2 && i >= markAllAt[markAlls]! && (await clickAt(page, MARK_ALL))) {
      markAlls++
      actions.push('mark all')
      continue
    }
    if (roll < 0.2) {
      const active = await page.evaluate(() =>
        document.querySelector('[role="tab"][aria-selected="true"]')?.id.endsWith('-unread'),
      )
      const to = active ? 'All' : 'Unread'
      if (await clickAt(page, tabSelector(to))) actions.push(`tab ${to}`)
      continue
    }
    const ids = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[role="tabpanel"] article[data-inbox-item]')].map(
        (r) => r.dataset.id!,
      ),
    )
    if (!ids.length) {
      if (await clickAt(page, tabSelector('All'))) actions.push('tab All (nothing to toggle)')
      continue
    }
    const id = ids[Math.floor(draw() * ids.length)]!
    if (await clickAt(page, `[role="tabpanel"] article[data-inbox-item][data-id="${id}"] button[title^="Mark as"]`))
      actions.push(`toggle ${id.slice(-4)}`)
  }
  await settle(page)

  // The list shown, then the other tab at once (a cached list must not be stale), then after it settled.
  const finalMismatches: string[] = []
  const compare = async (when: string) => {
    const held: Item[] = await page.evaluate(() => (window as any).__consistency.held())
    const snapshot = await page.evaluate(() => (window as any).__consistency.sampler.read())
    const shown = await rows(page)
    const unread = held.filter((i) => !i.read)
    const where = `${when}, ${snapshot.active} tab`
    if (snapshot.bell !== unread.length)
      finalMismatches.push(`${where}: bell ${snapshot.bell}, service ${unread.length} unread`)
    if (snapshot.tab !== unread.length)
      finalMismatches.push(`${where}: Unread tab ${snapshot.tab}, service ${unread.length}`)
    const expected = snapshot.active === 'all' ? held : unread
    const byId = new Map(shown.map((r) => [r.id, r]))
    if (shown.length !== expected.length)
      finalMismatches.push(`${where}: ${shown.length} rows, service ${expected.length}`)
    for (const item of expected) {
      const row = byId.get(item.id)
      if (!row) finalMismatches.push(`${where}: ${item.id} missing`)
      else if (row.read !== item.read || row.seen !== item.seen)
        finalMismatches.push(
          `${where}: ${item.id} shown read=${row.read} seen=${row.seen}, service read=${item.read} seen=${item.seen}`,
        )
    }
    const expectedIds = new Set(expected.map((i) => i.id))
    for (const row of shown)
      if (!expectedIds.has(row.id)) finalMismatches.push(`${where}: ${row.id} shown but not in the service's list`)
  }
  await compare('settled')
  const other = (await page.evaluate(() =>
    document.querySelector('[role="tab"][aria-selected="true"]')?.id.endsWith('-unread'),
  ))
    ? 'All'
    : 'Unread'
  await clickAt(page, tabSelector(other))
  // A list loaded before shows at once, from the cache; one never loaded shows once it arrives.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))))
  await page.waitForFunction(() => (window as any).__consistency.sampler.read().list !== 'loading')
  await compare(`${other} tab just opened`)
  await settle(page)
  await compare(`${other} tab settled`)

  const s = await state(page)
  // Marking seen what comes into view is no change of the reader's, and its failure is not told. A seen
  // write of "Mark all as read" follows the read write of the same ids that succeeded; a seen write of
  // the view never names such ids, as marking read (or unread) marks seen too.
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((id, i) => id === b[i])
  const readers = (w: SeenWrite) =>
    w.markAs !== 'seen' ||
    s.writes.some((r) => r.markAs === 'read' && !r.failing && r.answeredAt <= w.firstAt && same(r.ids, w.ids))
  const failed = s.writes.filter((w) => w.failing && readers(w))
  const told = (w: SeenWrite) =>
    s.sampler.announcements.some(
      (a) =>
        (a.text === UPDATE_ERROR || a.text.startsWith(MARK_ALL_ERROR)) &&
        a.t >= w.answeredAt &&
        a.t - w.answeredAt <= TELL_WITHIN,
    ) || s.sampler.failedSpans.some((span) => w.ids.includes(span.id) && (span.to === null || span.to >= w.answeredAt))
  const untold = failed.filter((w) => !told(w))
  return {
    seed: o.seed,
    actions,
    frames: s.sampler.counts.frames,
    listFrames: s.sampler.counts.listFrames,
    commits: s.sampler.counts.commits,
    disagreements: s.sampler.disagreements.filter((d) => d.source === 'frame'),
    commitDisagreements: s.sampler.disagreements.filter((d) => d.source === 'commit'),
    writes: s.writes.length,
    failuresInjected: failed.length,
    failuresTold: failed.length - untold.length,
    untold,
    finalMismatches,
    toggles: s.sampler.clicks.filter((c) => c.list === 'kit'),
  }
}
