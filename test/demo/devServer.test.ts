import type { ViteDevServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startVite } from '../support/browser'
import { ATTACK_URLS, DEMO_KEYS, get } from './attack'

// `npm run dev`'s server, from the demo's own config, over real HTTP.
let server: ViteDevServer
let base: string

beforeAll(async () => {
  ;({ server, url: base } = await startVite({ configFile: 'demo/vite.config.ts' }))
}, 60_000)

afterAll(async () => {
  await server?.close()
})

/** How browsers ask for a module, a page, and how a script without a browser asks. */
const AS: Record<string, string>[] = [{ 'sec-fetch-dest': 'script', accept: '*/*' }, { 'sec-fetch-dest': 'document', accept: 'text/html' }, {}]

function expectNoKey(url: string, body: string) {
  for (const key of DEMO_KEYS) expect(body.includes(key), `${url} answered with an API key`).toBe(false)
}

/** Loads the page and every module it imports, transitively, as the browser would; returns the URLs. */
async function loadPage(): Promise<string[]> {
  const html = await get(base, '/', { 'sec-fetch-dest': 'document', accept: 'text/html' })
  expect(html.status).toBe(200)
  expectNoKey('/', html.body)
  const queue = [...html.body.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => {
    const url = new URL(m[1]!, `${base}/`)
    return url.pathname + url.search
  })
  const seen = new Set(queue)
  for (let url = queue.shift(); url; url = queue.shift()) {
    const module = await get(base, url, AS[0])
    expect(module.status, url).toBe(200)
    expectNoKey(url, module.body)
    for (const [, next] of module.body.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'](\/[^"']+)["']/g)) {
      if (!seen.has(next!)) seen.add(next!) && queue.push(next!)
    }
  }
  return [...seen]
}

async function attack(urls: readonly string[]) {
  const answers: string[] = []
  for (const url of urls) {
    for (const headers of AS) {
      const { status, body } = await get(base, url, headers)
      expectNoKey(url, body)
      answers.push(`${status} ${url}`)
    }
  }
  return answers
}

describe("the demo's dev server serves the page's code only", { timeout: 60_000 }, () => {
  it('answers 403/404 to every way of asking for the config, the server code and the fixture, whatever came first', async () => {
    const cold = await attack(ATTACK_URLS)
    // Opening the page fills Vite's module graph; nothing it holds may open the way to a server file.
    const page = await loadPage()
    const warm = await attack([...ATTACK_URLS].reverse())
    for (const answer of [...cold, ...warm]) expect(answer).toMatch(/^40[34] /)

    expect(page).toContain('/main.tsx')
    expect(page.some((url) => url.includes('/src/components/'))).toBe(true)
    expect(page.length).toBeGreaterThan(50)
  })

  it('refuses a preflight from another local origin: no CORS header, so its page cannot read the answers', async () => {
    const preflight = await get(base, '/demo-auth/session', {
      origin: 'http://localhost:5174',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    }, 'OPTIONS')
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
    const module = await get(base, '/main.tsx', { origin: 'http://localhost:5174', 'sec-fetch-dest': 'script' })
    expect(module.status).toBe(200)
    expect(module.headers['access-control-allow-origin']).toBeUndefined()
  })
})
