import type { BundleCost } from './bundle'
import type { BenchResults, KitResult, Outcome } from './run'

const START = '<!-- bench:start (written by `npm run bench -- --readme`) -->'
const END = '<!-- bench:end -->'

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`
const ms = (n: number | undefined) => (n === undefined ? '–' : `${Math.round(n)} ms`)
const mb = (bytes: number | undefined) => (bytes === undefined ? '–' : `${(bytes / 1e6).toFixed(3)} MB`)
const ok = <T>(o: Outcome<T> | undefined): T | undefined =>
  o && typeof o === 'object' && 'error' in (o as object) ? undefined : (o as T | undefined)
const failed = (o: Outcome<unknown> | undefined) =>
  o && typeof o === 'object' && 'error' in (o as object) ? `failed: ${(o as { error: string }).error}` : undefined

type Row = [label: string, cell: (k: KitResult) => string]

const size =
  (pick: (b: BundleCost) => number, of: (k: KitResult) => Outcome<BundleCost> | undefined) => (k: KitResult) => {
    const b = ok(of(k))
    return b ? kb(pick(b)) : (failed(of(k)) ?? '–')
  }

const ROWS: Row[] = [
  [
    '**Full inbox, JS before the first render, gzip** (Vite)',
    size(
      (b) => b.js.gzip,
      (k) => k.bundle,
    ),
  ],
  [
    '… JS loaded after it or on intent, gzip',
    size(
      (b) => b.lazy.gzip,
      (k) => k.bundle,
    ),
  ],
  [
    '… CSS, gzip',
    size(
      (b) => b.css.gzip,
      (k) => k.bundle,
    ),
  ],
  [
    'Full inbox, all its JS in one esbuild file, gzip',
    (k) => {
      const b = ok(k.oneFile)
      return b ? kb(b.gzip) : (failed(k.oneFile) ?? '–')
    },
  ],
  [
    'Other shapes, gzip JS + CSS (parts / inline / page / Markdown)',
    (k) => {
      const shapes = k.shapes && ['parts', 'inline', 'page', 'markdown'].map((s) => ok(k.shapes?.[s])?.gzip)
      return shapes?.every((g) => g !== undefined) ? shapes.map((g) => kb(g!)).join(' / ') : '–'
    },
  ],
  [
    'Headless hooks alone, gzip: first chunk (Vite) / one esbuild file',
    (k) => {
      const [v, e] = [ok(k.hooksBundle)?.js.gzip, ok(k.hooksOneFile)?.gzip]
      return v === undefined && e === undefined
        ? '–'
        : `${v === undefined ? '–' : kb(v)} / ${e === undefined ? '–' : kb(e)}`
    },
  ],
  [
    'Mount (Vite build): bell drawn (first render)',
    (k) => (ok(k.mount) ? ms(ok(k.mount)?.bellRendered) : (failed(k.mount) ?? '–')),
  ],
  ['Mount (Vite build): JS heap after mount (collected)', (k) => mb(ok(k.mount)?.heapBytes)],
  ['Mount (Vite build): JS heap with the feed open (collected)', (k) => mb(ok(k.mount)?.heapOpenBytes)],
  [
    'Mount (one esbuild file): bell drawn (first render)',
    (k) => (ok(k.mountOneFile) ? ms(ok(k.mountOneFile)?.bellRendered) : (failed(k.mountOneFile) ?? '–')),
  ],
  ['Mount (one esbuild file): JS heap after mount (collected)', (k) => mb(ok(k.mountOneFile)?.heapBytes)],
  ['Mount: bell showing its count', (k) => ms(ok(k.mount)?.bellCount)],
  ['Mount: open feed showing page 1', (k) => ms(ok(k.mount)?.feedFirstPage)],
  ['Click on the bell → popover shown', (k) => ms(ok(k.mount)?.popoverShown)],
  ['Click on the bell → page 1 shown', (k) => ms(ok(k.mount)?.firstPageShown)],
  [
    'Long feed (10,000): rows in the DOM',
    (k) => {
      const f = ok(k.longFeed)
      if (!f) return failed(k.longFeed) ?? '–'
      return f.loaded < f.notifications ? `${f.renderedRows} (only ${f.loaded} loaded)` : String(f.renderedRows)
    },
  ],
  ['Long feed: DOM elements', (k) => String(ok(k.longFeed)?.domNodes ?? '–')],
  [
    'Long feed: frame time median / p95',
    (k) => {
      const f = ok(k.longFeed)?.frameMs
      return f ? `${f.median} / ${f.p95} ms` : '–'
    },
  ],
  [
    'Mark as read → item changes (300 ms latency)',
    (k) => (ok(k.optimistic) ? ms(ok(k.optimistic)?.itemMs.median) : (failed(k.optimistic) ?? '–')),
  ],
  ['Mark as read → badge changes (300 ms latency)', (k) => ms(ok(k.optimistic)?.badgeMs.median)],
  ['Requests: mount', (k) => String(ok(k.requests)?.mount ?? failed(k.requests) ?? '–')],
  ['Requests: open', (k) => String(ok(k.requests)?.open ?? '–')],
  ['Requests: mark one', (k) => String(ok(k.requests)?.markOne ?? '–')],
  ['Requests: mark all (250)', (k) => String(ok(k.requests)?.markAll250 ?? '–')],
  [
    'Requests: one poll, nothing new (closed / open)',
    (k) => {
      const r = ok(k.requests)
      return r ? `${r.pollNothingNew} / ${r.pollNothingNewOpen}` : '–'
    },
  ],
  [
    'Bytes received per poll, closed (5 / 150 unread)',
    (k) => {
      const r = ok(k.requests)
      return r ? `${kb(r.pollBytes)} / ${kb(r.pollBytesMany)}` : '–'
    },
  ],
]

/** The side-by-side table, in Markdown (it reads as plain text too). */
export function renderTable(results: BenchResults): string {
  const kits = Object.values(results.kits)
  const head = ['', ...kits.map((k) => `${k.package} ${k.version}`)]
  const lines = [
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...ROWS.map(([label, cell]) => `| ${[label, ...kits.map(cell)].join(' | ')} |`),
  ]
  // First DOM and heap against the floor's (React + React Query + zustand): what each kit adds to the path to the
  // bell. Inserted last first, so that the earlier row's place still holds.
  for (const [which, of] of [
    ['one esbuild file', (k: KitResult) => ok(k.mountOneFile)],
    ['Vite build', (k: KitResult) => ok(k.mount)],
  ] as const) {
    const floor = results.kits.floor && of(results.kits.floor)
    if (!floor?.bellRendered) continue
    const ratio = (k: KitResult, key: 'bellRendered' | 'heapBytes') => {
      const v = of(k)?.[key]
      return v && floor[key] ? `${(v / floor[key]).toFixed(2)}×` : '–'
    }
    const at = 2 + ROWS.findIndex(([label]) => label.startsWith(`Mount (${which}): bell drawn`)) + 1
    lines.splice(
      at,
      0,
      `| Mount (${which}): bell drawn ÷ the floor's / heap ÷ the floor's | ${kits.map((k) => `${ratio(k, 'bellRendered')} / ${ratio(k, 'heapBytes')}`).join(' | ')} |`,
    )
  }
  return [lines.join('\n'), '', renderService(results.service)].join('\n')
}

interface ServiceRow {
  case: string
  medianMs: number
  p99Ms: number
  items?: number
}

/** The reference service's own figures (bench/service.ts writes them as `results` rows). */
function renderService(service: Outcome<unknown>): string {
  const error = failed(service)
  if (error) return `Reference service: ${error}`
  const s = service as { messages?: number; subscriptions?: number; runs?: number; results?: ServiceRow[] }
  if (!Array.isArray(s.results)) return `Reference service: ${JSON.stringify(service)}`
  const n = (v: number | undefined) => (v === undefined ? '?' : v.toLocaleString('en'))
  return [
    `| Reference service, in process: ${n(s.messages)} messages, ${n(s.subscriptions)} subscriptions, ${n(s.runs)} runs | median | p99 |`,
    '| --- | ---: | ---: |',
    ...s.results.map((r) => `| ${r.case} | ${r.medianMs.toFixed(2)} ms | ${r.p99Ms.toFixed(2)} ms |`),
  ].join('\n')
}

/** The README's generated part: run line, machine and the table. */
function renderSection(results: BenchResults): string {
  const m = results.machine
  return [
    START,
    `Measured ${results.date.slice(0, 10)} with \`${results.command}\` on ${m.cpus} cores (${m.cpuModel}), ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}, ${m.chromium}; load average ${m.loadAverage.start} → ${m.loadAverage.end}. Bundler: ${results.bundler}. kB = 1,000 bytes.`,
    '',
    renderTable(results),
    END,
  ].join('\n')
}

/** Replaces the generated part of the README (or appends a Benchmarks section holding it). */
export function renderReadme(readme: string, results: BenchResults): string {
  const section = renderSection(results)
  const start = readme.indexOf(START)
  const end = readme.indexOf(END)
  if (start >= 0 && end > start) return readme.slice(0, start) + section + readme.slice(end + END.length)
  return `${readme.trimEnd()}\n\n## Benchmarks\n\n${section}\n`
}
