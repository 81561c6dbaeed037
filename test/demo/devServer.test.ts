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
const AS: Record<string, string>[] = [
  { 'sec-fetch-dest': 'script', accept: '*/*' },
  { 'sec-fetch-dest': 'document', accept: 'text/html' },
  {},
]

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
    const preflight = await get(
      base,
      '/demo-auth/session',
      {
        origin: 'http://localhost:5174',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
      'OPTIONS',
    )
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
    const module = await get(base, '/main.tsx', { origin: 'http://localhost:5174', 'sec-fetch-dest': 'script' })
    expect(module.status).toBe(200)
    expect(module.headers['access-control-allow-origin']).toBeUndefined()
  })
})

/** Signs in as a script would (no browser, so no Origin and no fetch metadata) and returns the token. */
async function signIn(subscriberId: string): Promise<string> {
  const body = JSON.stringify({ subscriberId })
  const response = await get(base, '/demo-auth/session', { 'content-type': 'application/json' }, 'POST', body)
  expect(response.status).toBe(200)
  return (JSON.parse(response.body) as { token: string }).token
}

/** What the service holds that a forged request could change, read through the demo's own routes. */
async function serviceState(): Promise<string> {
  const admin = { authorization: `Bearer ${await signIn('demo-user')}` }
  const mara = { authorization: `Bearer ${await signIn('u-mara')}` }
  const reads = await Promise.all([
    get(base, '/demo-admin/directory', admin),
    get(base, '/demo-admin/v1/integrations/active', admin),
    get(base, '/api/inbox/v1/subscribers/u-mara/notifications/feed?limit=100', mara),
  ])
  for (const read of reads) expect(read.status).toBe(200)
  const [directory, integrations, feed] = reads.map((r) => JSON.parse(r.body) as Record<string, unknown>)
  return JSON.stringify({ subscribers: directory!.subscribers, integrations, feed: feed!.totalCount ?? feed!.data })
}

describe("the demo's sign-in and admin routes over HTTP", { timeout: 30_000 }, () => {
  const attacker = { 'sec-fetch-site': 'cross-site', origin: 'https://attacker.example' }
  const forms = [
    ['application/x-www-form-urlencoded', 'subscriberId=u-mara&name=comment-mention&to=u-mara'],
    [
      'text/plain',
      JSON.stringify({
        subscriberId: 'u-mara',
        name: 'comment-mention',
        to: 'u-mara',
        actor: { subscriberId: 'u-mara', firstName: 'Renamed' },
      }),
    ],
  ]

  it('refuses a cross-site simple post to every route (403) and the service holds what it held', async () => {
    const before = await serviceState()
    const integrations = JSON.parse(before).integrations as { _id: string; primary: boolean; channel: string }[]
    const backup = integrations.find((i) => i.channel === 'email' && !i.primary)!._id
    const routes = [
      '/demo-auth/session',
      '/demo-admin/v1/events/trigger',
      '/demo-admin/v1/events/trigger/bulk',
      `/demo-admin/v1/integrations/${backup}/set-primary`,
    ]
    for (const route of routes) {
      for (const [type, body] of forms) {
        const response = await get(base, route, { ...attacker, 'content-type': type! }, 'POST', body)
        expect(response.status, route).toBe(403)
        expect(JSON.parse(response.body)).toMatchObject({ statusCode: 403, path: route, error: 'Forbidden' })
        expect(response.body).not.toMatch(/token/i)
      }
    }
    expect(await serviceState()).toBe(before)
  })

  it('refuses the admin routes without a session (401) and oversized bodies (413), declared or chunked', async () => {
    const before = await serviceState()
    const trigger = JSON.stringify({ name: 'comment-mention', to: 'u-mara', payload: {} })
    const json = { 'content-type': 'application/json' }
    expect((await get(base, '/demo-admin/v1/events/trigger', json, 'POST', trigger)).status).toBe(401)
    expect((await get(base, '/demo-admin/directory')).status).toBe(401)

    const admin = { ...json, authorization: `Bearer ${await signIn('demo-user')}` }
    const huge = JSON.stringify({ name: 'comment-mention', to: 'u-mara', payload: { pad: 'x'.repeat(1024 * 1024) } })
    expect((await get(base, '/demo-admin/v1/events/trigger', admin, 'POST', huge)).status).toBe(413)
    const chunked = { ...admin, 'transfer-encoding': 'chunked' }
    expect((await get(base, '/demo-admin/v1/events/trigger/bulk', chunked, 'POST', huge)).status).toBe(413)
    const longName = JSON.stringify({ subscriberId: 'u-mara', pad: 'x'.repeat(2048) })
    expect((await get(base, '/demo-auth/session', json, 'POST', longName)).status).toBe(413)
    expect(await serviceState()).toBe(before)
  })
})
