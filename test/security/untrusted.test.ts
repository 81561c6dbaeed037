import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildPage, launchBrowser } from '../support/browser'
import { INJECTIONS, XSS_FLAG } from './corpus'

const root = `${dirname(fileURLToPath(import.meta.url))}/page`

let site: Awaited<ReturnType<typeof buildPage>>
let url: string
let browser: Browser

beforeAll(async () => {
  ;[site, browser] = await Promise.all([buildPage(root), launchBrowser()])
  url = site.url
})
afterAll(async () => {
  await browser?.close()
  await site?.close()
})

interface Layout {
  width: number
  dir: 'ltr' | 'rtl'
}

/** Everything the page is watched for while it renders and the reader clicks. */
interface Watch {
  dialogs: string[]
  pageErrors: string[]
  navigations: string[]
  popups: number
  requests: string[]
}

async function openPage(layout: Layout): Promise<{ page: Page; watch: Watch }> {
  const page = await browser.newPage({ viewport: { width: layout.width, height: 1600 } })
  const watch: Watch = { dialogs: [], pageErrors: [], navigations: [], popups: 0, requests: [] }
  page.on('dialog', (dialog) => {
    watch.dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  page.on('pageerror', (error) => watch.pageErrors.push(error.message))
  page.on('framenavigated', (frame) => watch.navigations.push(frame.url()))
  page.on('popup', () => watch.popups++)
  page.on('request', (request) => watch.requests.push(request.url()))
  await page.goto(`${url}/?dir=${layout.dir}`)
  await page.waitForFunction(() => window.__ready !== undefined, undefined, { timeout: 30_000 })
  await page.waitForSelector('[role="dialog"] [data-inbox-item]', { state: 'attached', timeout: 30_000 })
  // Registered on window after the app, so it runs after the kit's own handlers: it notes where a
  // click would navigate and keeps the page here for http(s) links, so every link can be clicked in one
  // visit. Any other link is left to the browser, so a script URL that got through would run.
  await page.evaluate(() => {
    const w = window as unknown as { __followed: string[] }
    w.__followed = []
    window.addEventListener('click', (event) => {
      const link = (event.target as Element | null)?.closest?.('a')
      if (!link) return
      w.__followed.push(link.href)
      if (link.protocol === 'http:' || link.protocol === 'https:') event.preventDefault()
    })
  })
  return { page, watch }
}

/** Problems in the rendered inbox: live handlers, dangerous URLs, foreign elements, horizontal overflow. */
function inspect(): string[] {
  const problems: string[] = []
  const dialog = document.querySelector<HTMLElement>('[role="dialog"]')
  if (!dialog) return ['no dialog']
  const box = dialog.getBoundingClientRect()
  const urlAttrs = [
    'href',
    'src',
    'srcset',
    'action',
    'formaction',
    'xlink:href',
    'poster',
    'background',
    'data',
    'ping',
  ]
  for (const el of document.querySelectorAll('*')) {
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase()
      // eslint-disable-next-line no-control-regex -- a browser ignores control characters inside a URL's scheme
      const value = attr.value.replace(/[\u0000-\u0020]/g, '').toLowerCase()
      if (name.startsWith('on')) problems.push(`<${el.tagName.toLowerCase()} ${name}>`)
      // An image cannot run script, so the kit may show data:image avatars; nothing else of data: is allowed.
      const imageData =
        el.tagName === 'IMG' && name === 'src' && /^data:image\/(png|jpeg|gif|webp|avif|svg\+xml)[;,]/.test(value)
      if (urlAttrs.includes(name) && /^(javascript|data|vbscript|file|blob):/.test(value) && !imageData) {
        problems.push(`<${el.tagName.toLowerCase()} ${name}="${attr.value.slice(0, 60)}">`)
      }
      if (name === 'style' && /javascript:|expression\(/i.test(attr.value))
        problems.push(`style="${attr.value.slice(0, 60)}"`)
    }
  }
  const foreign = dialog.querySelectorAll(
    'script, iframe, object, embed, form, base, meta, link, style, marquee, video, audio, source, details, math, noscript, plaintext, table, foreignObject, animate, set, textarea, input',
  )
  for (const el of foreign) problems.push(`foreign <${el.tagName.toLowerCase()}>`)
  for (const img of dialog.querySelectorAll('img')) {
    const { protocol } = new URL(img.src)
    if (protocol !== 'http:' && protocol !== 'https:' && !/^data:image\//i.test(img.src))
      problems.push(`img src ${img.src.slice(0, 60)}`)
  }
  const feed = dialog.querySelector<HTMLElement>('[role="feed"]')
  if (!feed) problems.push('no feed')
  else if (feed.getBoundingClientRect().width > box.width + 1)
    problems.push(`feed ${feed.getBoundingClientRect().width}px > popover ${box.width}px`)
  if (dialog.scrollWidth > dialog.clientWidth + 1)
    problems.push(`popover scrolls sideways (${dialog.scrollWidth} > ${dialog.clientWidth})`)
  /** Whether something between `el` and the popover cuts off what `el` paints beyond it. */
  const clipped = (el: Element) => {
    const item = el.closest('[data-inbox-item]')
    for (let p = el.parentElement; p && item && p !== item; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== 'visible') return true
    }
    return false
  }
  for (const el of dialog.querySelectorAll<HTMLElement>('*')) {
    const r = el.getBoundingClientRect()
    if (r.width <= 1 || r.height <= 1) continue // visually hidden text
    if ((r.left < box.left - 1 || r.right > box.right + 1) && !clipped(el)) {
      problems.push(
        `<${el.tagName.toLowerCase()} class="${el.className}"> sticks out: ${r.left}..${r.right} of ${box.left}..${box.right}`,
      )
    }
    const style = getComputedStyle(el)
    if ((style.overflowX === 'auto' || style.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1) {
      problems.push(
        `<${el.tagName.toLowerCase()} class="${el.className}"> scrolls sideways (${el.scrollWidth} > ${el.clientWidth})`,
      )
    }
    if (
      style.display !== 'inline' &&
      style.overflowX === 'visible' &&
      el.scrollWidth > el.clientWidth + 1 &&
      el.clientWidth > 0
    ) {
      problems.push(
        `<${el.tagName.toLowerCase()} class="${el.className}"> content overflows (${el.scrollWidth} > ${el.clientWidth})`,
      )
    }
  }
  if (document.documentElement.scrollWidth > window.innerWidth) problems.push('the page scrolls sideways')
  // However long the text, a row stays a few lines tall: four of title, three of body, its buttons' labels few.
  for (const row of dialog.querySelectorAll<HTMLElement>('[data-inbox-item]')) {
    const height = row.getBoundingClientRect().height
    if (height > 400) problems.push(`a row ${Math.round(height)} px tall: ${row.textContent!.slice(0, 40)}`)
  }
  return problems
}

const LAYOUTS: Layout[] = [
  { width: 1024, dir: 'ltr' },
  { width: 375, dir: 'rtl' },
]

describe.each(LAYOUTS)('untrusted notification content in the real <Inbox/>, $width px $dir', (layout) => {
  it(`renders ${INJECTIONS.length} injection strings in every field inert, follows no non-http(s) link, keeps its layout`, async () => {
    const { page, watch } = await openPage(layout)
    const ready = await page.evaluate(() => window.__ready!)
    expect(ready.failed).toEqual([])
    const expected = ready.seeded + ready.triggered
    expect(expected).toBe(INJECTIONS.length * 2)

    const visited = new Set<string>()
    const problems = new Set<string>()
    let mouseClicks = 0
    let stalled = 0
    for (let round = 0; visited.size < expected && round < 400 && stalled < 40; round++) {
      const fresh = await page.evaluate(
        (seen) => {
          const ids = Array.from(document.querySelectorAll<HTMLElement>('[role="dialog"] [data-inbox-item]'))
            .map((el) => el.dataset.id!)
            .filter((id) => !seen.includes(id))
          return ids
        },
        [...visited],
      )
      // A trusted mouse click for a sample of the links (slow), a scripted click, item click and Enter for all.
      for (const id of fresh.filter((_, i) => (visited.size + i) % 10 === 0)) {
        const link = page.locator(`[data-inbox-item][data-id="${id}"] a[data-inbox-cta]`)
        // A row the list moved or let go of while the pointer aimed (rows drawn around it measured as it scrolled
        // into view) is left to the scripted clicks below; enough trusted clicks must land (checked at the end).
        if (await link.count())
          await link.click({ timeout: 5_000 }).then(
            () => mouseClicks++,
            () => {},
          )
      }
      for (const id of fresh) visited.add(id)
      await page.evaluate((ids) => {
        for (const id of ids) {
          const article = document.querySelector<HTMLElement>(`[data-inbox-item][data-id="${id}"]`)
          if (!article) continue
          article.querySelector<HTMLElement>('a[data-inbox-cta]')?.click()
          for (const button of article.querySelectorAll<HTMLButtonElement>('.inbox-item__actions button'))
            button.click()
          article.click()
          article.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
        }
      }, fresh)
      for (const problem of await page.evaluate(inspect)) problems.add(problem)
      const moved = await page.evaluate(async () => {
        const scroller = document.querySelector<HTMLElement>('[role="dialog"] .inbox-feed__scroller')!
        const before = scroller.scrollTop
        scroller.scrollTop += scroller.clientHeight * 0.9
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
        return scroller.scrollTop !== before
      })
      if (fresh.length === 0 && !moved) {
        stalled++
        await page.waitForTimeout(50)
      } else stalled = 0
    }

    const followed = await page.evaluate(() => (window as unknown as { __followed: string[] }).__followed)
    const flag = await page.evaluate((name) => (window as unknown as Record<string, unknown>)[name], XSS_FLAG)
    const boundary = await page.evaluate(() => window.__boundaryError ?? null)

    expect(visited.size).toBe(expected)
    expect(flag).toBeUndefined()
    expect(watch.dialogs).toEqual([])
    expect(watch.popups).toBe(0)
    expect(boundary).toBeNull()
    expect(watch.pageErrors).toEqual([])
    expect([...problems].slice(0, 40)).toEqual([])
    expect(new Set(watch.navigations)).toEqual(new Set([`${url}/?dir=${layout.dir}`]))
    expect(followed.length).toBeGreaterThan(20)
    expect(mouseClicks).toBeGreaterThan(5)
    // An href the browser cannot parse is no link at all (clicking it goes nowhere); any other must be http(s).
    for (const href of followed)
      expect(URL.canParse(href) ? new URL(href).protocol : 'http:', href).toMatch(/^https?:$/)
    for (const request of watch.requests) expect(request.slice(0, 80)).toMatch(/^(https?:|data:image\/)/i)
    console.info(
      `untrusted content (${layout.width} px ${layout.dir}): ${INJECTIONS.length} injection strings × 2 notifications (seeded and triggered), ${visited.size} items rendered, ${followed.length} links followed (${mouseClicks} by mouse); no script ran, no non-http(s) navigation, layout held`,
    )
    await page.close()
  }, 180_000)
})
