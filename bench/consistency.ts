/**
 * The real `<Inbox>` under quick actions and failing writes, and how soon a click shows, in Chromium on
 * the production build of test/consistency/page:
 * - `--seeds=N` (default 20) seeded runs of 30 actions 150–400 ms apart (toggles, tab switches, two "Mark
 *   all as read") while every mark-as takes 300 ms and a quarter of the writes fail for good. Per seed:
 *   frames sampled, frames where the bell, the Unread tab and the list disagreed, the end state against
 *   the service's, failures injected and told, clicks not shown in the next frame.
 * - `--clicks=N` (default 60) trusted clicks each on a row's toggle of the kit (the popover at its own
 *   size) and of a plain React list of 40 rows on the same page, taking turns 400 ms apart: click → the
 *   row's `data-unread` flip, p50/p95.
 *
 * `npx tsx bench/consistency.ts [--seeds=20 | --seed=3,7] [--clicks=60]`; `npm run bench` runs it as the
 * part `consistency`. Writes bench/results/consistency.json.
 */
import type { Browser } from 'playwright-core'
import { writeFileSync, mkdirSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { launchBrowser } from '../test/support/browser'
import { openSeed, runSeed, settle, type SeedReport } from '../test/consistency/drive'
import type { Click } from '../test/consistency/page/sampler'
import { buildPage, servePage } from './pages'
import { stats } from './probe'

const PAGE = fileURLToPath(new URL('../test/consistency/page/main.tsx', import.meta.url))
const CLICK_GAP = 400
/** The kit's rows in the popover's view at its own size (the plain list's first as many). */
const ROWS_IN_VIEW = 6

interface SeedRow {
  seed: number
  actions: { toggles: number; tabs: number; markAll: number }
  frames: number
  listFrames: number
  disagreements: number
  /** DOM commits that disagreed but were followed by another before the frame was painted. */
  unpaintedCommitDisagreements: number
  firstDisagreement?: string
  finalMismatches: string[]
  writes: number
  failuresInjected: number
  failuresTold: number
  /** Toggle clicks whose row had not changed by the next frame. */
  lateClicks: number
  toggleClicks: number
}

interface Latency {
  clicks: number
  /** Click (capturing listener) → the row's `data-unread` flip in the DOM. */
  flipMs: { p50: number; p95: number; max: number }
  /** Pointerdown → flip: the above plus the press itself. */
  fromPointerDownMs: { p50: number; p95: number }
  /** Click → the first animation frame after the flip (about when it is painted). */
  frameMs: { p50: number; p95: number }
  /** Clicks whose flip was not in the next frame. */
  late: number
}

export interface ConsistencyResults {
  date: string
  cpus: number
  loadAverage: { start: number; end: number }
  seeds: SeedRow[]
  totals: {
    seeds: number
    frames: number
    disagreements: number
    finalMismatches: number
    failuresInjected: number
    failuresTold: number
    lateClicks: number
  }
  click: { gapMs: number; kit: Latency; plain: Latency }
}

const r1 = (n: number) => Math.round(n * 10) / 10

function row(r: SeedReport): SeedRow {
  const count = (prefix: string) => r.actions.filter((a) => a.startsWith(prefix)).length
  const first = r.disagreements[0]
  return {
    seed: r.seed,
    actions: { toggles: count('toggle'), tabs: count('tab'), markAll: count('mark all') },
    frames: r.frames,
    listFrames: r.listFrames,
    disagreements: r.disagreements.length,
    unpaintedCommitDisagreements: r.commitDisagreements.filter(
      (c) => !r.disagreements.some((d) => d.t >= c.t && d.t - c.t < 20),
    ).length,
    ...(first
      ? { firstDisagreement: `${r1(first.t)} ms, ${first.active} tab: ${first.why}; actions: ${r.actions.join(', ')}` }
      : {}),
    finalMismatches: r.finalMismatches,
    writes: r.writes,
    failuresInjected: r.failuresInjected,
    failuresTold: r.failuresTold,
    lateClicks: r.toggles.filter((c) => c.flipAt === undefined || c.framesMissed > 0).length,
    toggleClicks: r.toggles.length,
  }
}

function latency(clicks: Click[]): Latency {
  const done = clicks.filter((c) => c.flipAt !== undefined)
  const flip = stats(done.map((c) => c.flipAt! - c.clickAt))
  const down = stats(done.map((c) => c.flipAt! - c.downAt))
  const frame = stats(done.filter((c) => c.frameAt !== undefined).map((c) => c.frameAt! - c.clickAt))
  return {
    clicks: clicks.length,
    flipMs: { p50: r1(flip.median), p95: r1(flip.p95), max: r1(Math.max(...done.map((c) => c.flipAt! - c.clickAt))) },
    fromPointerDownMs: { p50: r1(down.median), p95: r1(down.p95) },
    frameMs: { p50: r1(frame.median), p95: r1(frame.p95) },
    late: clicks.filter((c) => c.flipAt === undefined || c.framesMissed > 0).length,
  }
}

/** Trusted clicks on the toggles of the kit's rows and the plain list's, taking turns; every write succeeds. */
async function measureClicks(browser: Browser, url: string, clicks: number): Promise<ConsistencyResults['click']> {
  const page = await openSeed(browser, url, { seed: 0, fail: 0, layout: 'popover' })
  try {
    // The items in view are marked seen once; let that write land before timing anything.
    await settle(page, 800)
    for (let i = 0; i < clicks; i++) {
      for (const list of ['kit', 'plain'] as const) {
        const box = await page.evaluate(
          ({ list, index }) => {
            const rows = document.querySelectorAll(
              list === 'kit' ? '[role="tabpanel"] article[data-inbox-item]' : 'article[data-plain-item]',
            )
            const r = rows[index]!.querySelector('button[title^="Mark as"]')!.getBoundingClientRect()
            return { x: r.left + r.width / 2, y: r.top + r.height / 2 }
          },
          { list, index: i % ROWS_IN_VIEW },
        )
        await page.mouse.click(box.x, box.y)
        await page.waitForTimeout(CLICK_GAP)
      }
    }
    const all: Click[] = await page.evaluate(() => (window as any).__consistency.sampler.clicks)
    return {
      gapMs: CLICK_GAP,
      kit: latency(all.filter((c) => c.list === 'kit')),
      plain: latency(all.filter((c) => c.list === 'plain')),
    }
  } finally {
    await page.context().close()
  }
}

/** Builds the page for production, runs the seeds and the clicks. */
export async function measureConsistency(
  browser: Browser,
  {
    seeds = range(20),
    clicks = 60,
    log = (_: string) => {},
  }: { seeds?: number[]; clicks?: number; log?: (line: string) => void } = {},
): Promise<ConsistencyResults> {
  const start = loadavg()[0]!
  const server = await servePage(await buildPage(PAGE))
  try {
    const rows: SeedRow[] = []
    for (const seed of seeds) {
      const r = row(await runSeed(browser, server.url, { seed }))
      rows.push(r)
      log(seedLine(r))
    }
    const click = await measureClicks(browser, server.url, clicks)
    const sum = (pick: (r: SeedRow) => number) => rows.reduce((a, r) => a + pick(r), 0)
    return {
      date: new Date().toISOString(),
      cpus: cpus().length,
      loadAverage: { start: r1(start), end: r1(loadavg()[0]!) },
      seeds: rows,
      totals: {
        seeds: rows.length,
        frames: sum((r) => r.frames),
        disagreements: sum((r) => r.disagreements),
        finalMismatches: sum((r) => r.finalMismatches.length),
        failuresInjected: sum((r) => r.failuresInjected),
        failuresTold: sum((r) => r.failuresTold),
        lateClicks: sum((r) => r.lateClicks),
      },
      click,
    }
  } finally {
    await server.close()
  }
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1)

function seedLine(r: SeedRow): string {
  const a = r.actions
  return (
    `seed ${String(r.seed).padStart(3)}: ${a.toggles} toggles, ${a.tabs} tab switches, ${a.markAll} mark all | ` +
    `${r.frames} frames (${r.listFrames} with the whole list), ${r.disagreements} disagreeing | ` +
    `${r.failuresInjected} of ${r.writes} writes failed, ${r.failuresTold} told | ` +
    `end ${r.finalMismatches.length ? r.finalMismatches.join('; ') : 'as the service'} | ` +
    `${r.lateClicks} of ${r.toggleClicks} clicks late` +
    (r.firstDisagreement ? `\n    first disagreement: ${r.firstDisagreement}` : '')
  )
}

/** The summary printed by `npm run bench` and by this script. */
export function renderConsistency(c: ConsistencyResults): string {
  const t = c.totals
  const lat = (name: string, l: Latency) =>
    `| ${name} | ${l.clicks} | ${l.flipMs.p50} ms | ${l.flipMs.p95} ms | ${l.flipMs.max} ms | ${l.frameMs.p50} ms | ${l.frameMs.p95} ms | ${l.late} |`
  return [
    `Consistency (${t.seeds} seeds, 30 actions each, mark-as 300 ms, 25 % of writes failing for good): ` +
      `${t.frames} frames sampled, ${t.disagreements} disagreeing; ${t.finalMismatches} end states unlike the service's; ` +
      `${t.failuresTold} of ${t.failuresInjected} failed writes told; ${t.lateClicks} clicks not shown in the next frame.`,
    '',
    `Click → row's data-unread flip (trusted clicks, taking turns ${c.click.gapMs} ms apart, production build):`,
    '',
    '| List | Clicks | p50 | p95 | max | → next frame p50 | → next frame p95 | Not in next frame |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    lat('inbox-kit `<Inbox>`', c.click.kit),
    lat('plain React list of 40', c.click.plain),
  ].join('\n')
}

async function main(): Promise<void> {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
  const seeds = arg('seed')?.split(',').map(Number) ?? range(Number(arg('seeds') ?? 20))
  const clicks = Number(arg('clicks') ?? 60)
  const browser = await launchBrowser()
  try {
    const results = await measureConsistency(browser, { seeds, clicks, log: (line) => console.error(line) })
    const dir = fileURLToPath(new URL('./results', import.meta.url))
    mkdirSync(dir, { recursive: true })
    const command = ['npx tsx bench/consistency.ts', ...process.argv.slice(2)].join(' ')
    writeFileSync(`${dir}/consistency.json`, JSON.stringify({ command, ...results }, null, 2) + '\n')
    console.log(renderConsistency(results))
    console.log('\nWritten to bench/results/consistency.json')
  } finally {
    await browser.close()
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
