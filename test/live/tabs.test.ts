/**
 * The live loop across tabs in real Chromium: pages of one context share BroadcastChannel and Web Locks,
 * as tabs of one browser profile do. The page (test/live/page), built for production, is served with the
 * reference service behind it under `/api`; every request is attributed to the page that sent it.
 */
import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest'
import type { Service } from '../../server'
import { launchBrowser } from '../support/browser'
import {
  buildLivePage,
  emulateActivity,
  isCount,
  liveService,
  looking,
  newestIds,
  openTab,
  setActivity,
  trigger,
  until,
  type Tab,
} from './tabs'

const POLL = 250

let browser: Browser
let page: Awaited<ReturnType<typeof buildLivePage>>

beforeAll(async () => {
  ;[page, browser] = await Promise.all([buildLivePage(), launchBrowser()])
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await page?.remove()
})

/**
 * A fresh browser profile and a fresh service (30 notifications, 5 unread) behind a server of its own, so
 * that the tests can run side by side; `noLocks`: as a browser without Web Locks.
 */
async function profile(
  { onTestFinished }: TestContext,
  options: { noLocks?: boolean } = {},
): Promise<{ context: BrowserContext; service: Service; url: string }> {
  const service = liveService(30, 5)
  const [server, context] = await Promise.all([
    page.serve(service),
    browser.newContext({ viewport: { width: 600, height: 700 } }),
  ])
  onTestFinished(async () => {
    await context.close()
    await server.close()
  })
  if (options.noLocks) await context.addInitScript(() => delete (Navigator.prototype as { locks?: unknown }).locks)
  return { context, service, url: server.url }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const since = (tab: Tab, from: number) => tab.sent.filter((s) => s.at >= from).map((s) => s.what)
const open = (
  at: { context: BrowserContext; url: string },
  n: number,
  options: { poll?: number; list?: boolean } = { poll: POLL },
) => Promise.all(Array.from({ length: n }, () => openTab(at.context, at.url, options)))

/** Watches `tabs` for `periods` poll periods; returns the one that looked, after checking it is the only one. */
async function soleLeader(tabs: Tab[], periods = 5): Promise<Tab> {
  const from = Date.now()
  await sleep(periods * POLL)
  // A look a period: at least `periods - 2` counts asked for. On a loaded machine the pages' timers run late, so
  // the last of them may come up to twice as many periods later again.
  const counted = (tab: Tab) => since(tab, from).filter(isCount).length >= periods - 2
  await until('a look a period', () => tabs.some(counted), 2 * periods * POLL)
  const leaders = looking(tabs, from)
  expect(leaders, 'tabs that looked').toHaveLength(1)
  const [leader] = leaders as [Tab]
  // Nothing else from anyone while nothing changes.
  for (const tab of tabs) if (tab !== leader) expect(since(tab, from)).toEqual([])
  return leader
}

describe.concurrent('tabs of one browser profile', () => {
  it('one tab looks and the others send nothing; when it closes, another leads at once (Web Locks)', async (test) => {
    const tabs = await open(await profile(test), 3)
    expect(await tabs[0]!.page.evaluate(() => typeof navigator.locks?.request)).toBe('function')
    await sleep(300)
    const first = await soleLeader(tabs)

    // From when the tab is gone (closing one takes a while on a loaded machine).
    await first.page.close()
    const closedAt = Date.now()
    const rest = tabs.filter((t) => t !== first)
    // The lock passes as the tab goes: the next look is one period away, not an election's seconds.
    const led = await until('another tab looks', () => looking(rest, closedAt).length > 0, 5000)
    expect(led - closedAt).toBeLessThan(2000)
    await soleLeader(rest)
  })

  it('with the bell alone, a follower shows the counts the leader read, and sends nothing', async (test) => {
    const at = await profile(test)
    const tabs = await open(at, 2)
    await sleep(300)
    const leader = await soleLeader(tabs)
    const follower = tabs.find((t) => t !== leader)!
    const from = Date.now()
    await trigger(at.service)
    for (const tab of tabs) await until('the bell shows 6', async () => (await tab.bell()) === 6)
    expect(since(follower, from)).toEqual([])
  })

  it('without Web Locks: one leader by election, another within seconds when it closes or goes silent', async (test) => {
    const at = await profile(test, { noLocks: true })
    const { context } = at
    // Opened together, so that they claim at about the same time.
    const tabs = await open(at, 3)
    expect(await tabs[0]!.page.evaluate(() => 'locks' in navigator)).toBe(false)
    await sleep(1100)
    const first = await soleLeader(tabs)

    // A leader that closes says so: the next claims on its next beat.
    await first.page.close()
    const closedAt = Date.now()
    const rest = tabs.filter((t) => t !== first)
    const led = await until('another tab looks', () => looking(rest, closedAt).length > 0, 8000)
    // Its next beat (1 s) and a look; a silent leader is waited out for three beats first (below). Room for a
    // loaded machine, where the pages' timers run late.
    expect(led - closedAt).toBeLessThan(4000)
    await sleep(300)
    const second = await soleLeader(rest)

    // A leader that stops beating without a word (its script halted, as in a hung tab): three silent beats.
    const cdp = await context.newCDPSession(second.page)
    await cdp.send('Debugger.enable')
    await cdp.send('Debugger.pause')
    const haltedAt = Date.now()
    const last = rest.filter((t) => t !== second)
    const next = await until('the last tab looks', () => looking(last, haltedAt).length > 0, 8000)
    expect(next - haltedAt).toBeLessThan(6000)

    // Back to life, both think they lead for a beat; the smaller id stays.
    await cdp.send('Debugger.resume')
    await sleep(1200)
    await soleLeader(rest)
    // About 11 s alone; two waits of up to 8 s each on a loaded machine.
  }, 45_000)

  it('a new notification: onNotification once in the profile, and a follower shows it without looking itself', async (test) => {
    const at = await profile(test)
    const { service } = at
    const tabs = await open(at, 2, { poll: POLL, list: true })
    await sleep(300)
    const leader = await soleLeader(tabs)
    const follower = tabs.find((t) => t !== leader)!
    // Every state the page shows from now on: the bell's count and the newest item of the list.
    const shows = await Promise.all(
      tabs.map((tab) =>
        tab.page.evaluateHandle(() => {
          const states: [number, string | null][] = []
          const note = () =>
            states.push([
              Number(document.querySelector('.inbox-bell')!.getAttribute('data-count')),
              document.querySelector('[data-inbox-item]')!.getAttribute('data-id'),
            ])
          new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true })
          return states
        }),
      ),
    )
    const from = Date.now()
    await trigger(service)
    const [id] = await newestIds(service)
    for (const tab of tabs) {
      await until('the bell shows 6', async () => (await tab.bell()) === 6)
      await tab.page.locator(`[data-inbox-item][data-id="${id}"]`).waitFor()
    }
    // Count and list change in one commit: no state shows the new count beside the old list, or the reverse.
    for (const states of await Promise.all(shows.map((h) => h.jsonValue()))) {
      expect(states.some(([count, newest]) => count === 6 && newest === id)).toBe(true)
      expect(states.filter(([count, newest]) => (count === 6) !== (newest === id))).toEqual([])
    }
    // Nothing new since: the leader keeps looking, the follower sends nothing.
    const shown = Date.now()
    await sleep(5 * POLL)
    expect(since(leader, shown).filter(isCount).length).toBeGreaterThanOrEqual(4)
    expect(since(follower, shown)).toEqual([])
    const [mine, theirs] = await Promise.all([leader.record(), follower.record()])
    expect(mine.notified).toEqual([[id]])
    expect(theirs.notified).toEqual([])
    // The follower fetched its list's loaded pages after the leader's look (100 items a request), and no count at all. (Twice when
    // the notification came between the leader's two count requests: each of those looks saw a change.)
    const lists = since(follower, from)
    expect(lists.length).toBeGreaterThan(0)
    expect(lists.every((what) => /feed\?limit=100&page=\d+$/.test(what))).toBe(true)
    expect(lists.length).toBeLessThanOrEqual(2 * new Set(lists).size)
    const news = leader.sent.find((s) => s.at >= from && isCount(s.what))!.at
    expect(follower.sent.find((s) => s.at >= from)!.at).toBeGreaterThanOrEqual(news)
  })
})

describe('an outage of the app server', () => {
  it("the bell recovers when the service answers again, though the app's JS files could not be fetched meanwhile", async (test) => {
    const at = await profile(test)
    await emulateActivity(at.context)
    // The adaptive default: the first look comes with a change of focus or after 10 s, not at once.
    const [tab] = (await open(at, 1, {})) as [Tab]
    expect(await tab.bell()).toBe(5)
    // What a look needs is fetched soon after the first render, while the server answers: the live loop (a look
    // of the bell alone reads the counts, with no code of the ledger's).
    await tab.page.waitForFunction(
      () => performance.getEntriesByType('resource').some((e) => /\/live-[\w-]+\.js$/.test(e.name)),
      null,
      { timeout: 5000 },
    )
    await tab.page.waitForLoadState('networkidle')
    // Then the server stops serving files (down, or a deploy took the old ones away); the API answers again.
    await at.context.route(/\.js(\?|$)/, (route) => route.abort())
    await trigger(at.service)
    await setActivity(tab, false)
    await setActivity(tab, true)
    await until('the bell shows the new notification', async () => (await tab.bell()) === 6, 5000)
  })
})

describe.concurrent('cadence, on the page clock', () => {
  it('every 10 s while a tab of the profile is focused, 30 s while one is visible, never while all are hidden', async (test) => {
    const at = await profile(test)
    const { context, url } = at
    await emulateActivity(context)
    await context.clock.install()
    const tabs = await open(at, 2, {})
    await sleep(300)
    await context.clock.pauseAt(Date.now() + 1000)
    const clock = () => tabs[0]!.page.evaluate(() => Date.now())
    /**
     * Runs the clock `ms` on in steps (a look's requests finish between steps, so a gap between looks is
     * the period plus at most a step); returns when it started.
     */
    const run = async (ms: number, step: number) => {
      const start = await clock()
      for (let t = 0; t < ms; t += step) {
        await context.clock.runFor(step)
        // Real time for a look that came due to send its requests before the clock moves on (more than the few
        // milliseconds a quiet machine needs: with two test files at once, 15 ms was sometimes not enough).
        await sleep(60)
      }
      return start
    }
    /** When each tab's looks since `from` began (page clock), and the gaps between them. */
    const looks = async (from: number) => {
      const records = await Promise.all(tabs.map((t) => t.record()))
      const starts = records.map((r) =>
        r.sent.filter((s) => s.at >= from && /read=false&limit=1$/.test(s.url)).map((s) => s.at),
      )
      return { starts, gaps: starts.flatMap((s) => s.slice(1).map((at, i) => at - s[i]!)) }
    }
    // A gap is the period plus at most a step, and one more on a loaded machine, where a look that came due may send
    // its requests only after the next step (its code fetched from the dev server first): 10 s stays well apart
    // from 30 s either way.
    const expectGaps = (gaps: number[], period: number, step: number) => {
      expect(gaps.length).toBeGreaterThanOrEqual(2)
      for (const gap of gaps) {
        expect(gap).toBeGreaterThanOrEqual(period)
        expect(gap).toBeLessThanOrEqual(period + 2 * step + 500)
      }
    }

    // Tabs report their focus on every change and once a minute; a dozen tabs make a report every few
    // seconds, here every 3 s. They must not put the leader's next look off.
    const reports = await tabs[1]!.page.evaluateHandle((name) => {
      const channel = new BroadcastChannel(name)
      const report = (on: boolean) =>
        channel.postMessage({ t: 'tab', id: 'another', visible: on, focused: on, at: Date.now() })
      const every = setInterval(() => report(true), 3000)
      // That tab goes: it says so, as it would on blur.
      return () => (clearInterval(every), report(false))
    }, `inbox-kit:${url}/api:user-1`)
    const focused = await run(40_000, 2000)
    const a = await looks(focused)
    expect(a.starts.filter((s) => s.length > 0)).toHaveLength(1)
    expectGaps(a.gaps, 10_000, 2000)
    await reports.evaluate((stop) => stop())
    const leader = tabs[a.starts.findIndex((s) => s.length > 0)]!
    const follower = tabs.find((t) => t !== leader)!

    // The user opens the app in a new tab: the others are hidden, the new one is focused and has fired no
    // event yet. The leader hears of it and keeps to 10 s.
    await setActivity(leader, false, false)
    await setActivity(follower, false, false)
    // (A page loads only while the clock runs.)
    await context.clock.resume()
    const fresh = await openTab(context, url)
    // Paused a little ahead of the page's time as read: the clock runs on while the answer comes back (more than
    // 100 ms on a loaded machine).
    await context.clock.pauseAt((await clock()) + 1000)
    tabs.push(fresh)
    const opened = await run(40_000, 2000)
    const b = await looks(opened)
    expect(b.starts.filter((s) => s.length > 0)).toHaveLength(1)
    expectGaps(b.gaps, 10_000, 2000)

    // No tab focused, one visible: every 30 s.
    await setActivity(fresh, false)
    const visible = await run(100_000, 5000)
    expectGaps((await looks(visible)).gaps, 30_000, 5000)

    // All hidden: no request for five minutes; then a tab comes back focused and a look goes at once.
    await setActivity(fresh, false, false)
    const hidden = await run(300_000, 20_000)
    expect((await looks(hidden)).starts.flat()).toEqual([])
    const back = await clock()
    await setActivity(follower, true)
    await run(1000, 250)
    expect((await looks(back)).starts.flat()).toHaveLength(1)
    for (const tab of [follower, fresh])
      if (tab !== leader) expect((await tab.record()).sent.filter((s) => s.at >= opened)).toEqual([])
  })
})
