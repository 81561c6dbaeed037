import { spawn } from 'node:child_process'
import { writeFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildFixture } from '../support/fixtures'

function start(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', '--port', '0', ...args], {
    cwd: join(import.meta.dirname, '../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  const ready = new Promise<{ url: string; apiKey: string }>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const url = /listening on (\S+)/.exec(out)?.[1]
      const apiKey = /API key: (\S+)/.exec(out)?.[1]
      if (url && apiKey) resolve({ url, apiKey })
    })
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)))
  })
  return { child, ready, stderr: () => err }
}

describe('npm run server', () => {
  it('serves a fixture over HTTP on 127.0.0.1 and prints the base URL and API key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-fixture-'))
    const file = join(dir, 'fixture.json')
    writeFileSync(file, JSON.stringify(buildFixture()))
    const { child, ready } = start(['--fixture', file, '--envelope'])
    try {
      const { url, apiKey } = await ready
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(apiKey).toBe('test-key')
      const headers = { authorization: `ApiKey ${apiKey}`, 'content-type': 'application/json' }
      const trigger = await fetch(`${url}/v1/events/trigger`, { method: 'POST', headers, body: JSON.stringify({ name: 'test-workflow', to: 'user-1' }) })
      expect(trigger.status).toBe(201)
      expect((await trigger.json()).data.status).toBe('processed')
      const feed = await (await fetch(`${url}/v1/subscribers/user-1/notifications/feed`, { headers })).json()
      expect(feed.data[0].content).toBe('Hello Ada')
      const bad = await fetch(`${url}/v1/events/trigger`, { method: 'POST', headers, body: '{' })
      expect(bad.status).toBe(400)
    } finally {
      child.kill()
    }
  })

  it('refuses a bad fixture naming the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-fixture-'))
    const file = join(dir, 'bad.json')
    writeFileSync(file, JSON.stringify({ apiKeys: [{ key: 'k', organizationId: 'o' }] }))
    const { ready } = start(['--fixture', file])
    await expect(ready).rejects.toThrow(/apiKeys\[0\]\.environmentId: required/)
  })
})
