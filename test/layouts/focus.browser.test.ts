/**
 * Keyboard focus never falls to the page's body while someone uses the inbox: whatever takes away the element
 * that has focus (an answer that replaces a notification's buttons, a row leaving its list, a banner, a toast, a
 * button that has done its work), focus goes on to the item now in its place, else the one before, else what
 * holds it (the row, the list, the detail's heading). In Chromium, against the reference service
 * (`browser/focus.tsx`: `#focus` an `<InboxInline>`, `#focus-page` an `<InboxPage>`, `#focus-page-custom` one with a `renderDetail`, `#focus-threads` a feed in
 * threads).
 */
import type { Browser, Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { servePage } from '../support/browser'

// Each test opens a page of a Vite dev server: a few seconds alone, more on a loaded machine (45 s each).
let browser: Browser
let url = ''
servePage(new URL('./browser', import.meta.url), (u, b) => ((url = u), (browser = b)))

async function open(query = '', hash = '#focus', width = 1000): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 700 } })
  await page.goto(`${url}/${query}${hash}`)
  await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true, null, {
    timeout: 60_000,
  })
  await page.locator('article').first().waitFor()
  return page
}

/** Calls one of the page's controls (`browser/focus.tsx`) with `args`, and waits for what it returns. */
const call = (page: Page, name: string, ...args: unknown[]) =>
  page.evaluate(
    ([name, args]) =>
      (window as unknown as Record<string, (...a: unknown[]) => unknown>)[name as string]!(...(args as unknown[])),
    [name, args] as const,
  )
const refresh = (page: Page) => call(page, '__refresh').catch(() => {})
const faults = (page: Page, rule: object | null) =>
  page.evaluate((rule) => {
    const { faults } = (window as unknown as { __service: { faults: { add(r: object): void; clear(): void } } })
      .__service
    if (rule) faults.add(rule)
    else faults.clear()
  }, rule)

/** What has focus, for a failure message: its tag, then its name or text. */
const describeFocus = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement
    return `${el?.tagName} ${el?.getAttribute('aria-label') ?? el?.getAttribute('title') ?? el?.textContent?.slice(0, 40) ?? ''}`
  })

/** Waits until `target` has focus; fails naming what has it instead (the body, when it fell). */
async function expectFocus(page: Page, target: Locator) {
  await expect
    .poll(async () => ((await target.evaluate((el) => el === document.activeElement)) ? 'there' : describeFocus(page)))
    .toBe('there')
}

/** Presses `control` by keyboard (Enter), waits until it is gone, then until `target` has focus. */
async function pressGone(page: Page, control: Locator, target: Locator, before?: () => Promise<unknown>) {
  await control.focus()
  await before?.()
  await page.keyboard.press('Enter')
  await expect.poll(() => control.count()).toBe(0)
  await expectFocus(page, target)
}

const row = (page: Page, subject: string) => page.locator('article', { hasText: subject })

describe('a notification answered while one of its buttons has focus', { timeout: 45_000 }, () => {
  it('in a row of the list: focus goes to the row', async () => {
    const page = await open()
    await row(page, 'Subject 0').getByRole('button', { name: 'Reject' }).focus()
    await call(page, '__answer', 'Subject 0')
    await refresh(page)
    await row(page, 'Subject 0').getByText('Done').waitFor()
    await expectFocus(page, row(page, 'Subject 0'))
    await page.close()
  })

  it("in the page's detail: focus goes to the detail's heading", async () => {
    const page = await open('', '#focus-page')
    await row(page, 'Subject 0').click()
    const detail = page.locator('[data-part="detail"]')
    await detail.getByRole('button', { name: 'Approve' }).focus()
    await call(page, '__answer', 'Subject 0')
    await refresh(page)
    await detail.getByText('Done').waitFor()
    await expectFocus(page, detail.getByRole('heading', { name: 'Subject 0' }))
    await page.close()
  })

  it("in a renderDetail's detail, which has no heading: focus goes to the pane, named by the item", async () => {
    const page = await open('', '#focus-page-custom')
    await row(page, 'Subject 0').click()
    const detail = page.getByRole('region', { name: 'Subject 0' })
    // Selecting moves focus there too, as it does to the default detail's heading.
    await expectFocus(page, detail)
    await detail.getByRole('button', { name: 'Approve' }).focus()
    await call(page, '__answer', 'Subject 0')
    await refresh(page)
    await detail.getByText('Done').waitFor()
    await expectFocus(page, detail)
    await page.close()
  })
})

describe('an item leaving the list while it or one of its buttons has focus', { timeout: 45_000 }, () => {
  it('marked read by its own button in the Unread tab: to the item now in its place', async () => {
    const page = await open()
    await page.getByRole('tab', { name: /^Unread/ }).click()
    await page.getByRole('button', { name: 'Mark as read Subject 1' }).click()
    await expect.poll(() => row(page, 'Subject 1').count()).toBe(0)
    await expectFocus(page, row(page, 'Subject 2'))
    await page.close()
  })

  it('read on another device, on the next refresh: the next item, else the one before, else the list', async () => {
    const page = await open()
    await page.getByRole('tab', { name: /^Unread/ }).click()
    // A button of the row has focus.
    await row(page, 'Subject 1').getByRole('button', { name: 'Approve' }).focus()
    await call(page, '__readElsewhere', 'Subject 1')
    await refresh(page)
    await expect.poll(() => row(page, 'Subject 1').count()).toBe(0)
    await expectFocus(page, row(page, 'Subject 2'))
    // The last one: the one before it.
    await row(page, 'Subject 3').focus()
    await call(page, '__readElsewhere', 'Subject 3')
    await refresh(page)
    await expect.poll(() => row(page, 'Subject 3').count()).toBe(0)
    await expectFocus(page, row(page, 'Subject 2'))
    // None left: the list, which says so.
    await call(page, '__readElsewhere', 'Subject 0')
    await call(page, '__readElsewhere', 'Subject 2')
    await refresh(page)
    await page.getByText('No unread notifications').waitFor()
    await expectFocus(page, page.locator('[data-part="feed-scroller"]'))
    await page.close()
  })

  it('keeps focus on Mark all as read when the Unread list empties under it', async () => {
    const page = await open()
    await page.getByRole('tab', { name: /^Unread/ }).click()
    const markAll = page.getByRole('button', { name: 'Mark all as read' })
    await markAll.focus()
    await page.keyboard.press('Enter')
    await page.getByText('No unread notifications').waitFor()
    await expectFocus(page, markAll)
    await page.close()
  })
})

describe('a control that has done its work and goes', { timeout: 45_000 }, () => {
  it('"N new notifications": to the first item, where it took the reader', async () => {
    const page = await open('?n=30')
    // Scrolled down before the news comes: the scroll event is dispatched at the next frame, and the list knows
    // the reader scrolled only once it has been (a loaded machine can take longer than the trigger and refresh).
    await page.locator('[data-part="feed-scroller"]').evaluate(async (el) => {
      el.scrollTop = 600
      for (let i = 0; i < 3; i++) await new Promise((r) => requestAnimationFrame(r))
    })
    await call(page, '__trigger')
    await refresh(page)
    await pressGone(page, page.getByRole('button', { name: '1 new notification' }), page.locator('article').first())
    expect(await page.locator('article').first().textContent()).toContain('Hello')
    await page.close()
  })

  it("the list's Try again at its end, once the next page came: to the first item of that page", async () => {
    const page = await open('?n=6&limit=3&failMore')
    await pressGone(page, page.getByRole('button', { name: 'Try again' }), row(page, 'Subject 3'))
    await page.close()
  })

  it("the error state's Try again: to the Try again that comes while it fails, then to the first item it brought", async () => {
    const page = await open()
    // The Unread list's first read fails: its error state, with no item.
    await faults(page, { path: /\/feed$/, status: 500 })
    await page.getByRole('tab', { name: /^Unread/ }).click()
    const again = page.getByRole('tabpanel').getByRole('button', { name: 'Try again' })
    await again.focus()
    // Waits for the service to have refused the read Try again asked for (the loading state can come and go
    // before a poll sees it), so that the faults are cleared after it failed, not while it is on its way.
    const refused = Number(await call(page, '__feedRefusals'))
    await page.keyboard.press('Enter')
    await expect.poll(() => call(page, '__feedRefusals')).toBeGreaterThan(refused)
    await expect.poll(() => page.getByRole('tabpanel').locator('[data-state="loading"]').count()).toBe(0)
    await expectFocus(page, again)
    await faults(page, null)
    await pressGone(page, again, page.getByRole('tabpanel').locator('article').first())
    await page.close()
  })

  it("the trouble banner's Try now, once the service answers again: to the list's item in the tab order", async () => {
    // Looks every 300 ms, and the service answers 503 to everything.
    const page = await open('?poll=300')
    await faults(page, { status: 503 })
    await pressGone(page, page.getByRole('button', { name: 'Try now' }), row(page, 'Subject 0'), () =>
      faults(page, null),
    )
    await page.close()
  })

  it("a failed write's Dismiss, and the mark-all error's: to the row, and to Mark all as read", async () => {
    const page = await open()
    await faults(page, { path: /mark-as$/, status: 500 })
    await page.getByRole('button', { name: 'Mark as read Subject 2' }).click()
    await pressGone(page, row(page, 'Subject 2').getByRole('button', { name: 'Dismiss' }), row(page, 'Subject 2'))

    const markAll = page.getByRole('button', { name: 'Mark all as read' })
    await markAll.click()
    await pressGone(page, page.locator('[data-part="banner"]').getByRole('button', { name: 'Dismiss' }), markAll)
    await page.close()
  })

  it("a thread's Mark 2 as read: to the thread's row; Show 1 more and Show less keep it", async () => {
    const page = await open('', '#focus-threads')
    const show = page.getByRole('button', { name: 'Show 1 more' })
    await show.focus()
    await page.keyboard.press('Enter')
    await expectFocus(page, page.getByRole('button', { name: 'Show less' }))
    await page.keyboard.press('Enter')
    await expectFocus(page, show)
    await pressGone(page, page.getByRole('button', { name: 'Mark 2 as read' }), row(page, 'Subject 2'))
    await page.close()
  })
})

describe('views and toasts', { timeout: 45_000 }, () => {
  it('the settings view and back, and the tabs: focus stays on the button that was pressed, or its twin', async () => {
    const page = await open()
    await page.getByRole('button', { name: 'Notification settings' }).focus()
    await page.keyboard.press('Enter')
    await expectFocus(page, page.getByRole('button', { name: 'Back to notifications' }))
    await page.keyboard.press('Enter')
    await expectFocus(page, page.getByRole('button', { name: 'Notification settings' }))
    await page.getByRole('tab', { name: 'All' }).focus()
    await page.keyboard.press('ArrowRight')
    await expectFocus(page, page.getByRole('tab', { name: /^Unread/ }))
    await page.close()
  })

  it('a focused toast pushed out by a newer one: to the toast before it; dismissed, to the next, then back', async () => {
    const page = await open()
    const before = page.getByRole('button', { name: 'Before' })
    await before.focus()
    await call(page, '__arrive', 'Subject 4', 'Subject 5')
    const toasts = page.locator('.inbox-toast')
    await expect.poll(() => toasts.count()).toBe(2)
    await toasts.nth(1).getByRole('button', { name: 'Dismiss' }).focus()
    // Two at most: the newest pushes out the oldest, which had focus.
    await call(page, '__arrive', 'Subject 3')
    await expect.poll(() => toasts.first().textContent()).toContain('Subject 3')
    await expectFocus(page, toasts.nth(1).getByRole('button', { name: 'Dismiss' }))
    expect(await toasts.nth(1).textContent()).toContain('Subject 4')
    await page.keyboard.press('Escape')
    await expect.poll(() => toasts.count()).toBe(1)
    await expectFocus(page, toasts.first().getByRole('button', { name: 'Dismiss' }))
    await page.keyboard.press('Enter')
    await expect.poll(() => toasts.count()).toBe(0)
    await expectFocus(page, before)
    await page.close()
  })
})
