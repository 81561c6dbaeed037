import { beforeEach, describe, expect, it } from 'vitest'
import { ADMIN_BODY_LIMIT, SESSION_BODY_LIMIT, createDemoBackend } from '../../demo/server/backend'
import { createService, demoFixture } from '../../server'
import type { Service } from '../../server'
import { createSubscriberToken } from '../../src/proxy'

// The demo backend's fetch handler in process, as the dev server mounts it; state is read from the service.
const ORIGIN = 'http://demo.test'
const SECRET = 'demo-backend-test-secret-of-at-least-32-bytes'
const SAME_ORIGIN = { origin: ORIGIN, 'sec-fetch-site': 'same-origin' }
const JSON_TYPE = { 'content-type': 'application/json' }

let service: Service
let backend: (request: Request) => Promise<Response>

beforeEach(() => {
  service = createService()
  backend = createDemoBackend({ service, secret: SECRET })
})

function call(path: string, init: RequestInit = {}) {
  return backend(new Request(ORIGIN + path, init))
}

async function session(subscriberId = 'demo-user'): Promise<string> {
  const response = await call('/demo-auth/session', {
    method: 'POST',
    headers: { ...SAME_ORIGIN, ...JSON_TYPE },
    body: JSON.stringify({ subscriberId }),
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { token: string }).token
}

/** Everything a refused request could have changed: subscribers (names), messages, integrations. */
function state(): string {
  const environments = demoFixture.apiKeys.map((k) => k.environmentId)
  return JSON.stringify({
    subscribers: environments.map((env) => service.state.subscribers(env)),
    messages: environments.map((env) =>
      service.state.subscribers(env).map((s) => service.state.messages(s.subscriberId, env)),
    ),
    integrations: service.state.integrations(),
  })
}

function integrationId(identifier: string): string {
  return service.state.integrations().find((i) => i.identifier === identifier)!._id
}

async function expectErrorShape(response: Response, status: number, path: string) {
  expect(response.status).toBe(status)
  const body = (await response.json()) as Record<string, unknown>
  expect(body).toMatchObject({ statusCode: status, path, error: expect.any(String), message: expect.any(String) })
  expect(Number.isNaN(Date.parse(body.timestamp as string))).toBe(false)
  return body
}

const mention = { authorName: 'Eve', documentTitle: 'x', documentId: 'x', commentId: 1, excerpt: 'x' }
const renameMara = JSON.stringify({
  name: 'comment-mention',
  to: 'u-mara',
  payload: mention,
  actor: { subscriberId: 'u-mara', firstName: 'Renamed' },
})

/** Each demo route with the body a cross-site page would send to it (a form, or JSON as text/plain). */
function routes(): { path: string; method: string; body?: string }[] {
  return [
    { path: '/demo-auth/session', method: 'POST', body: 'subscriberId=u-mara' },
    { path: '/demo-auth/session', method: 'POST', body: JSON.stringify({ subscriberId: 'u-mara' }) },
    { path: '/demo-admin/v1/events/trigger', method: 'POST', body: renameMara },
    {
      path: '/demo-admin/v1/events/trigger/bulk',
      method: 'POST',
      body: JSON.stringify({ events: [JSON.parse(renameMara)] }),
    },
    { path: `/demo-admin/v1/integrations/${integrationId('email-backup-prod')}/set-primary`, method: 'POST', body: '' },
    { path: '/demo-admin/directory', method: 'GET' },
    { path: '/demo-admin/v1/integrations/active', method: 'GET' },
    { path: '/demo-admin/v2/topics/team-platform/subscriptions', method: 'GET' },
  ]
}

/** What marks a request as another site's: fetch metadata, Origin, or both. */
const OTHER_SITES: Record<string, string>[] = [
  { 'sec-fetch-site': 'cross-site', origin: 'https://attacker.example' },
  { 'sec-fetch-site': 'same-site', origin: 'http://localhost:5174' },
  { 'sec-fetch-site': 'none' },
  { origin: 'https://attacker.example' },
  { origin: 'null' },
]

describe('the demo backend refuses other sites', () => {
  it('refuses a cross-site simple request to every route and changes nothing, even with a stolen token', async () => {
    const token = await session()
    const before = state()
    for (const route of routes()) {
      for (const site of OTHER_SITES) {
        for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
          for (const authorization of [{}, { authorization: `Bearer ${token}` }] as Record<string, string>[]) {
            const headers: Record<string, string> = { ...site, ...authorization }
            if (route.method === 'POST') headers['content-type'] = type
            const response = await call(route.path, {
              method: route.method,
              headers,
              ...(route.method === 'POST' ? { body: route.body } : {}),
            })
            const body = await expectErrorShape(response, 403, route.path)
            expect(JSON.stringify(body)).not.toMatch(/token/i)
          }
        }
      }
    }
    expect(state()).toBe(before)
    expect(service.state.subscriber('u-mara')?.firstName).not.toBe('Renamed')
  })

  it('refuses a same-origin post that is not JSON (415): a form or text/plain never reaches the service', async () => {
    const token = await session()
    const before = state()
    for (const route of routes().filter((r) => r.method === 'POST' && r.body)) {
      for (const type of ['application/x-www-form-urlencoded', 'text/plain', null]) {
        const headers: Record<string, string> = { ...SAME_ORIGIN, authorization: `Bearer ${token}` }
        if (type) headers['content-type'] = type
        await expectErrorShape(await call(route.path, { method: 'POST', headers, body: route.body! }), 415, route.path)
      }
    }
    expect(state()).toBe(before)
  })
})

describe('the admin routes need a demo session', () => {
  it('answers 401 without a token, with a forged, expired or foreign one, and changes nothing', async () => {
    const before = state()
    const expired = await createSubscriberToken('demo-user', SECRET, { expiresIn: 60, now: () => Date.now() - 120_000 })
    const foreign = await createSubscriberToken('demo-user', 'another-secret-of-at-least-thirty-two-bytes', {
      expiresIn: 60,
    })
    const forged = (await session()).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))
    for (const route of routes().filter((r) => r.path.startsWith('/demo-admin'))) {
      for (const authorization of [
        null,
        'Bearer',
        `Bearer ${forged}`,
        `Bearer ${expired}`,
        `Bearer ${foreign}`,
        `ApiKey ${service.apiKey}`,
      ]) {
        const headers: Record<string, string> = { ...SAME_ORIGIN, ...JSON_TYPE }
        if (authorization) headers.authorization = authorization
        const response = await call(route.path, {
          method: route.method,
          headers,
          ...(route.body ? { body: route.body } : {}),
        })
        const body = await expectErrorShape(response, 401, route.path)
        expect(body.message).toContain('/demo-auth/session')
      }
    }
    expect(state()).toBe(before)
  })

  it('works with a session from the sign-in route, same-origin and JSON: trigger, set primary, directory', async () => {
    const token = await session()
    const headers = { ...SAME_ORIGIN, ...JSON_TYPE, authorization: `Bearer ${token}` }
    const before = service.state.messages('u-jonah').length
    const triggered = await call('/demo-admin/v1/events/trigger', {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'comment-mention', to: 'u-jonah', payload: mention }),
    })
    expect(triggered.status).toBe(201)
    await expect.poll(() => service.state.messages('u-jonah').length).toBeGreaterThan(before)

    const backup = integrationId('email-backup-dev')
    const { 'content-type': _, ...noBody } = headers
    const primary = await call(`/demo-admin/v1/integrations/${backup}/set-primary`, { method: 'POST', headers: noBody })
    expect(primary.ok).toBe(true)
    expect(service.state.integrations().find((i) => i._id === backup)?.primary).toBe(true)

    // A script without a browser sends neither Origin nor fetch metadata: not a visitor's browser, so let through.
    const directory = await call('/demo-admin/directory', { headers: { authorization: `Bearer ${token}` } })
    expect(directory.status).toBe(200)
    expect(((await directory.json()) as { subscribers: unknown[] }).subscribers.length).toBeGreaterThan(10)
  })
})

describe('the demo routes cap their bodies and answer bad input with 4xx in the service error shape', () => {
  const streamOf = (size: number) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let sent = 0; sent < size; sent += 64 * 1024)
          controller.enqueue(new Uint8Array(Math.min(64 * 1024, size - sent)).fill(32))
        controller.close()
      },
    })

  it('answers 413 to an oversized sign-in or admin body, declared or streamed, and changes nothing', async () => {
    const token = await session()
    const before = state()
    const cases = [
      { path: '/demo-auth/session', limit: SESSION_BODY_LIMIT },
      { path: '/demo-admin/v1/events/trigger', limit: ADMIN_BODY_LIMIT },
      { path: '/demo-admin/v1/events/trigger/bulk', limit: ADMIN_BODY_LIMIT },
    ]
    for (const { path, limit } of cases) {
      const headers = { ...SAME_ORIGIN, ...JSON_TYPE, authorization: `Bearer ${token}` }
      const padded = JSON.stringify({
        subscriberId: 'u-mara',
        name: 'comment-mention',
        to: 'u-mara',
        pad: 'x'.repeat(limit),
      })
      const declared = { ...headers, 'content-length': String(new TextEncoder().encode(padded).length) }
      await expectErrorShape(await call(path, { method: 'POST', headers: declared, body: padded }), 413, path)
      await expectErrorShape(await call(path, { method: 'POST', headers, body: padded }), 413, path)
      // No Content-Length: the reader stops at the limit instead of trusting a header.
      const streamed = await call(path, {
        method: 'POST',
        headers,
        body: streamOf(limit + 1),
        duplex: 'half',
      } as RequestInit)
      await expectErrorShape(streamed, 413, path)
    }
    expect(state()).toBe(before)
  })

  it('names the bad field (422), the unknown subscriber (404), the wrong method (405) and bad JSON (400)', async () => {
    const post = (body: string) =>
      call('/demo-auth/session', { method: 'POST', headers: { ...SAME_ORIGIN, ...JSON_TYPE }, body })
    const missing = await expectErrorShape(await post('{}'), 422, '/demo-auth/session')
    expect(missing.errors).toHaveProperty('subscriberId')
    const wrongType = await expectErrorShape(await post('{"subscriberId": 42}'), 422, '/demo-auth/session')
    expect(wrongType.errors).toMatchObject({ subscriberId: { value: 42 } })
    await expectErrorShape(await post('{"subscriberId": "nobody"}'), 404, '/demo-auth/session')
    await expectErrorShape(await post('{"subscriberId": '), 400, '/demo-auth/session')
    await expectErrorShape(await post(''), 400, '/demo-auth/session')
    const get = await call('/demo-auth/session', { headers: SAME_ORIGIN })
    await expectErrorShape(get, 405, '/demo-auth/session')
    expect(get.headers.get('allow')).toBe('POST')
    const token = await session()
    const unknown = await call('/demo-admin/v1/subscribers', {
      headers: { ...SAME_ORIGIN, authorization: `Bearer ${token}` },
    })
    expect((await expectErrorShape(unknown, 404, '/demo-admin/v1/subscribers')).message).toBe(
      'Cannot GET /demo-admin/v1/subscribers',
    )
  })
})
