import type { Page, Request as PwRequest } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { demoFixture } from '../../server'
import { axeViolations } from './axe'
import {
  bell,
  bellCount,
  demoContext,
  inboxDialog,
  openDemo,
  openInbox,
  pageProblems,
  signIn,
  startDemo,
  unreadCount,
  waitForApp,
} from './demo'
import type { DemoRun } from './demo'

let run: DemoRun

beforeAll(async () => {
  run = await startDemo()
}, 120_000)

afterAll(async () => {
  await run?.close()
})

/** expect.poll with room for a loaded machine (its own default is one second). */
function eventually<T>(read: () => T | Promise<T>) {
  return expect.poll(read, { timeout: 10_000 })
}

const SECRET_KEYS = (demoFixture.apiKeys ?? []).map((k) => k.key)

/** Closes a test's page, failing the test if the page logged an error or threw. */
async function close(page: Page) {
  const problems = pageProblems(page)
  await page.context().close()
  expect(problems).toEqual([])
}

/** Sends `workflow` to the signed-in subscriber from the send panel, `times` times, and waits for the results. */
async function sendFromPanel(page: Page, payload: Record<string, unknown>, times = 1, workflow = 'Comment mention') {
  const panel = page.locator('#send')
  await panel.getByLabel('Workflow').selectOption({ label: workflow })
  await panel.getByLabel('Payload (JSON)').fill(JSON.stringify(payload))
  await panel.getByLabel('Times').fill(String(times))
  await panel.getByRole('button', { name: /^Send/ }).click()
  await panel.getByRole('list', { name: 'Trigger results' }).locator('li').first().waitFor()
  await eventually(() => panel.getByText('processed').count()).toBeGreaterThan(0)
}

const mention = (author: string) => ({
  authorName: author,
  documentTitle: 'Launch checklist',
  documentId: 'launch',
  commentId: 1,
  excerpt: 'please review',
})

async function articles(page: Page) {
  return inboxDialog(page).locator('article')
}

// Each flow drives a real page of the demo's own server; on a busy 2-core machine that takes seconds, not milliseconds.
describe('the demo, end to end in Chromium', { timeout: 60_000 }, () => {
  it('signs in as demo-user, and says so, when a link names a subscriber the demo does not have', async () => {
    const page = await openDemo(run, 'nobody-here')
    await page.getByRole('status').getByText('nobody-here').waitFor()
    await eventually(() => new URL(page.url()).searchParams.get('subscriber')).toBe('demo-user')
    await eventually(() => bellCount(page)).toBeGreaterThan(0)
    expect(await page.getByRole('alert').count()).toBe(0)
    // The bare address next time: the name that failed is not kept.
    await page.goto(run.url)
    await waitForApp(page)
    expect(new URL(page.url()).searchParams.get('subscriber')).toBe('demo-user')
    // Its failed sign-in was logged by the browser as a failed request: not a problem of the page.
    await page.context().close()
  })

  it('opens the inbox on the feed', async () => {
    const page = await openDemo(run, 'demo-user')
    await eventually(() => bellCount(page)).toBeGreaterThan(0)
    expect(await bell(page).getAttribute('aria-expanded')).toBe('false')
    await openInbox(page)
    expect(await bell(page).getAttribute('aria-expanded')).toBe('true')
    await (await articles(page)).first().waitFor()
    expect(await (await articles(page)).count()).toBeGreaterThan(4)
    // The demo has no page behind a notification's link: following one keeps the visitor on the demo and says so.
    const link = (await articles(page)).first().locator('a[href]')
    const href = (await link.getAttribute('href'))!
    const at = page.url()
    await link.focus()
    await page.keyboard.press('Enter')
    await page.getByRole('status').getByText(href).waitFor()
    expect(page.url()).toBe(at)
    await eventually(() => inboxDialog(page).count()).toBe(0)
    expect(await bell(page).evaluate((el) => el === document.activeElement)).toBe(true)
    await close(page)
  })

  it('a notification sent from the panel arrives and the badge goes up, without waiting for a poll', async () => {
    const page = await openDemo(run, 'u-priya')
    const before = await unreadCount(run, 'u-priya')
    await eventually(() => bellCount(page)).toBe(before)
    const sent = Date.now()
    await sendFromPanel(page, mention('Ada E2E'))
    // The demo polls every 30 s (the default); arriving well before that shows the trigger itself refreshed the inbox.
    await expect.poll(() => bellCount(page), { timeout: 10_000, interval: 25 }).toBe(before + 1)
    console.info(`trigger → badge: ${Date.now() - sent} ms (click to count, through the dev server)`)
    const dialog = await openInbox(page)
    await eventually(() => dialog.locator('article').first().innerText()).toContain('Ada E2E mentioned you')
    await close(page)
  })

  it('sends to a topic and to several subscribers, and refuses a payload that is not a JSON object', async () => {
    // The directory of workflows is held until the payload has been typed: arriving late, it must not replace it.
    const context = await demoContext(run)
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await context.route('**/demo-admin/directory', async (route) => {
      await held
      await route.continue()
    })
    const page = await openDemo(run, 'u-jonah', { context })
    const before = await unreadCount(run, 'u-jonah')
    await eventually(() => bellCount(page)).toBe(before)
    const panel = page.locator('#send')
    const sendButton = panel.getByRole('button', { name: /^Send/ })
    const payload = panel.getByLabel('Payload (JSON)')
    await payload.fill('{"authorName": ')
    await panel.getByText(/^Not valid JSON/).waitFor()
    release()
    await eventually(() => panel.getByLabel('Workflow').inputValue()).not.toBe('')
    expect(await payload.inputValue()).toBe('{"authorName": ')
    expect(await payload.getAttribute('aria-invalid')).toBe('true')
    expect(await sendButton.isDisabled()).toBe(true)
    await payload.fill('[1, 2]')
    await panel.getByText('The payload must be a JSON object.').waitFor()
    expect(await sendButton.isDisabled()).toBe(true)

    await panel.getByRole('radio', { name: 'A topic' }).check()
    await panel.getByRole('combobox', { name: 'Topic', exact: true }).selectOption({ label: 'Incident response' })
    await sendFromPanel(page, mention('Topic Sender'))
    await eventually(() => bellCount(page)).toBe(before + 1)
    await panel.getByText('→ topic Incident response').waitFor()

    await panel.getByRole('radio', { name: 'Several subscribers' }).check()
    await panel.getByRole('checkbox', { name: 'Jonah Whitfield' }).check()
    await panel.getByRole('checkbox', { name: 'Elin Berg' }).check()
    await sendFromPanel(page, mention('Several Sender'))
    await panel.getByText('→ 2 subscribers').waitFor()
    await eventually(() => bellCount(page)).toBe(before + 2)
    await close(page)
  })

  it('marks one notification read and unread again', async () => {
    const page = await openDemo(run, 'u-tobias')
    const before = await unreadCount(run, 'u-tobias')
    await eventually(() => bellCount(page)).toBe(before)
    await sendFromPanel(page, mention('Read Toggle'), 2)
    await eventually(() => bellCount(page)).toBe(before + 2)
    await openInbox(page)
    const first = (await articles(page)).first()
    await eventually(() => first.getAttribute('data-unread')).not.toBeNull()
    await first.getByRole('button', { name: 'Mark as read' }).click()
    await eventually(() => bellCount(page)).toBe(before + 1)
    await eventually(() => first.getAttribute('data-unread')).toBeNull()
    await first.getByRole('button', { name: 'Mark as unread' }).click()
    await eventually(() => bellCount(page)).toBe(before + 2)
    await eventually(() => first.getAttribute('data-unread')).not.toBeNull()
    await close(page)
  })

  it('marks all as read', async () => {
    const page = await openDemo(run, 'u-oskar')
    const before = await unreadCount(run, 'u-oskar')
    await eventually(() => bellCount(page)).toBe(before)
    await sendFromPanel(page, mention('Mark All'), 3)
    await eventually(() => bellCount(page)).toBe(before + 3)
    const dialog = await openInbox(page)
    await dialog.getByRole('button', { name: 'Mark all as read' }).click()
    await eventually(() => bellCount(page)).toBe(0)
    await eventually(() => dialog.locator('article[data-unread]').count()).toBe(0)
    await close(page)
  })

  it('a preference change survives a reload', async () => {
    const page = await openDemo(run, 'u-noah')
    const switches = async () => {
      const dialog = await openInbox(page)
      await dialog.getByRole('button', { name: 'Notification settings' }).click()
      const all = dialog.getByRole('switch')
      await all.first().waitFor()
      return all
    }
    const target = (await switches()).nth(1)
    const name = await target.evaluate((el) => (el as HTMLInputElement).labels?.[0]?.textContent ?? el.id)
    const before = await target.isChecked()
    const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('/preferences'))
    await target.click()
    expect((await saved).status()).toBe(200)
    await eventually(() => target.isChecked()).toBe(!before)
    await page.reload()
    await waitForApp(page)
    const again = (await switches()).nth(1)
    expect(await again.evaluate((el) => (el as HTMLInputElement).labels?.[0]?.textContent ?? el.id)).toBe(name)
    await eventually(() => again.isChecked()).toBe(!before)
    await close(page)
  })

  it('a schedule time typed by keyboard is saved once, when the field is left', async () => {
    const page = await openDemo(run, 'u-felix')
    const dialog = await openInbox(page)
    await dialog.getByRole('button', { name: 'Notification settings' }).click()
    const schedule = dialog.getByRole('region', { name: 'Delivery schedule' })
    const patches: string[] = []
    page.on('request', (r) => {
      if (r.method() === 'PATCH' && r.url().includes('/preferences')) patches.push(r.postData() ?? '')
    })
    const use = schedule.getByRole('switch', { name: 'Use a schedule' })
    if (!(await use.isChecked())) await use.click()
    const monday = schedule.getByRole('checkbox', { name: 'Monday' })
    if (!(await monday.isChecked())) await monday.click()
    const from = schedule.getByLabel('Monday From')
    await eventually(() => from.inputValue()).toBe('09:00')
    await eventually(() => page.evaluate(() => document.querySelectorAll('[data-pending]').length)).toBe(0)
    const before = patches.length
    // The first segment is the hour's: 08, then 30 in the minute's. The field passes through 08:00 and 08:03.
    await from.focus()
    await page.keyboard.type('0830', { delay: 30 })
    expect(await from.inputValue()).toBe('08:30')
    await page.keyboard.press('Tab')
    await eventually(() => patches.length).toBe(before + 1)
    expect(patches.at(-1)).toContain('08:30 AM')
    // Nothing else follows: the pause after the edit sends nothing more.
    await page.waitForTimeout(1500)
    expect(patches.length).toBe(before + 1)
    await close(page)
  })

  it('fits a phone: nothing runs off the page at 320 and 375 px, the schedule included, nor at any width up to 1280', async () => {
    for (const width of [320, 375]) {
      const context = await run.browser.newContext({ viewport: { width, height: 760 } })
      const page = await openDemo(run, 'u-elin', { context, locale: width === 320 ? 'ar' : 'de' })
      const overflow = () =>
        page.evaluate(() => {
          // The page runs off, or the header's tools do (the header itself clips them).
          const tools = document.querySelector('.demo-header-tools')!.getBoundingClientRect()
          const clipped = tools.left < -0.5 || tools.right > innerWidth + 0.5
          return document.documentElement.scrollWidth - document.documentElement.clientWidth || Number(clipped)
        })
      // A tablet's width too: the header's links and tools together need more room than the phone's rules leave.
      const runsOff: number[] = []
      for (let w = 560; w <= 1280; w += 40) {
        await page.setViewportSize({ width: w, height: 760 })
        if (await overflow()) runsOff.push(w)
      }
      expect(runsOff).toEqual([])
      await page.setViewportSize({ width, height: 760 })
      expect(await overflow()).toBe(0)
      const dialog = await openInbox(page)
      const settings = width === 320 ? 'إعدادات الإشعارات' : 'Benachrichtigungseinstellungen'
      await dialog.getByRole('button', { name: settings }).click()
      const schedule = dialog.locator('.inbox-schedule')
      const use = dialog.locator('section').last().getByRole('switch')
      if (!(await use.isChecked())) await use.click()
      await schedule.waitFor()
      const times = await schedule.locator('input[type=time]').count()
      await schedule.locator('input[type=checkbox]:not(:checked)').first().check()
      await eventually(() => schedule.locator('input[type=time]').count()).toBe(times + 2)
      const outside = await page.evaluate(() => {
        const panel = document.querySelector('[role=dialog]')!.getBoundingClientRect()
        return [...document.querySelectorAll('.inbox-schedule input, .inbox-schedule__name')].filter((el) => {
          const r = el.getBoundingClientRect()
          return r.left < Math.max(panel.left, 0) - 0.5 || r.right > Math.min(panel.right, innerWidth) + 0.5
        }).length
      })
      expect(outside).toBe(0)
      expect(await overflow()).toBe(0)
      await close(page)
    }
  })

  it('sets a primary integration, its panel reached from the header without its title going under the header, at any width', async () => {
    const page = await openDemo(run, 'demo-user')
    const panel = page.locator('#integrations')
    await panel.locator('li').first().waitFor()
    // Wide, the links sit beside the header's tools; narrower, on a row of their own; on a phone the header
    // scrolls away with the page.
    for (const width of [1280, 800, 600, 375]) {
      await page.setViewportSize({ width, height: 760 })
      await page.evaluate(() => scrollTo(0, 0))
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Integrations' }).click()
      await eventually(() => page.evaluate(() => scrollY)).toBeGreaterThan(0)
      const headerBottom = await page.locator('.demo-header').evaluate((el) => el.getBoundingClientRect().bottom)
      const titleTop = await panel.getByRole('heading', { level: 2 }).evaluate((el) => el.getBoundingClientRect().top)
      expect(titleTop, `${width} px`).toBeGreaterThanOrEqual(Math.max(headerBottom, 0))
      expect(titleTop, `${width} px`).toBeLessThan(200)
    }
    await page.setViewportSize({ width: 1280, height: 760 })
    const makeBackup = panel.getByRole('button', { name: 'Make primary Backup email Development' })
    await makeBackup.click()
    await panel.getByRole('button', { name: 'Make primary SMTP relay Development' }).waitFor()
    await eventually(() => makeBackup.count()).toBe(0)
    // The other environment keeps its own primary.
    expect(await panel.getByRole('button', { name: 'Make primary Backup email Production' }).count()).toBe(1)
    await close(page)
  })

  it('pages through topic subscriptions', async () => {
    const page = await openDemo(run, 'demo-user')
    const panel = page.locator('#topics')
    const mine = panel.locator('.demo-my-topics')
    const myItems = () => mine.locator('li').allInnerTexts()
    await eventually(async () => (await myItems()).length).toBe(3)
    const first = await myItems()
    await mine.getByRole('button', { name: 'Next' }).click()
    await eventually(async () => (await myItems()).join()).not.toBe(first.join())
    const second = await myItems()
    expect(second.length).toBe(2)
    expect(second.some((t) => first.includes(t))).toBe(false)
    await mine.getByRole('button', { name: 'Previous' }).click()
    await eventually(async () => (await myItems()).join()).toBe(first.join())

    await panel.getByRole('combobox', { name: 'Topic', exact: true }).selectOption({ label: 'Platform team' })
    const members = panel.getByRole('list', { name: 'Topic subscribers' })
    const pager = panel.getByRole('navigation', { name: 'Topic subscribers pages' })
    await eventually(() => members.locator('li').count()).toBe(3)
    await eventually(() => pager.innerText()).toContain('8 in all')
    const page1 = await members.locator('li').allInnerTexts()
    await pager.getByRole('button', { name: 'Next' }).click()
    await eventually(async () => (await members.locator('li').allInnerTexts()).join()).not.toBe(page1.join())
    await pager.getByRole('button', { name: 'Next' }).click()
    await eventually(() => members.locator('li').count()).toBe(2)
    expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true)
    await close(page)
  })

  it('offers Try again when a topic list cannot be loaded, the first page or the next, and loads it then', async () => {
    // The network fails for both lists until the test says otherwise.
    const context = await demoContext(run)
    let failing = true
    for (const pattern of ['**/api/inbox/v2/subscribers/*/subscriptions*', '**/demo-admin/v2/topics/*/subscriptions*'])
      await context.route(pattern, (route) => (failing ? route.abort() : route.continue()))
    const page = await openDemo(run, 'demo-user', { context })
    const panel = page.locator('#topics')
    const mine = panel.locator('.demo-my-topics')
    const members = panel.locator('.demo-group').nth(1)
    for (const group of [mine, members]) {
      await group.getByRole('button', { name: 'Try again' }).waitFor({ timeout: 30_000 })
      expect(await group.getByRole('alert').count()).toBe(1)
      expect(await group.locator('li').count()).toBe(0)
    }
    failing = false
    await mine.getByRole('button', { name: 'Try again' }).click()
    // The button goes with the error: focus waits on the list's heading.
    await eventually(() => mine.locator('li').count()).toBe(3)
    expect(await mine.getByRole('button', { name: 'Try again' }).count()).toBe(0)
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Your topics')
    await members.getByRole('button', { name: 'Try again' }).click()
    await eventually(() => members.locator('li').count()).toBe(3)
    expect(await members.getByRole('alert').count()).toBe(0)

    // A next page that fails keeps the page before in view, under the error; Try again loads the next.
    const first = await mine.locator('li').allInnerTexts()
    failing = true
    await mine.getByRole('button', { name: 'Next' }).click()
    await mine.getByRole('button', { name: 'Try again' }).waitFor({ timeout: 30_000 })
    expect(await mine.locator('li').allInnerTexts()).toEqual(first)
    failing = false
    await mine.getByRole('button', { name: 'Try again' }).click()
    await eventually(() => mine.locator('li').count()).toBe(2)
    expect(await mine.getByRole('alert').count()).toBe(0)

    // The failed requests are the only problems the page had.
    const problems = pageProblems(page)
    await context.close()
    expect(problems.filter((p) => !p.includes('net::ERR_FAILED'))).toEqual([])
  })

  it("lines the topic lists up with the panels beside them, paged with the demo's own buttons", async () => {
    const page = await openDemo(run, 'demo-user')
    await page.locator('#topics .demo-my-topics li').first().waitFor()
    await page.locator('#topics ul[aria-label="Topic subscribers"] li').first().waitFor()
    await page.locator('#integrations li').first().waitFor()
    // Left and right insets of a part from its panel's border box, and the top of a panel's first section heading.
    const inset = (panel: string, part: string) =>
      page.evaluate(
        ([panel, part]) => {
          const outer = document.querySelector(panel!)!.getBoundingClientRect()
          const inner = document.querySelector(`${panel} ${part}`)!.getBoundingClientRect()
          return [Math.round(inner.left - outer.left), Math.round(outer.right - inner.right)]
        },
        [panel, part],
      )
    const headingTop = (panel: string) =>
      page
        .locator(`${panel} .demo-group h3`)
        .first()
        .evaluate((el) => Math.round(el.getBoundingClientRect().top))
    const integrations = await inset('#integrations', '.demo-list')
    expect(await inset('#topics', '.demo-my-topics ul')).toEqual(integrations)
    expect(await inset('#topics', 'ul[aria-label="Topic subscribers"]')).toEqual(integrations)
    expect(await inset('#topics', 'select')).toEqual(integrations)
    expect(await headingTop('#topics')).toBe(await headingTop('#integrations'))
    const buttons = page.locator('#topics button')
    expect(await buttons.count()).toBe(4)
    for (const button of await buttons.all())
      expect(await button.getAttribute('class')).toBe('demo-button demo-button-small')
    await close(page)
  })

  it('works by keyboard alone: Tab to the bell, Enter, arrows, Escape returns focus', async () => {
    const page = await openDemo(run, 'demo-user')
    await eventually(() => bellCount(page)).toBeGreaterThan(0)
    const isBellFocused = () => bell(page).evaluate((el) => el === document.activeElement)
    for (let i = 0; i < 20 && !(await isBellFocused()); i++) await page.keyboard.press('Tab')
    expect(await isBellFocused()).toBe(true)
    await page.keyboard.press('Enter')
    const dialog = inboxDialog(page)
    await dialog.waitFor()
    await dialog.locator('article').first().waitFor()
    const focusedArticle = () =>
      page.evaluate(() => {
        const el = document.activeElement
        return el?.tagName === 'ARTICLE' ? (el.getAttribute('data-id') ?? el.textContent) : null
      })
    // The feed keeps one item in the tab order (roving focus); arrows move from there.
    for (let i = 0; i < 10 && (await focusedArticle()) === null; i++) await page.keyboard.press('Tab')
    const zero = await focusedArticle()
    expect(zero).not.toBeNull()
    await page.keyboard.press('ArrowDown')
    await eventually(focusedArticle).not.toBe(zero)
    const one = await focusedArticle()
    expect(one).not.toBeNull()
    await page.keyboard.press('ArrowDown')
    await eventually(focusedArticle).not.toBe(one)
    await page.keyboard.press('ArrowUp')
    await eventually(focusedArticle).toBe(one)
    // Focus stays inside the open dialog.
    for (let i = 0; i < 12; i++) await page.keyboard.press('Tab')
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true)
    await page.keyboard.press('Escape')
    await eventually(() => dialog.count()).toBe(0)
    expect(await isBellFocused()).toBe(true)
    await close(page)
  })

  it('has no axe violations with the inbox open, light and dark, left-to-right and right-to-left', async () => {
    const found: string[] = []
    // Each theme and each direction once: the rules of a theme are the same whichever way the text runs.
    for (const [theme, locale] of [
      ['light', 'en'],
      ['dark', 'ar'],
    ] as const) {
      const page = await openDemo(run, 'demo-user', { theme, locale })
      const dialog = await openInbox(page)
      await dialog.locator('article').first().waitFor()
      await page.locator('#integrations li').first().waitFor()
      for (const v of await axeViolations(page))
        found.push(`${theme}/${locale} ${v.id}: ${v.help} — ${v.targets.slice(0, 3).join(', ')}`)
      await close(page)
    }
    expect(found).toEqual([])
  })

  it('the page never holds the API key: no request carries it and no response the page loads contains it', async () => {
    // Through `npm run dev`'s dev server itself, which serves the page's sources one module at a time.
    const dev = await startDemo({ dev: true, browser: run.browser })
    onTestFinished(() => dev.close())
    const context = await dev.browser.newContext()
    const requests: PwRequest[] = []
    const bodies: Promise<{ url: string; text: string }>[] = []
    // The event stream stays open, so the network is never idle: wait for every other request instead.
    const stream = (request: PwRequest) => new URL(request.url()).pathname.endsWith('/events')
    let inFlight = 0
    let lastDone = Date.now()
    const done = (request: PwRequest) => void (stream(request) || (inFlight--, (lastDone = Date.now())))
    context.on('request', (request) => (requests.push(request), stream(request) || inFlight++))
    context.on('requestfinished', done)
    context.on('requestfailed', done)
    context.on('response', (response) => {
      // A stream's body ends only when it closes; it carries event ids, and its request is checked below.
      if (stream(response.request())) return
      bodies.push(
        response
          .text()
          .then((text) => ({ url: response.url(), text }))
          .catch(() => ({ url: response.url(), text: '' })),
      )
    })
    const page = await openDemo(dev, 'demo-user', { context })
    await openInbox(page)
    await (await articles(page)).first().waitFor()
    await page.keyboard.press('Escape')
    await sendFromPanel(page, mention('Key Check'))
    await page.locator('#integrations').getByText('Primary').first().waitFor()
    // The admin backend takes a demo session, as the page's own requests do.
    const triggered = await fetch(`${dev.url}/demo-admin/v1/events/trigger`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await signIn(dev, 'demo-user')}` },
      body: JSON.stringify({ name: 'comment-mention', to: 'u-mara', payload: mention('Switch Check') }),
    })
    expect(triggered.status).toBe(201)
    await page.locator('.demo-switcher select').selectOption('u-mara')
    await eventually(() => page.url()).toContain('subscriber=u-mara')
    // Signed in as someone else: the inbox now shows that subscriber's count.
    const maras = await unreadCount(dev, 'u-mara')
    expect(maras).toBeGreaterThan(0)
    await eventually(() => bellCount(page)).toBe(maras)
    await eventually(() => inFlight === 0 && Date.now() - lastDone > 500).toBe(true)

    expect(requests.length).toBeGreaterThan(10)
    expect(requests.some(stream), 'the inbox listens on the event stream').toBe(true)
    for (const request of requests) {
      const headers = await request.allHeaders()
      for (const [name, value] of Object.entries(headers)) {
        expect(value, `${request.url()} ${name}`).not.toMatch(/ApiKey/i)
        for (const key of SECRET_KEYS) expect(value, `${request.url()} ${name}`).not.toContain(key)
      }
      for (const key of SECRET_KEYS) expect(request.postData() ?? '', request.url()).not.toContain(key)
    }
    const loaded = await Promise.all(bodies)
    expect(loaded.some((b) => b.url.endsWith('.tsx') || b.url.includes('/src/'))).toBe(true)
    for (const { url, text } of loaded) {
      for (const key of SECRET_KEYS) expect(text.includes(key), `${url} contains an API key`).toBe(false)
    }
    expect(pageProblems(page)).toEqual([])
    await context.close()
  })

  it("one subscriber's token can neither read nor mark another's messages", async () => {
    const api = (path: string, token: string | null, init: RequestInit = {}) =>
      fetch(`${run.url}/api/inbox${path}`, {
        ...init,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      })
    const mine = await signIn(run, 'demo-user')
    const mara = await signIn(run, 'u-mara')
    const feed = await api('/v1/subscribers/demo-user/notifications/feed?read=false&limit=1', mine)
    expect(feed.status).toBe(200)
    const target = ((await feed.json()) as { data: { _id: string; read: boolean }[] }).data[0]!
    expect(target.read).toBe(false)

    expect((await api('/v1/subscribers/demo-user/notifications/feed', mara)).status).toBe(403)
    expect((await api('/v1/subscribers/demo-user/notifications/feed', null)).status).toBe(401)
    expect(
      (
        await api(
          '/v1/subscribers/demo-user/notifications/feed',
          mine.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
        )
      ).status,
    ).toBe(401)
    const markAs = await api('/v1/subscribers/demo-user/messages/mark-as', mara, {
      method: 'POST',
      body: JSON.stringify({ messageId: target._id, markAs: 'read' }),
    })
    expect(markAs.status).toBe(403)
    // Mara marking the message through her own id skips it: it is not hers.
    const viaOwnId = await api('/v1/subscribers/u-mara/messages/mark-as', mara, {
      method: 'POST',
      body: JSON.stringify({ messageId: target._id, markAs: 'read' }),
    })
    expect(await viaOwnId.json()).toEqual([])
    expect((await api('/v2/subscribers/demo-user/preferences', mara)).status).toBe(403)
    expect(
      (await api('/v1/events/trigger', mara, { method: 'POST', body: JSON.stringify({ name: 'x', to: 'u-mara' }) }))
        .status,
    ).toBe(403)

    const after = await api('/v1/subscribers/demo-user/notifications/feed?read=false&limit=100', mine)
    const ids = ((await after.json()) as { data: { _id: string }[] }).data.map((m) => m._id)
    expect(ids).toContain(target._id)
  })
})
