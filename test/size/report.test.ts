import { describe, expect, it } from 'vitest'
import { stats } from '../../bench/probe'
import type { BenchResults } from '../../bench/run'
import { renderReadme, renderTable } from '../../bench/table'

const cost = (gzip: number) => ({
  min: gzip * 4,
  gzip,
  js: { min: gzip * 4, gzip },
  css: { min: 0, gzip: 0 },
  lazy: { min: 0, gzip: 0 },
  breakdown: {},
  lazyBreakdown: {},
})

function results(gzip: number): BenchResults {
  return {
    date: '2026-11-22T05:00:00.000Z',
    command: 'npm run bench',
    measured: ['size', 'browser', 'service'],
    machine: {
      cpus: 2,
      cpuModel: 'AMD EPYC',
      memoryGiB: 24,
      os: 'linux x64',
      node: 'v20',
      chromium: 'Chromium',
      loadAverage: { start: 1, end: 2 },
    },
    bundler: 'vite',
    kits: {
      'inbox-kit': { package: 'inbox-kit', version: '0.1.0', bundle: cost(gzip) },
      novu: { package: '@novu/react', version: '3', bundle: { error: 'Build failed: no entry' } },
    },
    service: { error: 'bench/service.ts is missing' },
    notes: [],
  }
}

describe('bench report', () => {
  it('shows a failed peer build with its reason instead of dropping it', () => {
    const table = renderTable(results(46_100))
    expect(table).toContain(
      '| **Full inbox, JS before the first render, gzip** (Vite) | 46.1 kB | failed: Build failed: no entry |',
    )
    expect(table).toContain('Reference service: failed: bench/service.ts is missing')
  })

  it('appends a Benchmarks section once, then replaces only the generated part', () => {
    const first = renderReadme('# inbox-kit\n\nIntro.\n', results(46_100))
    expect(first.match(/## Benchmarks/g)).toHaveLength(1)
    const edited = first.replace('<!-- bench:end -->', '<!-- bench:end -->\n\nHand-written note.')
    const second = renderReadme(edited, results(40_000))
    expect(second).toContain('40.0 kB')
    expect(second).not.toContain('46.1 kB')
    expect(second).toContain('Hand-written note.')
    expect(second.startsWith('# inbox-kit\n\nIntro.\n')).toBe(true)
    expect(second.match(/## Benchmarks/g)).toHaveLength(1)
  })

  it('takes the median and percentiles from the sample, not its order', () => {
    const s = stats([40, 10, 30, 20, 100, 50, 60, 70, 80, 90])
    expect(s.median).toBe(50)
    expect(s.p95).toBe(100)
    expect(s.n).toBe(10)
  })
})
