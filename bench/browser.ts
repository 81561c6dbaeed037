import type { Browser, Page } from 'playwright-core'
import { buildPage, servePage, type PageServer } from './pages'
import { seenAt, stats, watchPage, type Condition } from './probe'

/** How many fresh page loads each mount figure is the median of. */
export const MOUNT_RUNS = 7

/** A fresh context per load: empty cache, no state carried over. */
export async function freshPage(browser: Browser, server: PageServer): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  // Nothing leaves loopback: the peers' clouds are unreachable here, so their calls fail at once.
  await page.route((url) => !url.href.startsWith(server.url), (route) => route.abort('internetdisconnected'))
  return page
}

/** Median time from `script-start` to each condition, over {@link MOUNT_RUNS} fresh loads. */
export async function medianLoads(
  browser: Browser,
  server: PageServer,
  conditions: Record<string, Condition>,
  path = '/',
  runs = MOUNT_RUNS,
): Promise<Record<string, number>> {
  const samples: Record<string, number[]> = {}
  for (let i = 0; i < runs; i++) {
    const page = await freshPage(browser, server)
    await watchPage(page, conditions)
    await page.goto(server.url + path)
    for (const name of Object.keys(conditions)) (samples[name] ??= []).push(await seenAt(page, name))
    await page.context().close()
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, round(stats(values).median)]))
}

/** Peer mount: only the bell's first render can be measured without the peer's cloud. */
export async function peerMount(browser: Browser, entry: string, bell: Condition): Promise<{ bellRendered: number }> {
  const dir = await buildPage(entry)
  const server = await servePage(dir)
  try {
    const { bell: bellRendered } = await medianLoads(browser, server, { bell })
    return { bellRendered: bellRendered! }
  } finally {
    await server.close()
  }
}

/** One decimal place: timings are not more precise than that. */
export const round = (n: number) => Math.round(n * 10) / 10
