/**
 * What the eye sees, measured in Chromium: row dividers that stay visible at desktop width and on
 * high-density screens, one left edge for rows with and without an avatar, a "mark as unread" action
 * that is an icon button (not a stray dot), error text without a lone last word, and a focus ring drawn whole
 * around each control Tab reaches.
 */
import type { Browser, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { animationsDone, servePage } from '../support/browser'
import { walkRings } from '../support/rings'

let browser: Browser
let url = ''
servePage(new URL('./visual', import.meta.url), (u, b) => ((url = u), (browser = b)))

async function open(
  scale: number,
  options: { width?: number; touch?: boolean; forcedColors?: boolean } = {},
): Promise<Page> {
  const page = await browser.newPage({
    viewport: { width: options.width ?? 1280, height: 800 },
    deviceScaleFactor: scale,
    ...(options.touch ? { isMobile: true, hasTouch: true } : {}),
  })
  if (options.forcedColors) await page.emulateMedia({ forcedColors: 'active' })
  await page.goto(url)
  await page.waitForSelector('article')
  // Rows are measured once drawn: wait for two equal layouts.
  let last = ''
  for (let i = 0; i < 20; i++) {
    const now = JSON.stringify(await rows(page))
    if (now === last) break
    last = now
    await page.waitForTimeout(100)
  }
  return page
}

function rows(page: Page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.inbox-feed__row'))
      .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
      .map((row) => {
        const box = row.getBoundingClientRect()
        const title = row.querySelector('.inbox-item__title')!.getBoundingClientRect()
        return {
          top: box.top,
          bottom: box.bottom,
          titleLeft: title.left,
          avatar: !!row.querySelector('.inbox-avatar:not([data-kind="none"])'),
        }
      }),
  )
}

describe('rows as the eye sees them', () => {
  for (const scale of [1, 2]) {
    it(`no row covers the divider of the row above, at 1280 px and ${scale}x`, async () => {
      const page = await open(scale)
      const laid = await rows(page)
      expect(laid.length).toBeGreaterThan(5)
      // Exact, not rounded: a row that starts a fraction of a pixel early hides the 1 px border above it.
      const overlaps = laid.slice(1).filter((row, i) => row.top < laid[i]!.bottom - 0.01)
      expect(overlaps).toEqual([])
      await page.close()
    })
  }

  it('starts every title at the same left edge, with or without an avatar', async () => {
    const page = await open(1)
    const laid = await rows(page)
    expect(laid.some((r) => r.avatar)).toBe(true)
    expect(laid.some((r) => !r.avatar)).toBe(true)
    expect(new Set(laid.map((r) => Math.round(r.titleLeft))).size).toBe(1)
    await page.close()
  })

  for (const [mode, options] of [
    ['on a phone (no hover)', { width: 375, touch: true }],
    ['in forced colors', { forcedColors: true }],
  ] as const) {
    it(`keeps the always-shown mark-as button clear of the row's title, time and unread dot ${mode}`, async () => {
      const page = await open(1, options)
      expect(await page.evaluate(() => matchMedia('(hover: none)').matches)).toBe('touch' in options)
      const clashes = await page.evaluate(() => {
        const hit = (a: DOMRect, b: DOMRect) =>
          a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom && a.width * b.width > 0
        return Array.from(document.querySelectorAll('article')).flatMap((row) => {
          const tools = row.querySelector('.inbox-item__tools button')!.getBoundingClientRect()
          return Array.from(
            row.querySelectorAll('.inbox-item__title, .inbox-item__time, .inbox-item__dot, .inbox-item__body'),
          )
            .filter((part) => hit(tools, part.getBoundingClientRect()))
            .map((part) => `${row.getAttribute('data-id')} ${part.className}`)
        })
      })
      expect(clashes).toEqual([])
      expect(
        await page
          .locator('.inbox-item__tools button')
          .first()
          .evaluate((b) => getComputedStyle(b.parentElement!).opacity),
      ).toBe('1')
      await page.close()
    })
  }

  for (const hash of ['#other-way', '#other-way-ar'])
    it(`keeps the text of a body written the other way from the inbox clear of the mark-as button (${hash})`, async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
      await page.goto(url + hash)
      await page.waitForSelector('article .inbox-item__body')
      const clashes = await page.evaluate(() => {
        const hit = (a: DOMRect, b: DOMRect) =>
          a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom && a.width * b.width > 0
        return Array.from(document.querySelectorAll('article')).flatMap((row) => {
          // Shown on hover and focus, over the row's end: it is laid out (and may cover text) all along.
          const tools = row.querySelector('.inbox-item__tools button')!.getBoundingClientRect()
          const range = document.createRange()
          range.selectNodeContents(row.querySelector('.inbox-item__body')!)
          return Array.from(range.getClientRects()).some((line) => hit(tools, line))
            ? [row.getAttribute('data-id')]
            : []
        })
      })
      expect(clashes).toEqual([])
      await page.close()
    })

  it('shows "mark as unread" as an icon of its own, and a failure without a lone last word', async () => {
    const page = await open(1)
    const read = page.locator('article:not([data-unread])').first()
    const toggle = read.getByRole('button', { name: 'Mark as unread' })
    // An envelope, not a lone dot: the icon draws more than a small filled circle.
    expect(await toggle.locator('svg > *').count()).toBeGreaterThan(1)
    await toggle.click()
    const message = read.locator('.inbox-item__error span').first()
    await message.waitFor()
    const wrap = await message.evaluate(
      (el) => getComputedStyle(el).textWrap || getComputedStyle(el).getPropertyValue('text-wrap'),
    )
    expect(wrap).toMatch(/pretty|balance/)
    await page.screenshot({ path: '/tmp/inbox-rows.png' })
    await page.close()
  })
})

describe('the popover where the eye looks for it', () => {
  // The bell at the start or end of a header 96 px tall that stretches the inbox's root to its height.
  for (const [hash, side] of [
    ['#placement-end', 'end'],
    ['#placement-end-ar', 'end'],
    ['#placement-start', 'start'],
    ['#placement-start-ar', 'start'],
    ['#placement-end-low', 'end'],
  ] as const) {
    it(`opens 8 px from the bell (above it only where it fits only there) and inside the viewport (${hash})`, async () => {
      const page = await browser.newPage({ viewport: { width: 800, height: 700 } })
      await page.goto(url + hash)
      // Once the count is in: the bell's name is then the count's words (in Arabic, the number comes first).
      await page.locator('.inbox-bell[data-count="6"]').click()
      const dialog = page.getByRole('dialog')
      await dialog.waitFor()
      // Once its opening animation is done.
      await animationsDone(page)
      const [bell, box, width] = await page.evaluate(() => [
        document.querySelector('.inbox-bell')!.getBoundingClientRect().toJSON() as DOMRect,
        document.querySelector('[role="dialog"]')!.getBoundingClientRect().toJSON() as DOMRect,
        document.documentElement.clientWidth,
      ])
      if (hash.endsWith('-low')) expect(Math.round(bell.top - box.bottom)).toBe(8)
      else expect(Math.round(box.top - bell.bottom)).toBe(8)
      expect(box.top).toBeGreaterThanOrEqual(0)
      expect(box.bottom).toBeLessThanOrEqual(700)
      expect(box.left).toBeGreaterThanOrEqual(8)
      expect(box.right).toBeLessThanOrEqual(width - 8)
      // Beside the bell: it overlaps the bell's column or sits against the viewport's edge beyond it.
      if (side === 'end') expect(box.right).toBeGreaterThanOrEqual(bell.left)
      else expect(box.left).toBeLessThanOrEqual(bell.right)
      if (hash.endsWith('-low')) {
        // Its content grows after it opened (a list arriving): it is placed again, still 8 px above the bell.
        await page.evaluate(() => {
          const el = document.querySelector<HTMLElement>('[role="dialog"]')!
          el.style.height = `${el.offsetHeight - 60}px`
        })
        await expect
          .poll(() =>
            page.evaluate(() =>
              Math.round(
                document.querySelector('.inbox-bell')!.getBoundingClientRect().top -
                  document.querySelector('[role="dialog"]')!.getBoundingClientRect().bottom,
              ),
            ),
          )
          .toBe(8)
      }
      await page.close()
    })
  }
})

describe('focus the eye can follow', () => {
  for (const forcedColors of [false, true])
    it(`draws a whole ring around every control of the popover reached by Tab: no side of it cut off${forcedColors ? ', in forced colors' : ''}`, async () => {
      const page = await browser.newPage({ viewport: { width: 800, height: 700 } })
      if (forcedColors) await page.emulateMedia({ forcedColors: 'active' })
      await page.goto(url + '#placement-end')
      await page.locator('.inbox-bell[data-count="6"]').waitFor()
      await page.keyboard.press('Tab')
      // The bell first, then back to it.
      const bell = await walkRings(page, '.inbox-bell', 1)
      expect(bell.reached).toHaveLength(1)
      expect(bell.cut).toEqual([])
      await page.keyboard.press('Shift+Tab')
      await page.keyboard.press('Enter')
      await page.getByRole('dialog').waitFor()
      await animationsDone(page)
      // From the dialog, which takes focus to be announced (its frame shows where focus is), to its Tab stops.
      await page.keyboard.press('Tab')
      const list = await walkRings(page, '[role="dialog"]', 10)
      // The header's buttons, the tabs, the first row and its button, and the next rows' buttons.
      expect(list.reached).toHaveLength(10)
      expect(list.cut).toEqual([])
      // The settings view: the switches of every channel, and its back button.
      await page.getByRole('button', { name: 'Notification settings' }).click()
      await page.getByRole('switch').first().waitFor()
      await animationsDone(page)
      await page.keyboard.press('Tab')
      const settings = await walkRings(page, '[role="dialog"]', 10)
      expect(settings.reached.filter((name) => name.startsWith('input.inbox-switch__input'))).toHaveLength(3)
      expect(settings.reached).toContain('button.inbox-icon-button "Back to notifications"')
      expect(settings.cut).toEqual([])
      await page.close()
    })
})
