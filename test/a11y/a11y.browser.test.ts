/**
 * The inbox as a keyboard and screen-reader user, and readers of other languages, meet it in Chromium: a page
 * with an `<Inbox>` between two links (`browser/main.tsx`: `?lang=de|ar`, `?n=` items, `?long` for long words in
 * the first, `?poll=` ms between looks; `#page` for the page layout instead).
 */
import type { Browser, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { servePage } from '../support/browser'

let browser: Browser
let url = ''
servePage(new URL('./browser', import.meta.url), (u, b) => ((url = u), (browser = b)))

async function open(query: string, width = 1000, height = 700): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } })
  await page.goto(`${url}/${query}`)
  await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true, null, {
    timeout: 60_000,
  })
  return page
}

/** Opens the popover from the bell and waits for its first item. */
async function openInbox(page: Page) {
  await page.locator('.inbox-bell').click()
  await page.getByRole('dialog').locator('article').first().waitFor()
}

describe('screen readers', () => {
  it('does not say the failure again at every second of the countdown to the next try', async () => {
    // Looks every 300 ms, against a service that answers 503 to everything.
    const page = await open('?n=3&poll=300')
    await page.evaluate(() =>
      (window as unknown as { __service: { faults: { add(rule: object): void } } }).__service.faults.add({
        status: 503,
      }),
    )
    await page.locator('.inbox-bell').click()
    const alert = page.getByRole('dialog').getByRole('alert')
    await expect.poll(() => alert.textContent(), { timeout: 10_000 }).toMatch(/Retrying in \d+ s/)
    // What the alert says (its text less what is hidden from assistive technology), once a quarter second.
    const said = new Set<string>()
    const seen = new Set<string>()
    for (let i = 0; i < 10; i++) {
      const [all, spoken] = await alert.evaluate((el) => {
        const copy = el.cloneNode(true) as HTMLElement
        copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove())
        return [el.textContent ?? '', copy.textContent ?? '']
      })
      seen.add(all)
      said.add(spoken)
      await page.waitForTimeout(250)
    }
    expect(seen.size, 'the countdown runs on screen').toBeGreaterThan(1)
    expect([...said]).toEqual(['Notifications couldn’t be loadedThe notification service is unavailable.Try again'])
    await page.close()
  })

  it("marks the inbox with its strings' language, on a page of another", async () => {
    const langOf = (page: Page, selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => el.closest('[lang]')?.getAttribute('lang'))
    for (const [query, lang] of [
      ['?n=3&lang=de', 'de'],
      ['?n=3&lang=ar', 'ar'],
      ['?n=3', 'en'],
    ] as const) {
      const page = await open(query)
      await openInbox(page)
      for (const selector of ['.inbox-bell', '[role="dialog"] h2', '[role="status"]'])
        expect(await langOf(page, selector), `${selector} ${query}`).toBe(lang)
      await page.close()
    }
  })
})

describe('reflow', () => {
  it('wraps a long German title in the header at 320 px: the settings view is not pushed out of the popover', async () => {
    const page = await open('?n=3&lang=de', 320, 640)
    await openInbox(page)
    await page.getByRole('button', { name: 'Benachrichtigungseinstellungen' }).click()
    await page.getByRole('switch').first().waitFor()
    const { dialog, title, back, scrolled } = await page.evaluate(() => {
      const dialog = document.querySelector('[role="dialog"]')!
      return {
        dialog: dialog.getBoundingClientRect().toJSON() as DOMRect,
        title: dialog.querySelector('h2')!.getBoundingClientRect().toJSON() as DOMRect,
        back: document.activeElement!.getBoundingClientRect().toJSON() as DOMRect,
        // Focus on a button pushed past the edge scrolls what clips it sideways, cutting off every line's start.
        scrolled: [dialog, ...dialog.querySelectorAll('*')].filter((el) => el.scrollLeft !== 0).length,
      }
    })
    expect(scrolled).toBe(0)
    for (const box of [title, back]) {
      expect(box.left).toBeGreaterThanOrEqual(dialog.left)
      expect(box.right).toBeLessThanOrEqual(dialog.right)
    }
    await page.close()
  })

  for (const width of [320, 1000])
    it(`wraps a long unbroken subject in the page layout's detail pane at ${width} px`, async () => {
      const page = await open('?n=3&long#page', width)
      await page.locator('article[tabindex="0"]').focus()
      await page.keyboard.press('Enter')
      const title = page.locator('.inbox-detail__title')
      await expect.poll(() => page.evaluate(() => document.activeElement?.className)).toContain('inbox-detail__title')
      const [box, pane, overflow] = await title.evaluate((el) => [
        el.getBoundingClientRect().toJSON() as DOMRect,
        el.closest('.inbox-detail')!.getBoundingClientRect().toJSON() as DOMRect,
        el.scrollWidth - el.clientWidth,
      ])
      expect(overflow).toBeLessThanOrEqual(0)
      expect(box.right).toBeLessThanOrEqual(pane.right)
      await page.close()
    })
})
