/**
 * `npm run bench`: bundle cost, mount, long feed, optimistic latency and requests for inbox-kit and the
 * peers, plus the reference service's own figures and the inbox's consistency under failing writes with
 * its click latency (bench/consistency.ts). Prints a table, writes bench/results/latest.json.
 * Flags: `--only=size,browser,service,consistency,proxy,push,push-browser,live,scale` runs a subset; `--runs=N` page loads per mount figure
 * (default 21); `--seeds=N` consistency seeds (default 20); `--readme` rewrites the README's benchmark table.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'
import { launchBrowser, CHROMIUM_PATH } from '../test/support/browser'
import { interleavedLoads, MOUNT_RUNS, peerPage, round, type MountTarget } from './browser'
import { measureBundle, measureEsbuild, type BundleCost, type Size } from './bundle'
import { floorMountTarget, floorPage, kitMountTargets, kitPage, kitScenarios, type KitBrowserResults } from './kit'
import type { PageServer } from './pages'
import { measureConsistency, renderConsistency, type ConsistencyResults } from './consistency'
import { ensurePeers, PEERS, PEERS_DIR } from './peers'
import { buildPackage } from './published'
import { renderReadme, renderTable } from './table'

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))
const ROOT = here('..').replace(/\/$/, '')

/** Either the figure or why there is none. */
export type Outcome<T> = T | { error: string }

/** One kit's column. */
export interface KitResult {
  package: string
  version: string
  bundle: Outcome<BundleCost>
  hooksBundle?: Outcome<BundleCost>
  /** The full inbox's JS built by esbuild into one file, every lazy chunk inlined: the measure. */
  oneFile?: Outcome<Size>
  /** The same for the hooks alone. */
  hooksOneFile?: Outcome<Size>
  /** Mount on a page built by esbuild into one file (React bundled), as the issue measured it. */
  mountOneFile?: Outcome<{ bellRendered?: number; heapBytes?: number; popoverShown?: number }>
  mount?: Outcome<{
    bellRendered?: number
    bellCount?: number
    /** JS heap in use once mounted and settled, after a full collection. */
    heapBytes?: number
    /** The same, for the page loaded with the feed open. */
    heapOpenBytes?: number
    feedFirstPage?: number
    /** From the click on the bell. */
    popoverShown?: number
    firstPageShown?: number
    note?: string
  }>
  longFeed?: Outcome<KitBrowserResults['longFeed']>
  optimistic?: Outcome<KitBrowserResults['optimistic']>
  requests?: Outcome<KitBrowserResults['requests']>
  /** The bundles of the other shapes (parts, inline, page, Markdown). */
  shapes?: Record<string, Outcome<BundleCost>>
}

/** Everything one run measured; the shape of bench/results/latest.json. */
export interface BenchResults {
  date: string
  command: string
  /** The parts this run measured; the others were carried over from the previous results. */
  measured: string[]
  machine: {
    cpus: number
    cpuModel: string
    memoryGiB: number
    os: string
    node: string
    chromium: string
    /** 1-minute load average at the start and the end: other work on the machine skews the times. */
    loadAverage: { start: number; end: number }
  }
  bundler: string
  kits: Record<string, KitResult>
  service: Outcome<unknown>
  /** The other benchmark scripts' results (bench/<name>.ts, each also in bench/results/<name>.json). */
  extra?: Record<string, Outcome<unknown>>
  /** Seeded quick actions under failing writes, and click → DOM beside a plain React list. */
  consistency?: Outcome<ConsistencyResults>
  notes: string[]
}

const args = process.argv.slice(2)
/** The other benchmark scripts, each run alone and writing bench/results/<name>.json. */
const SCRIPTS = ['proxy', 'push', 'push-browser', 'live', 'scale'] as const
const only = new Set(
  (
    args.find((a) => a.startsWith('--only='))?.slice(7) ??
    ['size', 'browser', 'service', 'consistency', ...SCRIPTS].join(',')
  ).split(','),
)
const runs = Number(args.find((a) => a.startsWith('--runs='))?.slice(7) ?? MOUNT_RUNS)
/** The kit's sizes and pages are built on its published files (dist/), as the peers' are on theirs. */
const PUBLISHED = { published: true }
const seeds = Number(args.find((a) => a.startsWith('--seeds='))?.slice(8) ?? 20)

const attempt = async <T>(what: string, run: () => Promise<T>): Promise<Outcome<T>> => {
  const started = Date.now()
  try {
    const value = await run()
    console.error(`  ${what}: ${((Date.now() - started) / 1000).toFixed(1)} s`)
    return value
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error)
    const message = text.replace(/\s+/g, ' ').trim().slice(0, 300)
    console.error(`  ${what}: FAILED ${message}`)
    return { error: message }
  }
}

const version = (pkg: string, dir: string) => {
  try {
    return (JSON.parse(readFileSync(`${dir}/node_modules/${pkg}/package.json`, 'utf8')) as { version: string }).version
  } catch {
    return '?'
  }
}

function chromiumVersion(): string {
  try {
    return execFileSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return 'unknown'
  }
}

async function main(): Promise<void> {
  ensurePeers()
  const previous = existsSync(here('./results/latest.json'))
    ? (JSON.parse(readFileSync(here('./results/latest.json'), 'utf8')) as BenchResults)
    : undefined
  const kitVersion = (JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { version: string }).version
  const results: BenchResults = {
    date: new Date().toISOString(),
    command: 'npm run bench',
    measured: [...only],
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      os: `${process.platform} ${process.arch}`,
      node: process.version,
      chromium: chromiumVersion(),
      loadAverage: { start: round(loadavg()[0]!), end: 0 },
    },
    bundler: `vite ${version('vite', ROOT)} (production, minified; react, react-dom, react/jsx-runtime external)`,
    kits: {
      'inbox-kit': { package: 'inbox-kit', version: kitVersion, bundle: { error: 'not run' } },
      floor: {
        package: 'floor: React Query + zustand',
        version: version('@tanstack/react-query', ROOT),
        bundle: { error: 'not run' },
      },
      ...Object.fromEntries(
        PEERS.map((p) => [
          p.id,
          { package: p.name, version: version(p.name, PEERS_DIR), bundle: { error: 'not run' } },
        ]),
      ),
    },
    service: { error: 'not run' },
    notes: [],
  }
  const kit = results.kits['inbox-kit']!

  if (only.has('size') || only.has('browser')) {
    console.error('Building the package (npm run build: dist/)')
    buildPackage()
  }

  if (only.has('size')) {
    console.error('Bundle cost')
    kit.bundle = await attempt('inbox-kit <Inbox/>', () => measureBundle(here('./apps/inbox.tsx'), PUBLISHED))
    kit.hooksBundle = await attempt('inbox-kit hooks', () => measureBundle(here('./apps/hooks.tsx'), PUBLISHED))
    kit.oneFile = await attempt('inbox-kit <Inbox/>, one file', () =>
      measureEsbuild(here('./apps/inbox.tsx'), PUBLISHED),
    )
    kit.hooksOneFile = await attempt('inbox-kit hooks, one file', () =>
      measureEsbuild(here('./apps/hooks.tsx'), PUBLISHED),
    )
    results.kits.floor!.bundle = await attempt('floor', () => measureBundle(here('./apps/floor.tsx')))
    results.kits.floor!.oneFile = await attempt('floor, one file', () => measureEsbuild(here('./apps/floor.tsx')))
    // What each shape costs an app that uses it (the one-line <Inbox/> pays for none of the others).
    kit.shapes = {}
    for (const shape of ['parts', 'inline', 'page', 'markdown'])
      if (existsSync(here(`./apps/${shape}.tsx`)))
        kit.shapes[shape] = await attempt(`inbox-kit ${shape}`, () =>
          measureBundle(here(`./apps/${shape}.tsx`), PUBLISHED),
        )
    for (const peer of PEERS) {
      const result = results.kits[peer.id]!
      result.bundle = await attempt(peer.name, () => measureBundle(peer.entry))
      result.oneFile = await attempt(`${peer.name}, one file`, () => measureEsbuild(peer.entry))
      const hooks = peer.hooksEntry
      if (hooks) {
        result.hooksBundle = await attempt(`${peer.name} headless`, () => measureBundle(hooks))
        result.hooksOneFile = await attempt(`${peer.name} headless, one file`, () => measureEsbuild(hooks))
      }
    }
  } else carryOver(previous, results, ['bundle', 'hooksBundle', 'oneFile', 'hooksOneFile', 'shapes'])

  if (!only.has('browser'))
    carryOver(previous, results, ['mount', 'mountOneFile', 'longFeed', 'optimistic', 'requests'])
  else {
    console.error('Browser (Chromium, production builds on loopback)')
    const browser = await launchBrowser()
    const servers: PageServer[] = []
    try {
      const own = await attempt('build inbox-kit page', kitPage)
      const targets: MountTarget[] = []
      if ('error' in own) Object.assign(kit, { mount: own, longFeed: own, optimistic: own, requests: own })
      else {
        servers.push(own)
        targets.push(...kitMountTargets(own))
      }
      const floor = await attempt('build floor page', floorPage)
      if ('error' in floor) results.kits.floor!.mount = floor
      else {
        servers.push(floor)
        targets.push(floorMountTarget(floor))
      }
      for (const peer of PEERS) {
        const server = await attempt(`build ${peer.name} page`, () => peerPage(peer.entry))
        if ('error' in server) results.kits[peer.id]!.mount = server
        else {
          servers.push(server)
          targets.push({
            id: peer.id,
            server,
            path: '/',
            conditions: { bellRendered: peer.bell },
            open: { click: peer.open.click, conditions: { popoverShown: peer.open.shown } },
          })
        }
      }
      // The same apps built by esbuild into one file, as the issue measured: the kit closed, the floor, the peers.
      const oneFile: { id: string; target: MountTarget }[] = []
      const add = async (
        id: string,
        what: string,
        page: () => Promise<PageServer>,
        make: (s: PageServer) => MountTarget,
      ) => {
        const server = await attempt(`build ${what} page, one file`, page)
        if ('error' in server) results.kits[id]!.mountOneFile = server
        else {
          servers.push(server)
          oneFile.push({ id, target: { ...make(server), id: `${id} (one file)` } })
        }
      }
      await add(
        'inbox-kit',
        'inbox-kit',
        () => kitPage(true),
        (s) => kitMountTargets(s)[0]!,
      )
      await add(
        'floor',
        'floor',
        () => floorPage(true),
        (s) => floorMountTarget(s),
      )
      for (const peer of PEERS) {
        const vite = targets.find((t) => t.id === peer.id)
        if (vite)
          await add(
            peer.id,
            peer.name,
            () => peerPage(peer.entry, true),
            (s) => ({ ...vite, server: s }),
          )
      }
      targets.push(...oneFile.map((o) => o.target))
      const loads = await attempt(`mount, ${runs} loads each, taking turns`, () =>
        interleavedLoads(browser, targets, runs),
      )
      for (const { id, target } of oneFile) {
        const r = 'error' in loads ? loads : loads[target.id]!
        results.kits[id]!.mountOneFile = r
      }
      const loaded = (id: string) => ('error' in loads ? loads : loads[id]!)
      if (!('error' in floor)) results.kits.floor!.mount = loaded('floor')
      if (!('error' in own)) {
        const [closed, open] = [loaded('inbox-kit'), loaded('inbox-kit open')]
        const heap = (r: object) => (r as { heapBytes?: number }).heapBytes
        // The heap of the page loaded open (feed, rows, formatters) is its own figure, not the mount's.
        kit.mount =
          'error' in closed
            ? closed
            : 'error' in open
              ? open
              : { ...closed, ...open, heapBytes: heap(closed), heapOpenBytes: heap(open) }
        Object.assign(kit, await kitScenarios(browser, own, attempt))
      }
      for (const peer of PEERS) {
        const mount = targets.some((t) => t.id === peer.id) ? loaded(peer.id) : undefined
        if (mount)
          results.kits[peer.id]!.mount =
            'error' in mount
              ? mount
              : { ...mount, note: 'bell first render and popover open only: its cloud is unreachable here' }
      }
    } finally {
      await Promise.all(servers.map((s) => s.close()))
      await browser.close()
    }
  }

  results.extra = { ...previous?.extra }
  for (const name of SCRIPTS) {
    if (!only.has(name)) continue
    console.error(`bench/${name}.ts`)
    results.extra[name] = await attempt(`bench/${name}.ts`, async () => runScript(name))
  }

  if (only.has('service')) {
    console.error('Reference service')
    results.service = await attempt('bench/service.ts', async () => runServiceBench())
  } else if (previous) results.service = previous.service

  if (only.has('consistency')) {
    console.error('Consistency under failing writes, click latency (Chromium, production build)')
    const browser = await launchBrowser()
    try {
      results.consistency = await attempt(`bench/consistency.ts, ${seeds} seeds`, () =>
        measureConsistency(browser, {
          seeds: Array.from({ length: seeds }, (_, i) => i + 1),
          log: (line) => console.error(`    ${line}`),
        }),
      )
    } finally {
      await browser.close()
    }
  } else if (previous?.consistency) results.consistency = previous.consistency

  results.notes.push(
    'Every kit is built from what its package publishes: inbox-kit from its dist/ (the files of its tarball, built by `npm run build` first), the peers from their npm packages.',
    'Peers cannot reach their clouds from this machine: for them only the bundles, the first render of the bell and the click that opens the popover are measured.',
    `Mount times run from a mark placed before the app script loads to the state named, median of ${runs} fresh loads, the kits taking turns.`,
  )
  results.machine.loadAverage.end = round(loadavg()[0]!)
  mkdirSync(here('./results'), { recursive: true })
  writeFileSync(here('./results/latest.json'), JSON.stringify(results, null, 2) + '\n')
  console.log(renderTable(results))
  for (const note of results.notes) console.log(`- ${note}`)
  if (results.consistency && !('error' in results.consistency))
    console.log(`\n${renderConsistency(results.consistency)}`)
  console.log(`\nWritten to bench/results/latest.json`)
  if (args.includes('--readme')) {
    const readme = `${ROOT}/README.md`
    writeFileSync(readme, renderReadme(readFileSync(readme, 'utf8'), results))
    console.log('README.md benchmark section updated')
  }
}

/** A partial run (`--only`) keeps the figures it did not measure from the previous results. */
function carryOver(previous: BenchResults | undefined, results: BenchResults, keys: (keyof KitResult)[]): void {
  if (!previous) return
  for (const [id, kit] of Object.entries(previous.kits)) {
    const into = results.kits[id]
    if (!into) continue
    for (const key of keys) if (kit[key] !== undefined) Object.assign(into, { [key]: kit[key] })
  }
}

/** Runs one of the other benchmark scripts, which writes bench/results/<name>.json. */
function runScript(name: string): unknown {
  const script = here(`./${name}.ts`)
  if (!existsSync(script)) throw new Error(`bench/${name}.ts is missing`)
  const out = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, stdio: ['ignore', 2, 'inherit'] })
  if (out.status !== 0) throw new Error(`bench/${name}.ts exited ${out.status}`)
  return JSON.parse(readFileSync(here(`./results/${name}.json`), 'utf8'))
}

/** Runs the reference service's own benchmark (bench/service.ts, which writes bench/results/service.json). */
function runServiceBench(): unknown {
  const script = here('./service.ts')
  if (!existsSync(script)) throw new Error('bench/service.ts is missing')
  // Its own table goes to our stderr, so stdout keeps only the side-by-side table.
  const out = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, stdio: ['ignore', 2, 'inherit'] })
  if (out.status !== 0) throw new Error(`bench/service.ts exited ${out.status}`)
  return JSON.parse(readFileSync(here('./results/service.json'), 'utf8'))
}

await main()
