import { execFile } from 'node:child_process'
import { writeFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { DEMO_SUBSCRIBER_ID } from '../../server'
import { buildFixture } from '../support/fixtures'
import { startCli } from './spawn'

const run = promisify(execFile)

describe('npm run server', () => {
  it('serves a fixture over HTTP on 127.0.0.1 and prints the base URL and API key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-fixture-'))
    const file = join(dir, 'fixture.json')
    writeFileSync(file, JSON.stringify(buildFixture()))
    const { child, ready } = startCli(['--fixture', file, '--envelope'])
    try {
      const { url, apiKey } = await ready
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(apiKey).toBe('test-key')
      const headers = { authorization: `ApiKey ${apiKey}`, 'content-type': 'application/json' }
      const trigger = await fetch(`${url}/v1/events/trigger`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'test-workflow', to: 'user-1' }),
      })
      expect(trigger.status).toBe(201)
      expect((await trigger.json()).data.status).toBe('processed')
      const feed = await (await fetch(`${url}/v1/subscribers/user-1/notifications/feed`, { headers })).json()
      expect(feed.data[0].content).toBe('Hello Ada')
      expect(feed.totalCount).toBe(1)
      const bad = await fetch(`${url}/v1/events/trigger`, { method: 'POST', headers, body: '{' })
      expect(bad.status).toBe(400)
    } finally {
      child.kill()
    }
  })

  it('prints a subscriber of the fixture and a curl line that works as printed; --no-total-count drops totalCount', async () => {
    const { child, ready, printed } = startCli(['--no-total-count'])
    try {
      const { apiKey } = await ready
      const [, subscriber] = await printed(/^Subscriber: (\S+)$/m)
      const [, line] = await printed(/^Try: (.+)$/m)
      expect(subscriber).toBe(DEMO_SUBSCRIBER_ID)
      expect(line).toMatch(/^curl /)
      expect(line).toContain(apiKey)
      const { stdout } = await run('sh', ['-c', line!])
      const page = JSON.parse(stdout)
      expect(page.data.length).toBeGreaterThan(0)
      expect(
        page.data.every((m: { subscriber: { subscriberId: string } }) => m.subscriber.subscriberId === subscriber),
      ).toBe(true)
      expect(page).not.toHaveProperty('totalCount')
      expect(page).toMatchObject({ page: 0, hasMore: expect.any(Boolean) })
    } finally {
      child.kill()
    }
  })

  it('prints a trigger that creates the first subscriber when the fixture has none, quoted for any key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-fixture-'))
    const file = join(dir, 'fixture.json')
    const apiKeys = [{ key: "it's-a-key", organizationId: 'o', environmentId: 'e' }]
    writeFileSync(file, JSON.stringify({ ...buildFixture({ apiKeys }), subscribers: [], messages: [] }))
    const { child, ready, printed } = startCli(['--fixture', file])
    try {
      const { url, apiKey } = await ready
      await printed(/^Subscriber: none/m)
      const [, line] = await printed(/^Try: (.+)$/m)
      const { stdout } = await run('sh', ['-c', line!])
      expect(JSON.parse(stdout)).toMatchObject({ status: 'processed' })
      const feed = await fetch(`${url}/v1/subscribers/first-subscriber/notifications/feed`, {
        headers: { authorization: `ApiKey ${apiKey}` },
      })
      expect((await feed.json()).data).toHaveLength(1)
    } finally {
      child.kill()
    }
  })

  it('refuses a bad fixture naming the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-fixture-'))
    const file = join(dir, 'bad.json')
    writeFileSync(file, JSON.stringify({ apiKeys: [{ key: 'k', organizationId: 'o' }] }))
    const { ready } = startCli(['--fixture', file])
    await expect(ready).rejects.toThrow(/apiKeys\[0\]\.environmentId: required/)
  })
})
