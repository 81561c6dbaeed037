import { describe, expect, it } from 'vitest'
import { buildFixture, integration } from '../support/fixtures'
import { rawService } from './helpers'

function fixture() {
  return buildFixture({
    apiKeys: [
      { key: 'dev-key', organizationId: 'org-1', environmentId: 'dev' },
      { key: 'prod-key', organizationId: 'org-1', environmentId: 'prod' },
      { key: 'other-key', organizationId: 'org-2', environmentId: 'elsewhere' },
    ],
    subscribers: [],
    integrations: [
      integration('email', 'email-a', {
        primary: true,
        environmentId: 'dev',
        credentials: { apiKey: 'k', senderName: 'S' },
      }),
      integration('email', 'email-b', { environmentId: 'dev' }),
      integration('email', 'email-c', { environmentId: 'dev', active: false }),
      integration('email', 'email-prod', { primary: true, environmentId: 'prod' }),
      integration('sms', 'sms-a', { environmentId: 'dev' }),
      integration('chat', 'chat-a', { environmentId: 'dev' }),
      integration('push', 'push-other', { environmentId: 'elsewhere' }),
    ],
  })
}

describe('integrations', () => {
  it('lists every active integration of the organization in all its environments', async () => {
    const { call } = rawService({ fixture: fixture() })
    const res = await call('/v1/integrations/active')
    expect(res.status).toBe(200)
    expect(res.json.map((i: any) => i.identifier)).toEqual(['email-a', 'email-b', 'email-prod', 'sms-a', 'chat-a'])
    const first = res.json[0]
    expect(first).toMatchObject({
      channel: 'email',
      primary: true,
      active: true,
      deleted: false,
      _environmentId: 'dev',
      _organizationId: 'org-1',
    })
    expect(first.credentials).toEqual({ apiKey: 'k', senderName: 'S' })
    expect('configurations' in first).toBe(false)
    expect((await call('/v1/integrations/active', { apiKey: 'other-key' })).json.map((i: any) => i.identifier)).toEqual(
      ['push-other'],
    )
  })

  it('set-primary moves primary within environment and channel only', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    const byIdentifier = (id: string) => service.state.integrations().find((i) => i.identifier === id)!
    let res = await call(`/v1/integrations/${byIdentifier('email-c')._id}/set-primary`, { method: 'POST' })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ identifier: 'email-c', primary: true, active: true, conditions: [] })
    expect(res.json.configurations).toBeTypeOf('object')
    expect(byIdentifier('email-a').primary).toBe(false)
    expect(byIdentifier('email-prod').primary).toBe(true)
    // Setting the current primary again changes nothing.
    res = await call(`/v1/integrations/${byIdentifier('email-c')._id}/set-primary`, { method: 'POST' })
    expect(res.json.primary).toBe(true)
    expect(
      service.state
        .integrations()
        .filter((i) => i.primary)
        .map((i) => i.identifier),
    ).toEqual(['email-c', 'email-prod'])
    res = await call(`/v1/integrations/${byIdentifier('sms-a')._id}/set-primary`, { method: 'POST' })
    expect(res.json.primary).toBe(true)
  })

  it('refuses channels without primary (400) and unknown ids (404)', async () => {
    const { call, service } = rawService({ fixture: fixture() })
    const chat = service.state.integrations().find((i) => i.identifier === 'chat-a')!
    let res = await call(`/v1/integrations/${chat._id}/set-primary`, { method: 'POST' })
    expect(res.status).toBe(400)
    expect(res.json.message).toBe('Channel chat does not support primary')
    res = await call('/v1/integrations/000000000000000000000000/set-primary', { method: 'POST' })
    expect(res.status).toBe(404)
    const foreign = service.state.integrations().find((i) => i.identifier === 'push-other')!
    expect((await call(`/v1/integrations/${foreign._id}/set-primary`, { method: 'POST' })).status).toBe(404)
  })
  it("set-primary reaches only the key's own environment: another environment's integration is 404 and stays as it was", async () => {
    const { call, service } = rawService({ fixture: fixture() })
    const before = JSON.stringify(service.state.integrations())
    const prod = service.state.integrations().find((i) => i.identifier === 'email-prod')!
    const dev = service.state.integrations().find((i) => i.identifier === 'email-b')!
    const res = await call(`/v1/integrations/${prod._id}/set-primary`, { method: 'POST', apiKey: 'dev-key' })
    expect(res.status).toBe(404)
    expect(res.json.message).toBe(`Integration ${prod._id} not found`)
    expect((await call(`/v1/integrations/${dev._id}/set-primary`, { method: 'POST', apiKey: 'prod-key' })).status).toBe(
      404,
    )
    expect(JSON.stringify(service.state.integrations())).toBe(before)
    // From its own environment it works as before.
    expect(
      (await call(`/v1/integrations/${prod._id}/set-primary`, { method: 'POST', apiKey: 'prod-key' })).status,
    ).toBe(200)
  })
})
