import type { Browser, Page } from 'playwright-core'
import { buildOneFilePage, buildPage, servePage, type PageServer } from './pages'
import { clickedAt, seenAt, stats, watchMore, watchPage, type Condition } from './probe'

/** How many fresh page loads each mount figure is the median of. */
export const MOUNT_RUNS = 21

/** Pause between mount and the click on the bell, so the click does not race the mount's own work. */
const SETTLE_MS = 500

/** A fresh context per load: empty cache, no state carried over. */
export async function freshPage(browser: Browser, server: PageServer): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  // Nothing leaves loopback: the peers' clouds are unreachable here, so their calls fail at once.
  await page.route(
    (url) => !url.href.startsWith(server.url),
    (route) => route.abort('internetdisconnected'),
  )
  return page
}

/** One page whose load is timed: where it is served and what to wait for. */
export interface MountTarget {
  id: string
  server: PageServer
  path: string
  conditions: Record<string, Condition>
  /** Once mounted and settled: click `click` and time each condition from the click. */
  open?: { click: string; conditions: Record<string, Condition> }
}

/**
 * Median time from `script-start` to each target's conditions over `runs` fresh loads. The targets
 * take turns, load by load, so that whatever else the machine is doing falls on all of them alike.
 * A target that fails is recorded as failed and dropped from the following rounds.
 */
export async function interleavedLoads(
  browser: Browser,
  targets: MountTarget[],
  runs = MOUNT_RUNS,
): Promise<Record<string, Record<string, number> | { error: string }>> {
  const samples: Record<string, Record<string, number[]>> = {}
  const failed: Record<string, { error: string }> = {}
  for (let i = 0; i < runs; i++) {
    for (const target of targets) {
      if (failed[target.id]) continue
      const page = await freshPage(browser, target.server)
      try {
        await watchPage(page, target.conditions)
        await page.goto(target.server.url + target.path)
        const own = (samples[target.id] ??= {})
        for (const name of Object.keys(target.conditions)) (own[name] ??= []).push(await seenAt(page, name))
        ;(own.heapBytes ??= []).push(await cleanHeap(browser, target))
        await page.waitForTimeout(SETTLE_MS)
        if (target.open) {
          await watchMore(page, target.open.conditions)
          await page.locator(target.open.click).first().click()
          const at = await clickedAt(page)
          for (const name of Object.keys(target.open.conditions))
            (own[name] ??= []).push((await seenAt(page, name)) - at)
        }
      } catch (error) {
        failed[target.id] = { error: error instanceof Error ? error.message.split('\n')[0]! : String(error) }
      } finally {
        await page.context().close()
      }
    }
  }
  return Object.fromEntries(
    targets.map((t) => [
      t.id,
      failed[t.id] ??
        Object.fromEntries(Object.entries(samples[t.id] ?? {}).map(([name, v]) => [name, round(stats(v).median)])),
    ]),
  )
}

/**
 * The JS heap a page keeps once mounted and settled, after a full collection, on a load of its own: no script
 * of the bench's in the page (the timing loads watch every DOM change, and Playwright's own helpers live in the
 * page's heap once it evaluates anything), the first condition polled over the DevTools protocol instead.
 */
async function cleanHeap(browser: Browser, target: MountTarget): Promise<number> {
  const page = await freshPage(browser, target.server)
  try {
    const cdp = await page.context().newCDPSession(page)
    await page.goto(target.server.url + target.path)
    const [body] = Object.values(target.conditions)
    const expression = `Boolean((() => { ${body} })())`
    for (const deadline = Date.now() + 15_000; ;) {
      const { result } = await cdp.send('Runtime.evaluate', { expression, returnByValue: true })
      if (result.value === true) break
      if (Date.now() > deadline) throw new Error(`${target.id}: not mounted in 15 s`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
    await cdp.send('HeapProfiler.collectGarbage')
    return (await cdp.send('Runtime.getHeapUsage')).usedSize
  } finally {
    await page.context().close()
  }
}

/** Builds a peer's tiny app as a production page and serves it on loopback (no API behind it). */
export async function peerPage(entry: string, oneFile = false): Promise<PageServer> {
  return servePage(await (oneFile ? buildOneFilePage : buildPage)(entry))
}

/** One decimal place: timings are not more precise than that. */
export const round = (n: number) => Math.round(n * 10) / 10
