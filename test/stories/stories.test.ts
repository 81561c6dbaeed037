import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { axeViolations } from '../e2e/axe'
import { serveStatic } from './staticServer'

interface IndexEntry {
  id: string
  title: string
  name: string
  type: 'story' | 'docs'
}

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
  const index = JSON.parse(await readFile(join(outDir, 'index.json'), 'utf8')) as { entries: Record<string, IndexEntry> }
  stories = Object.values(index.entries).filter((entry) => entry.type === 'story')
  site = await serveStatic(outDir)
  browser = await launchBrowser()
}, 300_000)

afterAll(async () => {
  await browser?.close()
  await site?.close()
  if (outDir) await rm(outDir, { recursive: true, force: true })
})

async function checkStory(page: Page, story: IndexEntry): Promise<string[]> {
  const problems: string[] = []
  const onConsole = (message: { type(): string; text(): string }) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`)
  }
  const onPageError = (error: Error) => problems.push(`page error: ${error.message}`)
  page.on('console', onConsole)
  page.on('pageerror', onPageError)
  try {
    await page.goto(`${site!.url}/iframe.html?id=${encodeURIComponent(story.id)}&viewMode=story`)
    await page.waitForFunction(
      () =>
        document.body.classList.contains('sb-show-errordisplay') ||
        (document.querySelector('#storybook-root')?.childElementCount ?? 0) > 0,
      undefined,
      { timeout: 15_000 },
    )
    if (await page.evaluate(() => document.body.classList.contains('sb-show-errordisplay'))) {
      problems.push(`error display: ${await page.locator('#error-message').innerText().catch(() => '')}`)
    }
    // Let the in-browser service answer and the story settle before judging it.
    await page.waitForTimeout(400)
    for (const v of await axeViolations(page, ['#storybook-docs'])) {
      problems.push(`axe ${v.id} (${v.impact}): ${v.help} — ${v.targets.slice(0, 3).join(', ')}`)
    }
  } catch (error) {
    problems.push(`did not render: ${(error as Error).message.split('\n')[0]}`)
  } finally {
    page.off('console', onConsole)
    page.off('pageerror', onPageError)
  }
  return problems.map((p) => `${story.id}: ${p}`)
}

describe('every story renders clean in Chromium', () => {
  it('has stories for every component', () => {
    const titles = new Set(stories.map((s) => s.title))
    for (const name of ['Inbox', 'Bell', 'Feed', 'NotificationItem', 'PreferencesPanel', 'TopicSubscriptions']) {
      expect(titles, name).toContain(`Inbox/${name}`)
    }
  })

  it('renders every story without an error or an axe violation', async () => {
    const page = await browser!.newPage()
    const problems: string[] = []
    for (const story of stories) problems.push(...(await checkStory(page, story)))
    await page.close()
    expect(problems).toEqual([])
  }, 600_000)
})
