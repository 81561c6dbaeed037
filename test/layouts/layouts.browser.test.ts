import type { Browser, Page } from 'playwright-core'
import { axeViolations } from '../e2e/axe'
import { describe, expect, it } from 'vitest'
import { servePage } from '../support/browser'
import { walkRings } from '../support/rings'

let browser: Browser
let url = ''
servePage(new URL('./browser', import.meta.url), (u, b) => ((url = u), (browser = b)))

async function open(scenario: string, width = 1000): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 700 } })
  await page.goto(`${url}/#${scenario}`)
  await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true, null, {
    timeout: 60_000,
  })
  return page
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    return {
      id: el?.id ?? '',
      tag: el?.tagName ?? '',
      name: el?.getAttribute('aria-label') ?? el?.textContent ?? '',
      data: el?.dataset.id ?? '',
    }
  })

const markAsRequests = (page: Page) =>
  page.evaluate(() => (window as unknown as { __requests: string[] }).__requests.filter((r) => r.endsWith('/mark-as')))

describe('parts in Chromium', () => {
  it('opens two inboxes under one provider on their own; an asChild trigger keeps the count in its name and gets focus back', async () => {
    const page = await open('parts')
    const first = page.getByLabel('first').getByRole('button', { name: /^Notifications/ })
    await first.click()
    await expect.poll(() => page.getByRole('dialog').count()).toBe(1)
    expect(await page.getByLabel('second').getByRole('dialog').count()).toBe(0)
    // Opening the second closes the first (a pointer outside it), and each keeps its own state.
    await page
      .getByLabel('second')
      .getByRole('button', { name: /^Notifications/ })
      .click()
    await expect.poll(() => page.getByLabel('first').getByRole('dialog').count()).toBe(0)
    expect(await page.getByLabel('second').getByRole('dialog').count()).toBe(1)
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0)

    // The app's own button: "Inbox" plus the count, as its accessible name.
    const trigger = page.getByRole('button', { name: 'Inbox (5 unseen)', exact: true })
    await expect.poll(() => trigger.count()).toBe(1)
    expect(await trigger.getAttribute('aria-haspopup')).toBe('dialog')
    await trigger.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Updates' })
    await expect.poll(() => dialog.count()).toBe(1)
    expect(await trigger.getAttribute('aria-expanded')).toBe('true')
    // Rendered in a portal at the end of the body, yet focus is inside it and Tab stays there.
    expect(await dialog.evaluate((el) => el.closest('[data-inbox-root]')?.parentElement === document.body)).toBe(true)
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true)
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab')
      expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true)
    }
    await page.keyboard.press('Escape')
    await expect.poll(() => dialog.count()).toBe(0)
    expect((await focused(page)).id).toBe('custom-trigger')
    expect(await trigger.getAttribute('aria-expanded')).toBe('false')
    await page.close()
  })

  it('keeps part classes under unstyled while the stylesheet leaves them alone', async () => {
    const page = await open('unstyled')
    const look = (label: string) =>
      page
        .getByLabel(label, { exact: true })
        .locator('[data-part="bell"]')
        .evaluate((el) => {
          const s = getComputedStyle(el)
          return {
            className: el.className,
            border: s.borderTopLeftRadius,
            size: s.width,
            cursor: s.cursor,
            bg: s.backgroundColor,
          }
        })
    const styled = await look('styled')
    const unstyled = await look('unstyled')
    expect(styled.className).toContain('inbox-bell')
    expect(unstyled.className).toContain('inbox-bell')
    expect(unstyled).not.toEqual(styled)
    expect(unstyled.cursor).toBe('default')
    expect(styled.cursor).toBe('pointer')
    await page.close()
  })
})

describe('threads in Chromium', () => {
  it('shows a thread as its newest item, expands in place, and marks it read in one request that rolls back as one', async () => {
    const page = await open('threads')
    await page.waitForSelector('article')
    const articles = () => page.locator('article').count()
    expect(await articles()).toBe(6)
    const more = page.getByRole('button', { name: 'Show 2 more' })
    expect(await more.getAttribute('aria-expanded')).toBe('false')
    await more.click()
    await expect.poll(articles).toBe(8)
    expect(await page.getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe('true')
    // The arrow keys walk through the thread's items too.
    await page.locator('article').first().focus()
    await page.keyboard.press('ArrowDown')
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-thread-child'))).toBe(true)

    // Failure first: one request, and both items come back unread together.
    await page.evaluate(() =>
      (window as unknown as { __service: { faults: { add(r: object): void } } }).__service.faults.add({
        path: /mark-as$/,
        status: 500,
        latency: 300,
        times: 1,
      }),
    )
    const unreadInThread = () =>
      page
        .locator('article[data-unread]')
        .evaluateAll((els) => els.filter((e) => e.textContent?.includes('PR #12')).length)
    expect(await unreadInThread()).toBe(2)
    await page.getByRole('button', { name: 'Mark 2 as read' }).click()
    await expect.poll(unreadInThread).toBe(0)
    await expect.poll(unreadInThread, { timeout: 5000 }).toBe(2)
    expect(await markAsRequests(page)).toHaveLength(1)

    await page.getByRole('button', { name: 'Mark 2 as read' }).click()
    await expect.poll(unreadInThread).toBe(0)
    await page.waitForTimeout(300)
    expect(await unreadInThread()).toBe(0)
    expect(await markAsRequests(page)).toHaveLength(2)
    expect(await page.getByRole('button', { name: /^Mark \d as read/ }).count()).toBe(0)
    await page.close()
  })
})

describe('page layout in Chromium', () => {
  for (const [width, narrow] of [
    [1000, false],
    [420, true],
  ] as const) {
    it(`goes from the list to the detail and back by keyboard at ${width} px`, async () => {
      const page = await open('page', width)
      await page.waitForSelector('article')
      const list = page.locator('[data-part="page-list"]')
      const detail = page.locator('[data-part="detail"]')
      // Nothing selected, then one item: axe clean both ways (best practices included).
      expect(await axeViolations(page)).toEqual([])
      await page.locator('article').nth(3).focus()
      await page.keyboard.press('Enter')
      await expect.poll(async () => (await focused(page)).tag).toBe('H2')
      expect((await focused(page)).name).toBe('Subject 3')
      // Markdown in the detail: bold and a safe link, as elements.
      expect(await detail.locator('strong').textContent()).toBe('Deploy')
      expect(await detail.locator('a[href="https://ci.example/1"]').count()).toBe(1)
      expect(await page.locator('article[aria-current="true"]').getAttribute('data-id')).toBeTruthy()
      expect(await list.isVisible()).toBe(!narrow)
      expect(await page.getByRole('button', { name: 'Back to notifications' }).isVisible()).toBe(narrow)
      expect(await axeViolations(page)).toEqual([])
      // Tab goes on through the body's link to the notification's actions; Escape from one goes back to the list.
      await page.keyboard.press('Tab')
      await page.keyboard.press('Tab')
      expect(await focused(page)).toMatchObject({ tag: 'BUTTON', name: 'Approve' })
      await page.keyboard.press('Tab')
      expect(await focused(page)).toMatchObject({ tag: 'BUTTON', name: 'Reject' })
      expect(await detail.locator('[data-part="detail-actions"] button').count()).toBe(2)
      // The Open link is drawn as a button, as tall as the buttons beside it and above it.
      const heights = await detail
        .locator('.inbox-button')
        .evaluateAll((all) => all.map((el) => [el.textContent, el.getBoundingClientRect().height]))
      expect(heights.map(([text]) => text)).toEqual(['Approve', 'Reject', 'Open', 'Mark as unread'])
      expect(new Set(heights.map(([, height]) => height)).size).toBe(1)

      await page.keyboard.press('Escape')
      await expect.poll(async () => (await focused(page)).tag).toBe('ARTICLE')
      expect(await list.isVisible()).toBe(true)
      expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Subject 3')
      expect(await detail.isVisible()).toBe(!narrow)

      // The app sets the selection itself (its router going back, then forward): focus never falls to the body.
      const select = (id: string | null) =>
        page.evaluate((id) => (window as unknown as { __select(id: string | null): void }).__select(id), id)
      const id = (await focused(page)).data
      await page.keyboard.press('Enter')
      await expect.poll(async () => (await focused(page)).tag).toBe('H2')
      await select(null)
      await expect.poll(async () => (await focused(page)).tag).toBe('ARTICLE')
      expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Subject 3')
      await select(id)
      // Where the list gives way to the detail, to its heading; beside it, the item keeps focus.
      await expect.poll(async () => (await focused(page)).tag).toBe(narrow ? 'H2' : 'ARTICLE')
      await page.close()
    })
  }

  // Enter with the selection set at once: the test above.
  for (const [how, late] of [
    ['a click', false],
    ['Enter', true],
    ['a click', true],
  ] as const)
    it(`moves focus to the detail's heading on ${how}${late ? ', the selection coming back a moment later through the app’s router' : ''}; Escape returns it`, async () => {
      const page = await open(late ? 'page-late' : 'page')
      const row = page.locator('article').nth(3)
      if (how === 'Enter') {
        await row.focus()
        await page.keyboard.press('Enter')
      } else await row.locator('.inbox-item__title').click()
      await expect.poll(async () => (await focused(page)).tag).toBe('H2')
      expect((await focused(page)).name).toBe('Subject 3')
      await page.keyboard.press('Escape')
      await expect.poll(async () => (await focused(page)).tag).toBe('ARTICLE')
      expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Subject 3')
      await page.close()
    })

  it('draws a whole focus ring around each Tab stop of the detail and the list', async () => {
    const page = await open('page')
    await page.locator('article').nth(3).focus()
    await page.keyboard.press('Enter')
    await expect.poll(async () => (await focused(page)).tag).toBe('H2')
    await page.waitForTimeout(300)
    // From the detail's heading through its link and buttons.
    const detail = await walkRings(page, '[data-part="detail"]', 8)
    // The heading, the body's link, Approve, Reject, Open and Mark as unread.
    expect(detail.reached).toHaveLength(6)
    expect(detail.cut).toEqual([])
    // The list's rows and their buttons, from the first row.
    await page.locator('article').first().focus()
    const list = await walkRings(page, '[data-part="page-list"]', 6)
    expect(list.reached).toHaveLength(6)
    expect(list.cut).toEqual([])
    await page.close()
  })

  it('leaves the list in view on a phone when the selected id is of no listed notification', async () => {
    const page = await open('page-missing', 420)
    await page.waitForSelector('article', { state: 'attached' })
    expect(await page.locator('[data-part="page-list"]').isVisible()).toBe(true)
    // The reader picks another one as usual.
    await page.locator('article').first().click()
    await expect.poll(async () => (await focused(page)).tag).toBe('H2')
    expect(await page.locator('[data-part="page-list"]').isVisible()).toBe(false)
    await page.close()
  })
})
