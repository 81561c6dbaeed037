/**
 * The live loop of three tabs of one browser profile (one Chromium context: shared BroadcastChannel and Web
 * Locks), each showing the bell of test/live/page built for production, against a reference service of 300
 * notifications, 150 unread, on loopback:
 * - steady state at the default cadence (every tab focused: 10 s): requests and bytes per poll period, all tabs;
 * - trigger to the new count shown in every tab, triggers at random moments of the period;
 * - a 30-minute outage (every feed request answered 503) on the page clock: requests sent, and when the
 *   first look after it goes.
 * Run: npx tsx bench/live.ts [--triggers=8] [--periods=6] [--outage-minutes=30]; writes bench/results/live.json.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BrowserContext, Page } from 'playwright-core'
import { buildLivePage, liveService, openTab, trigger, until, type Tab } from '../test/live/tabs'
import { CHROMIUM_PATH, launchBrowser } from '../test/support/browser'
import { stats } from './probe'

const args = process.argv.slice(2)
const flag = (name: string, fallback: number) =>
  Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback)
const TRIGGERS = flag('triggers', 8)
const PERIODS = flag('periods', 6)
const TABS = 3
const TOTAL = 300
const UNREAD = 150
const FOCUSED_PERIOD = 10_000
const OUTAGE = flag('outage-minutes', 30) * 60_000

/** What the code before the live loop did with the same three tabs (bench/results/latest.json, pollNothingNew150 × 3). */
const BEFORE = { requestsPerPeriod: 6, bodyBytesPerPeriod: 3 * 164_320 }
const GOALS = { requestsPerPeriod: 2, bodyBytesPerPeriod: 3000 }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const round = (n: number, places = 0) => Math.round(n * 10 ** places) / 10 ** places
const isLook = (what: string) => /read=false&limit=1$/.test(what)

/** Opens the tabs one after the other, as a user does, at the default cadence. */
async function openTabs(context: BrowserContext, url: string): Promise<Tab[]> {
  const tabs: Tab[] = []
  for (let i = 0; i < TABS; i++) tabs.push(await openTab(context, url))
  return tabs
}

/** Records in the page when its bell shows each count (the page's clock), from now on. */
const watchBell = (page: Page) =>
  page.evaluate(() => {
    const bell = document.querySelector('.inbox-bell')!
    const shown: [number, number][] = []
    new MutationObserver(() => shown.push([Date.now(), Number(bell.getAttribute('data-count'))])).observe(bell, {
      attributes: true,
      attributeFilter: ['data-count'],
    })
    Object.assign(window, { __bell: shown })
  })
const shownAt = (page: Page, count: number) =>
  page.evaluate(
    (c) => (window as unknown as { __bell: [number, number][] }).__bell.find(([, n]) => n === c)?.[0],
    count,
  )

async function steadyAndLatency(context: BrowserContext, url: string, service: ReturnType<typeof liveService>) {
  const tabs = await openTabs(context, url)
  await sleep(2000)

  // Steady state: nothing new, every tab focused.
  const start = Date.now()
  await sleep(PERIODS * FOCUSED_PERIOD + 500)
  const end = Date.now()
  const inWindow = tabs.map((t) => t.sent.filter((s) => s.at >= start && s.at < end))
  const all = inWindow.flat()
  const looks = all.filter((s) => isLook(s.what)).map((s) => s.at)
  const sizes = (await Promise.all(all.map((s) => s.bytes))).filter((b) => b !== undefined)
  const body = sizes.reduce((sum, b) => sum + b.body, 0)
  const headers = sizes.reduce((sum, b) => sum + b.headers, 0)
  const gaps = looks.slice(1).map((at, i) => at - looks[i]!)
  const steady = {
    windowMs: end - start,
    looks: looks.length,
    periodMs: round(gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length)),
    requestsPerPeriod: round(all.length / looks.length, 2),
    bodyBytesPerPeriod: round(body / looks.length),
    bytesPerPeriodWithHeaders: round((body + headers) / looks.length),
    requestsByTab: inWindow.map((sent) => sent.length),
    onePeriod: inWindow
      .flat()
      .slice(0, 2)
      .map((s) => s.what),
    before: BEFORE,
    goals: GOALS,
  }

  // Trigger to the new count in every tab, at random moments of the period.
  await Promise.all(tabs.map((t) => watchBell(t.page)))
  const samples: { everyTabMs: number; byTabMs: number[] }[] = []
  for (let i = 0; i < TRIGGERS; i++) {
    await sleep(Math.random() * FOCUSED_PERIOD)
    const expected = (await tabs[0]!.bell()) + 1
    const at = Date.now()
    await trigger(service)
    await until(
      'every tab shows the new count',
      async () => (await Promise.all(tabs.map((t) => t.bell()))).every((n) => n === expected),
      60_000,
    )
    const byTab = (await Promise.all(tabs.map((t) => shownAt(t.page, expected)))).map((shown) => shown! - at)
    samples.push({ everyTabMs: Math.max(...byTab), byTabMs: byTab })
  }
  const every = stats(samples.map((s) => s.everyTabMs))
  const records = await Promise.all(tabs.map((t) => t.record()))
  const latency = {
    triggers: TRIGGERS,
    everyTabMs: {
      p50: round(every.median),
      p95: round(every.p95),
      min: round(Math.min(...samples.map((s) => s.everyTabMs))),
    },
    /** The spread between the first and the last tab to show a count: the followers' lag behind the leader. */
    spreadMs: stats(samples.map((s) => Math.max(...s.byTabMs) - Math.min(...s.byTabMs))).median,
    onNotificationCalls: records.map((r) => r.notified.length),
    samples,
  }
  return { steady, latency }
}

/**
 * The outage on the page clock: Playwright's clock (Date, timers and performance faked in every page of the
 * context) paused and run on a second at a time, the requests of each step finishing in real time before the
 * next; every feed request answered 503 for 30 minutes of that clock.
 */
async function outage(context: BrowserContext, url: string, service: ReturnType<typeof liveService>) {
  await context.clock.install()
  const tabs = await openTabs(context, url)
  await sleep(1000)
  const clock = () => tabs[0]!.page.evaluate(() => Date.now())
  await context.clock.pauseAt((await clock()) + 1000)
  const run = async (ms: number, step = 1000, stop?: () => boolean) => {
    for (let t = 0; t < ms && !stop?.(); t += step) {
      await context.clock.runFor(step)
      await sleep(10)
    }
  }
  await run(30_000)
  const sentSince = (from: number) => tabs.map((t) => t.sent.filter((s) => s.at >= from))

  const started = Date.now()
  const fakeStart = await clock()
  const remove = service.faults.add({ method: 'GET', path: /\/feed$/, status: 503 })
  await run(OUTAGE)
  remove()
  const during = sentSince(started)
  const fakeEnd = await clock()
  const tries = (await Promise.all(tabs.map((t) => t.record())))
    .flatMap((r) => r.sent)
    .filter((s) => s.at >= fakeStart && s.at < fakeEnd)
    .map((s) => round((s.at - fakeStart) / 1000, 1))
    .sort((a, b) => a - b)

  // Back up: the next look goes when the backoff says (at most 5 minutes), or at once on focus.
  const back = Date.now()
  await run(6 * 60_000, 1000, () => sentSince(back).some((s) => s.length > 0))
  const firstAfter = (await Promise.all(tabs.map((t) => t.record())))
    .flatMap((r) => r.sent)
    .filter((s) => s.at >= fakeEnd)
    .map((s) => s.at)[0]
  return {
    simulated:
      "Playwright's context clock: Date, timers and performance of every page faked, paused, then run 1 s at a time " +
      'with a 10 ms real pause between steps for the requests to finish; every GET …/feed answered 503 for 30 minutes of that clock.',
    minutes: OUTAGE / 60_000,
    requests: during.flat().length,
    requestsByTab: during.map((s) => s.length),
    triesAtSeconds: tries,
    firstLookAfterMs: firstAfter === undefined ? null : round(firstAfter - fakeEnd),
  }
}

async function main() {
  const built = await buildLivePage()
  const browser = await launchBrowser()
  const load = round(loadavg()[0]!, 2)
  try {
    const run = async <T>(
      what: string,
      measure: (context: BrowserContext, url: string, service: ReturnType<typeof liveService>) => Promise<T>,
    ) => {
      const service = liveService(TOTAL, UNREAD)
      const server = await built.serve(service)
      const context = await browser.newContext({ viewport: { width: 600, height: 400 } })
      const at = Date.now()
      try {
        return await measure(context, server.url, service)
      } finally {
        await context.close()
        await server.close()
        console.error(`  ${what}: ${((Date.now() - at) / 1000).toFixed(1)} s`)
      }
    }
    const { steady, latency } = await run('steady state and latency', steadyAndLatency)
    const down = await run('30-minute outage', outage)
    const results = {
      command: 'npx tsx bench/live.ts',
      date: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        node: process.version,
        chromium: execFileSync(CHROMIUM_PATH, ['--version'], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        }).trim(),
        loadAverage: { start: load, end: round(loadavg()[0]!, 2) },
      },
      setup: {
        tabs: TABS,
        notifications: TOTAL,
        unread: UNREAD,
        cadence: 'default: every tab focused (10 s)',
        view: 'bell',
      },
      steady,
      latency,
      outage: down,
    }
    const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'live.json')
    mkdirSync(dirname(out), { recursive: true })
    writeFileSync(out, JSON.stringify(results, null, 2) + '\n')

    console.log(`Live loop, ${TABS} tabs of one profile, ${UNREAD} unread of ${TOTAL}, default cadence (focused)\n`)
    console.log(
      `  per poll period (${steady.periodMs} ms, ${steady.looks} looks in ${round(steady.windowMs / 1000)} s), all tabs:`,
    )
    console.log(
      `    requests      ${steady.requestsPerPeriod}   (before: ${BEFORE.requestsPerPeriod}, goal ≤ ${GOALS.requestsPerPeriod}) by tab ${steady.requestsByTab.join('/')}`,
    )
    console.log(
      `    body bytes    ${steady.bodyBytesPerPeriod}   (before: ${BEFORE.bodyBytesPerPeriod}, goal ≤ ${GOALS.bodyBytesPerPeriod})`,
    )
    console.log(`    with headers  ${steady.bytesPerPeriodWithHeaders}`)
    console.log(
      `  trigger → new count in every tab, ${TRIGGERS} triggers: p50 ${latency.everyTabMs.p50} ms, p95 ${latency.everyTabMs.p95} ms`,
    )
    console.log(
      `    (followers behind the leader: median ${latency.spreadMs} ms; onNotification calls by tab ${latency.onNotificationCalls.join('/')})`,
    )
    console.log(
      `  30-minute outage: ${down.requests} requests (by tab ${down.requestsByTab.join('/')}), first look after it ${down.firstLookAfterMs} ms`,
    )
    console.log(`\nWrote ${out}`)
  } finally {
    await browser.close()
    await built.remove()
  }
}

await main()
