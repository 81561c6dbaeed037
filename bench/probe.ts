import type { Page } from 'playwright-core'

/**
 * A condition checked in the page: the body of a function of no arguments returning truthy once the
 * state is reached. Strings, because they run in the page, not in Node.
 */
export type Condition = string

/** The in-page half: watches conditions on every DOM mutation and every frame. */
function install(conditions: Record<string, string>): void {
  const g = globalThis as unknown as { __name: (f: unknown) => unknown; __bench: unknown }
  // tsx keeps function names through a helper that does not exist in the page.
  g.__name = (f: unknown) => f
  const seen: Record<string, number> = {}
  const pending = new Map(Object.entries(conditions).map(([name, body]) => [name, new Function(body) as () => unknown]))
  const since = () => {
    const start = performance.getEntriesByName('script-start')[0]
    return performance.now() - (start ? start.startTime : 0)
  }
  // Watching costs the page work, so it runs only while a condition is pending (not during the long-feed scroll).
  const observer = new MutationObserver(() => check())
  let active = false
  const check = () => {
    for (const [name, condition] of pending) {
      let ok = false
      try {
        ok = Boolean(condition())
      } catch {
        ok = false
      }
      if (ok) {
        seen[name] = since()
        pending.delete(name)
      }
    }
    if (pending.size === 0 && active) {
      observer.disconnect()
      active = false
    }
  }
  const frame = () => {
    if (!active) return
    check()
    requestAnimationFrame(frame)
  }
  const start = () => {
    if (active || pending.size === 0) return
    active = true
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
    requestAnimationFrame(frame)
  }
  const watch = (next: Record<string, string>) => {
    for (const [name, body] of Object.entries(next)) pending.set(name, new Function(body) as () => unknown)
    check()
    start()
  }
  start()
  const bench = { seen, watch, since, clickAt: NaN }
  // Capture phase on window: the earliest a page script can see the click.
  addEventListener('click', () => (bench.clickAt = since()), { capture: true })
  g.__bench = bench
}

/** Installs the watcher before any page script runs. */
export async function watchPage(page: Page, conditions: Record<string, Condition>): Promise<void> {
  await page.addInitScript(install, conditions)
}

/** Adds conditions to watch from now on. */
export async function watchMore(page: Page, conditions: Record<string, Condition>): Promise<void> {
  await page.evaluate((c) => (globalThis as any).__bench.watch(c), conditions)
}

/** Waits until `name` has been seen and returns its time (ms since `script-start`). */
export async function seenAt(page: Page, name: string, timeout = 15_000): Promise<number> {
  const handle = await page.waitForFunction((n) => (globalThis as any).__bench?.seen[n], name, { timeout, polling: 50 })
  return Number(await handle.jsonValue())
}

/** When the page last saw a click, in ms since `script-start`. */
export async function clickedAt(page: Page): Promise<number> {
  return Number(await page.evaluate(() => (globalThis as any).__bench.clickAt))
}

/** Now, in ms since `script-start`, as the page sees it. */
export function pageNow(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as any).__bench.since() as number)
}

/** Median and 95th/99th percentile of a sample. */
export function stats(values: number[]): { median: number; p95: number; p99: number; n: number } {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN
  return { median: at(0.5), p95: at(0.95), p99: at(0.99), n: sorted.length }
}
