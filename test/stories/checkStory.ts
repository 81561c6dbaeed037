import type { Page } from 'playwright-core'
import { axeViolations } from '../e2e/axe'

/** An entry of a built Storybook's index.json. */
export interface IndexEntry {
  id: string
  title: string
  name: string
  type: 'story' | 'docs'
  tags?: string[]
}

type Outcome = { ok: true } | { ok: false; reason: string }

/**
 * Opens Storybook's preview once (with the a11y addon's own automatic run off, so that only one axe runs),
 * ready for {@link checkStory} to switch between stories without reloading the bundle.
 */
export async function openPreview(page: Page, siteUrl: string, firstId: string): Promise<void> {
  await page.goto(`${siteUrl}/iframe.html?id=${encodeURIComponent(firstId)}&viewMode=story&globals=a11y.manual:!true`)
  await page.waitForFunction(() => '__STORYBOOK_ADDONS_CHANNEL__' in window)
}

// Kept as source text: it runs in the page, and transpilers' helpers (such as keepNames) do not exist there.
const SHOW_STORY = `(id) => new Promise((resolve) => {
  const channel = window.__STORYBOOK_ADDONS_CHANNEL__
  const handlers = [
    ['storyRendered', (storyId) => storyId === id && finish({ ok: true })],
    ['storyErrored', (e) => finish({ ok: false, reason: (e && e.title) + ': ' + (e && e.description) })],
    ['storyThrewException', (e) => finish({ ok: false, reason: 'threw: ' + (e && e.message) })],
    ['storyMissing', () => finish({ ok: false, reason: 'missing' })],
  ]
  const timer = setTimeout(() => finish({ ok: false, reason: 'no storyRendered within 30 s' }), 30000)
  function finish(outcome) {
    clearTimeout(timer)
    for (const [event, handler] of handlers) channel.off(event, handler)
    resolve(outcome)
  }
  for (const [event, handler] of handlers) channel.on(event, handler)
  channel.emit('setCurrentStory', { storyId: id, viewMode: 'story' })
})`

function showStory(page: Page, id: string): Promise<Outcome> {
  return page.evaluate(`(${SHOW_STORY})(${JSON.stringify(id)})`) as Promise<Outcome>
}

/**
 * Shows one story in an open preview and lists what is wrong with it: a failed render, a console error, an
 * uncaught error, or an axe violation once its data has settled (no `aria-busy` left, or 800 ms for stories
 * that stay loading on purpose).
 */
export async function checkStory(page: Page, story: IndexEntry): Promise<string[]> {
  const problems: string[] = []
  const onConsole = (message: { type(): string; text(): string }) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`)
  }
  const onPageError = (error: Error) => problems.push(`page error: ${error.message}`)
  // A console error about a failed load does not say which; this does.
  const onResponse = (response: { status(): number; url(): string }) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} for ${response.url()}`)
  }
  page.on('console', onConsole)
  page.on('pageerror', onPageError)
  page.on('response', onResponse)
  try {
    const outcome = await showStory(page, story.id)
    if (!outcome.ok) {
      problems.push(`did not render: ${outcome.reason}`)
    } else {
      await page
        .waitForFunction(() => !document.querySelector('#storybook-root [aria-busy="true"]'), undefined, {
          timeout: 800,
        })
        .catch(() => undefined)
      await page.waitForTimeout(150)
      const off = [
        ...(story.tags?.includes('unstyled') ? ['target-size'] : []),
        // A "States" story shows several copies of one component side by side: their landmarks share names.
        ...(story.id.endsWith('--states') ? ['landmark-unique'] : []),
      ]
      for (const v of await axeViolations(
        page,
        ['.sb-wrapper', '#storybook-docs', '#storybook-highlights-root'],
        off,
      )) {
        problems.push(`axe ${v.id} (${v.impact}): ${v.help} — ${v.targets.slice(0, 3).join(', ')}`)
      }
    }
  } catch (error) {
    problems.push(`failed: ${(error as Error).message.split('\n')[0]}`)
  } finally {
    page.off('console', onConsole)
    page.off('pageerror', onPageError)
    page.off('response', onResponse)
  }
  return problems.map((p) => `${story.id}: ${p}`)
}
