import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { checkStory, openPreview } from './checkStory'
import type { IndexEntry } from './checkStory'
import { serveStatic } from './staticServer'

let outDir = ''
let site: Awaited<ReturnType<typeof serveStatic>> | undefined
let browser: Browser | undefined
let stories: IndexEntry[] = []

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CI: 'true' } })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}\n${stderr}`))))
  })
}

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'inbox-kit-storybook-'))
  const started = Date.now()
  await run(process.execPath, ['node_modules/storybook/dist/bin/dispatcher.js', 'build', '-o', outDir, '--quiet'])
  console.info(`storybook build: ${((Date.now() - started) / 1000).toFixed(1)} s`)
  const index = JSON.parse(await readFile(join(outDir, 'index.json'), 'utf8')) as {
    entries: Record<string, IndexEntry>
  }
  stories = Object.values(index.entries).filter((entry) => entry.type === 'story')
  site = await serveStatic(outDir)
  browser = await launchBrowser()
}, 300_000)

afterAll(async () => {
  await browser?.close()
  await site?.close()
  if (outDir) await rm(outDir, { recursive: true, force: true })
})

describe('every story renders clean in Chromium', () => {
  it('has every scenario of the inbox and a States story for every component', () => {
    const names = (title: string) => stories.filter((s) => s.title === title).map((s) => s.name)
    for (const name of ['Inbox', 'Bell', 'Feed', 'NotificationItem', 'PreferencesPanel', 'TopicSubscriptions']) {
      expect(names(`Inbox/${name}`), name).toContain('States')
    }
    const scenarios = ['Default', 'Unread', 'Empty', 'Loading', 'Error', 'Long Feed', 'Dark', 'RTL', 'Unstyled']
    expect(names('Inbox/Inbox')).toEqual(expect.arrayContaining([...scenarios, 'Custom Render', 'Headless']))
    // Every failure the inbox tells apart has a story of its own, and so do toasts.
    expect(names('Inbox/Inbox')).toEqual(
      expect.arrayContaining(['Signed Out', 'Forbidden', 'Not Found', 'Unavailable', 'Malformed']),
    )
    expect(names('Inbox/Toaster')).toEqual(expect.arrayContaining(['Default', 'Dark', 'RTL']))
  })

  it('renders every story without an error or an axe violation', async () => {
    const started = Date.now()
    // Two pages share the stories: one core each.
    const lanes = [0, 1].map(async (lane) => {
      const mine = stories.filter((_, i) => i % 2 === lane)
      const page = await browser!.newPage()
      await openPreview(page, site!.url, mine[0]!.id)
      const problems: string[] = []
      for (const story of mine) problems.push(...(await checkStory(page, story)))
      await page.close()
      return problems
    })
    const problems = (await Promise.all(lanes)).flat()
    console.info(`${stories.length} stories checked in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    expect(problems.join('\n')).toBe('')
  }, 600_000)
})
