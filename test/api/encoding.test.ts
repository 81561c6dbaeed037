import { describe, expect, it, vi } from 'vitest'
import { createInboxClient } from '../../src/api/client'
import { encodePayloadFilter, randomKey } from '../../src/api/encoding'
import { TEST_SUBSCRIBER_ID } from '../support/fixtures'
import { setup } from './setup'

describe('request encoding', () => {
  it.each([false, true])('a Unicode payload filter round-trips (envelope: %s)', async (envelope) => {
    const { client, service, seen } = setup({ envelope })
    const api = client()
    const payload = { text: 'Grüße, 日本語 and 🎉', nested: { city: 'Zürich' } }
    await api.trigger({ name: 'test-workflow', to: 'user-2', payload })
    await api.trigger({ name: 'test-workflow', to: 'user-2', payload: { text: 'Grüße, 日本語 and 🎈' } })
    await service.settle()
    const page = await api.getFeed('user-2', { payload: { text: payload.text } })
    expect(page.data.map((m) => m.content)).toEqual(['Hello Bo Grüße, 日本語 and 🎉'])
    expect(page.data[0]!.payload).toEqual(payload)
    const nested = await api.getFeed('user-2', { payload: { nested: { city: 'Zürich' } } })
    expect(nested.data).toHaveLength(1)

    const sent = seen.at(-1)!.search.get('payload')!
    const bytes = Uint8Array.from(atob(sent), (c) => c.charCodeAt(0))
    expect(JSON.parse(new TextDecoder().decode(bytes))).toEqual({ nested: { city: 'Zürich' } })
  })

  it('encodes the payload filter as base64 of UTF-8 JSON', () => {
    expect(encodePayloadFilter({ a: 1 })).toBe(btoa('{"a":1}'))
    expect(encodePayloadFilter({ s: 'é' })).toBe(Buffer.from('{"s":"é"}', 'utf8').toString('base64'))
    // Past the engine's limit on a call's arguments, which spreading the bytes would hit.
    const big = { s: 'x'.repeat(300_000) }
    expect(encodePayloadFilter(big)).toBe(Buffer.from(JSON.stringify(big), 'utf8').toString('base64'))
  })

  it('idempotency keys are v4 UUIDs, also where crypto.randomUUID is missing (plain http pages)', () => {
    const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
    expect(randomKey()).toMatch(v4)
    const original = globalThis.crypto
    vi.stubGlobal('crypto', { getRandomValues: original.getRandomValues.bind(original) })
    try {
      const keys = new Set(Array.from({ length: 50 }, randomKey))
      expect(keys.size).toBe(50)
      for (const key of keys) expect(key).toMatch(v4)
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('encodes path segments, so any subscriberId works', async () => {
    const { client, seen } = setup()
    const api = client()
    const id = 'team/ä?x=1#frag%20'
    const result = await api.trigger({ name: 'test-workflow', to: { subscriberId: id, firstName: 'Odd' } })
    expect(result.status).toBe('processed')
    const page = await api.getFeed(id)
    expect(page.data[0]!.content).toMatch(/^Hello Odd/)
    expect(seen.at(-1)!.path).toBe(`/v1/subscribers/${encodeURIComponent(id)}/notifications/feed`)
  })

  it('works under a path prefix, such as a proxy mounted at /api', async () => {
    const { client, seen } = setup({ basePath: '/api' })
    const api = client()
    expect((await api.getFeed(TEST_SUBSCRIBER_ID)).data.length).toBeGreaterThan(0)
    expect(seen[0]!.path).toBe(`/api/v1/subscribers/${TEST_SUBSCRIBER_ID}/notifications/feed`)
    await expect(api.getPreferences('nobody')).rejects.toMatchObject({
      status: 404,
      path: '/v2/subscribers/nobody/preferences',
    })
  })

  it('leaves out absent parameters and sends numbers and booleans as text', async () => {
    const { client, seen } = setup()
    await client().getFeed(TEST_SUBSCRIBER_ID, { page: 0, limit: 5, read: false, seen: undefined })
    expect([...seen.at(-1)!.search]).toEqual([
      ['page', '0'],
      ['limit', '5'],
      ['read', 'false'],
    ])
    await client().getFeed(TEST_SUBSCRIBER_ID)
    expect(seen.at(-1)!.search.toString()).toBe('')
  })
})

describe('headers', () => {
  it('apiKey, headers and getHeaders are sent; getHeaders runs per request', async () => {
    const { client, service, seen } = setup()
    let token = 0
    const api = client({
      apiKey: undefined,
      headers: { 'X-App': 'demo' },
      getHeaders: async () => ({ Authorization: `ApiKey ${service.apiKey}`, 'X-Token': String(++token) }),
    })
    await api.listActiveIntegrations()
    await api.getPreferences(TEST_SUBSCRIBER_ID)
    expect(seen.map((r) => [r.headers.get('authorization'), r.headers.get('x-app'), r.headers.get('x-token')])).toEqual(
      [
        [`ApiKey ${service.apiKey}`, 'demo', '1'],
        [`ApiKey ${service.apiKey}`, 'demo', '2'],
      ],
    )
  })

  it('a header from getHeaders replaces the apiKey one', async () => {
    const { client, service, seen } = setup()
    const api = client({ apiKey: 'stale', getHeaders: () => ({ authorization: `ApiKey ${service.apiKey}` }) })
    await api.listActiveIntegrations()
    expect(seen[0]!.headers.get('authorization')).toBe(`ApiKey ${service.apiKey}`)
  })

  it('writes send JSON; set-primary sends no body', async () => {
    const { client, service, seen } = setup()
    await client().trigger({ name: 'test-workflow', to: 'user-2' })
    expect(seen[0]!.headers.get('content-type')).toBe('application/json')
    await client().setPrimaryIntegration(service.state.integrations()[0]!._id)
    expect(seen[1]!.headers.has('content-type')).toBe(false)
    expect(seen[1]!.headers.get('idempotency-key')).toBeTruthy()
  })

  it('uses globalThis.fetch at call time when no fetch is given', async () => {
    const { fetch, service, baseUrl } = setup()
    const api = createInboxClient({ baseUrl: `${baseUrl}/`, apiKey: service.apiKey, retry: false })
    const original = globalThis.fetch
    globalThis.fetch = fetch
    try {
      expect((await api.listActiveIntegrations()).length).toBeGreaterThan(0)
    } finally {
      globalThis.fetch = original
    }
  })
})
