/**
 * The inbox on a host page, in Chromium: the app's stylesheet comes first (as an app's global CSS does) and
 * its layout around the bell is the app's. A designer's tokens must take effect wherever they are loaded.
 */
import type { Browser, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { servePage } from '../support/browser'

let browser: Browser
let url = ''
servePage(new URL('./host', import.meta.url), (u, b) => ((url = u), (browser = b)))

/** The page with the host's `css` before the kit's stylesheet, once the bell shows its count. */
async function open(css: string, theme = 'light', extra: Record<string, string> = {}, width = 1000): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 700 } })
  await page.goto(`${url}/?${new URLSearchParams({ css, theme, ...extra })}`)
  await page.locator('.inbox-bell[data-count]').waitFor()
  return page
}

const BAR = '#bar { display: flex; justify-content: space-between; align-items: center; padding: 8px 16px; } '

describe('a designer brands the inbox', () => {
  it("with tokens on [data-inbox-root] loaded before the kit's stylesheet; dark values only where given", async () => {
    const page = await open(
      BAR +
        '[data-inbox-root] { --inbox-badge-bg: rgb(0, 128, 0); --inbox-accent: rgb(225, 29, 72); } ' +
        "[data-inbox-root][data-inbox-theme='dark'] { --inbox-badge-bg: rgb(0, 0, 128); }",
      'system',
    )
    const look = () =>
      page.evaluate(() => {
        const inbox = document.querySelector('[data-inbox-root]')!
        return {
          theme: inbox.getAttribute('data-inbox-theme'),
          badge: getComputedStyle(document.querySelector('.inbox-bell__badge')!).backgroundColor,
          accent: getComputedStyle(inbox).getPropertyValue('--inbox-accent'),
        }
      })
    expect(await look()).toEqual({ theme: 'light', badge: 'rgb(0, 128, 0)', accent: 'rgb(225, 29, 72)' })
    // The light brand does not reach the dark theme, whose own override does.
    await page.emulateMedia({ colorScheme: 'dark' })
    await expect.poll(look).toEqual({ theme: 'dark', badge: 'rgb(0, 0, 128)', accent: '#8b8cf8' })
    await page.close()
  })
})

describe('the text size token', () => {
  type Sizes = Map<string, number[]>
  /**
   * The font sizes (px) of each part of the inbox that holds text (or is a text field), part → the sizes found,
   * with the feed open and then in the settings (elements without a part of their own go by tag name), and the parts
   * whose text is taller than their box.
   */
  async function sizes(css: string): Promise<{ feed: Sizes; settings: Sizes; clipped: string[] }> {
    const page = await open(BAR + css)
    const clipped: string[] = []
    const read = async () => {
      const [found, over] = await page.evaluate(() => {
        const texts = Array.from(document.querySelectorAll('[data-inbox-root], [data-inbox-root] *')).filter(
          (el) =>
            el.matches('input:not([type=checkbox])') ||
            Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim()),
        )
        const part = (el: Element) => el.getAttribute('data-part') ?? el.tagName.toLowerCase()
        return [
          texts.map((el) => [part(el), parseFloat(getComputedStyle(el).fontSize)]),
          // A text taller than its box: cut off, or drawn over what is below it. Not one cut off on purpose: a
          // body clamped to its lines, a screen reader's text hidden in a 1 px box.
          texts
            .filter((el) => {
              const style = getComputedStyle(el)
              const meant = style.webkitLineClamp !== 'none' || el.clientWidth <= 1 || el.matches('input')
              return !meant && el.scrollHeight > el.clientHeight + 1
            })
            .map(part),
        ] as const
      })
      clipped.push(...over)
      const parts: Sizes = new Map()
      for (const [part, size] of found as [string, number][]) {
        const seen = parts.get(part) ?? []
        if (!seen.includes(size))
          parts.set(
            part,
            [...seen, size].sort((a, b) => a - b),
          )
      }
      return parts
    }
    await page.locator('.inbox-bell').click()
    await page.locator('.inbox-item__body').first().waitFor()
    const feed = await read()
    await page.getByRole('button', { name: 'Notification settings' }).click()
    await page.locator('.inbox-prefs__workflow-name').first().waitFor()
    const settings = await read()
    await page.close()
    return { feed, settings, clipped }
  }
  let defaults: ReturnType<typeof sizes> | undefined

  const FEED = ['item-title', 'item-body', 'item-time', 'bell-badge', 'tabs-tab', 'button', 'header-title', 'feed-day']
  const SETTINGS = ['prefs-title', 'prefs-workflow-name', 'switch-label']

  it('keeps the sizes of before at its default 14 px', async () => {
    const { feed } = await (defaults ??= sizes(''))
    expect(Object.fromEntries(FEED.map((part) => [part, feed.get(part)]))).toEqual({
      'item-title': [14],
      'item-body': [13.5],
      'item-time': [12],
      'bell-badge': [11],
      'tabs-tab': [13],
      button: [13],
      'header-title': [16],
      'feed-day': [12],
    })
  })

  it.each([28, 12])('at %i px scales every text of the bell, the feed and the settings from 14 px', async (px) => {
    const base = await (defaults ??= sizes(''))
    const scaled = await sizes(`[data-inbox-root] { --inbox-font-size: ${px}px; }`)
    for (const [view, named] of [
      ['feed', FEED],
      ['settings', SETTINGS],
    ] as const) {
      for (const part of named) expect(base[view].has(part), part).toBe(true)
      // Each part's sizes are its default ones times px / 14, sub-pixel rounding aside: none stays fixed.
      const off = [...base[view]].flatMap(([part, was]) => {
        const now = scaled[view].get(part)
        const ok = now?.length === was.length && now.every((size, i) => Math.abs(size - (was[i]! * px) / 14) < 0.01)
        return ok ? [] : [`${part}: ${was.join(', ')} -> ${now?.join(', ')}`]
      })
      expect(off, view).toEqual([])
    }
    // Every box grows with its text.
    expect(base.clipped).toEqual([])
    expect(scaled.clipped).toEqual([])
  })
})

describe('the bell where the app puts it', () => {
  it('opens in a header with overflow: hidden without scrolling the header, the bell with it', async () => {
    const page = await open(BAR + '#bar { overflow: hidden; height: 56px; box-sizing: border-box; }')
    const before = await page.locator('.inbox-bell').boundingBox()
    await page.locator('.inbox-bell').click()
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('dialog')
    expect(await page.evaluate(() => document.getElementById('bar')!.scrollTop)).toBe(0)
    expect(await page.locator('.inbox-bell').boundingBox()).toEqual(before)
    // Closed again, the header is as it was.
    await page.keyboard.press('Escape')
    await expect.poll(() => page.evaluate(() => document.activeElement?.className)).toContain('inbox-bell')
    expect(await page.locator('.inbox-bell').boundingBox()).toEqual(before)
    await page.close()
  })
})

describe('the bell in a header that clips what overflows it', () => {
  const CLIP = BAR + '#bar { overflow: hidden; height: 56px; box-sizing: border-box; }'
  /** Whether the dialog's bottom edge, 20 px in from its side, is the dialog's own (not what lies under it). */
  const bottomShows = (page: Page) =>
    page.evaluate(() => {
      const box = document.querySelector('[role=dialog]')!.getBoundingClientRect()
      return !!document.elementFromPoint(box.left + 20, box.bottom - 20)?.closest('[role=dialog]')
    })

  it('cuts the popover off in place, and shows it whole with `portal`, placed at the bell, keyboard path kept', async () => {
    const clipped = await open(CLIP)
    await clipped.locator('.inbox-bell').click()
    await clipped.getByRole('dialog').waitFor()
    expect(await bottomShows(clipped)).toBe(false)
    await clipped.close()

    const page = await open(CLIP, 'light', { portal: '' })
    const bell = (await page.locator('.inbox-bell').boundingBox())!
    await page.locator('.inbox-bell').focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog')
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('dialog')
    expect(await bottomShows(page)).toBe(true)
    // Outside the header, in the body, in the inbox's theme; under the bell, its end at the bell's end.
    expect(await dialog.evaluate((el) => !!el.closest('#bar') || !el.closest('[data-inbox-theme=light]'))).toBe(false)
    const box = (await dialog.boundingBox())!
    expect(box.y).toBeGreaterThanOrEqual(bell.y + bell.height)
    expect(Math.round(box.x + box.width)).toBe(Math.round(bell.x + bell.width))
    await page.keyboard.press('Escape')
    await expect.poll(() => page.evaluate(() => document.activeElement?.className)).toContain('inbox-bell')
    await page.close()
  })
})

describe('toasts from a bell in a blurred sticky header', () => {
  it('show in the corner of the screen, in the theme of the inbox', async () => {
    const page = await open(
      BAR + 'body { margin: 0; min-height: 2000px; } #bar { position: sticky; top: 0; backdrop-filter: blur(8px); }',
      'dark',
      { toasts: '' },
    )
    // Sent once the bell has its count, the toasts' code perhaps still on its way: shown once it is there.
    await page.evaluate(() => (window as unknown as { arrive: () => Promise<unknown> }).arrive())
    const toast = page.locator('.inbox-toast')
    await toast.waitFor()
    // 16 px from the bottom and the end of the viewport (not of the header, which a filter makes their box).
    await expect
      .poll(async () => {
        const box = (await toast.boundingBox())!
        return [Math.round(box.x + box.width), Math.round(box.y + box.height)]
      })
      .toEqual([984, 684])
    expect(await toast.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(26, 26, 32)')
    await page.close()
  })

  it('stay a few lines tall whatever the sender wrote, their dismiss button on the screen', async () => {
    const page = await open(BAR, 'light', { toasts: '' })
    await page.locator('.inbox-toaster').waitFor({ state: 'attached' })
    await page.evaluate(() =>
      (window as unknown as { arrive: (p: { subject: string; body: string }) => Promise<unknown> }).arrive({
        subject: 'Your session has expired. '.repeat(60),
        body: 'Call support at once to keep your account. '.repeat(200),
      }),
    )
    const toast = page.locator('.inbox-toast')
    await toast.waitFor()
    const box = (await toast.boundingBox())!
    expect(box.height).toBeLessThan(200)
    expect(box.y).toBeGreaterThanOrEqual(0)
    const dismiss = (await toast.getByRole('button').last().boundingBox())!
    expect(dismiss.y).toBeGreaterThanOrEqual(0)
    await page.close()
  })
})

describe('on a phone, the bell in a blurred tab bar at the bottom', () => {
  it('covers the screen from its top, though the blur makes the bar the box of what is fixed in it', async () => {
    const page = await open(
      BAR + '#bar { position: fixed; inset: auto 0 0; backdrop-filter: blur(8px); }',
      'light',
      {},
      400,
    )
    await page.locator('.inbox-bell').click()
    const dialog = page.getByRole('dialog')
    await dialog.waitFor()
    await expect
      .poll(async () => {
        const box = (await dialog.boundingBox())!
        return [box.x, box.y, box.x + box.width, box.y + box.height]
      })
      .toEqual([8, 8, 392, 692])
    await page.close()
  })
})

describe('the popover as it opens', () => {
  it('reads the layout once to place itself: nothing it reads comes after something it set', async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } })
    // Each read of a box or size, and each custom property set on an element, in order, while the popover opens.
    await page.addInitScript(() => {
      const log: string[] = []
      Object.assign(window, { __layout: log })
      const set = CSSStyleDeclaration.prototype.setProperty
      CSSStyleDeclaration.prototype.setProperty = function (name: string, ...rest: [string, string?]) {
        if (name.startsWith('--inbox-')) log.push('set ' + name)
        return set.call(this, name, ...rest)
      }
      const read = (proto: object, name: string) => {
        const own = Object.getOwnPropertyDescriptor(proto, name)!
        Object.defineProperty(proto, name, {
          ...own,
          ...(own.get
            ? {
                get: function (this: unknown) {
                  log.push('read ' + name)
                  return own.get!.call(this)
                },
              }
            : {
                value: function (this: unknown, ...a: unknown[]) {
                  log.push('read ' + name)
                  return (own.value as (...a: unknown[]) => unknown).apply(this, a)
                },
              }),
        })
      }
      for (const n of ['offsetHeight', 'offsetWidth', 'offsetLeft', 'offsetTop']) read(HTMLElement.prototype, n)
      for (const n of ['getBoundingClientRect', 'clientHeight', 'clientWidth']) read(Element.prototype, n)
    })
    await page.goto(`${url}/?css=`)
    await page.locator('.inbox-bell[data-count]').waitFor()
    // The popover's code first, so that only the opening is logged.
    await page.locator('.inbox-bell').hover()
    await page.waitForLoadState('networkidle')
    await page.evaluate(() => ((window as unknown as { __layout: string[] }).__layout.length = 0))
    await page.locator('.inbox-bell').click()
    await page.getByRole('dialog').waitFor()
    const log = await page.evaluate(() => (window as unknown as { __layout: string[] }).__layout)
    const placed = log.findIndex((e) => e.startsWith('set '))
    expect(placed).toBeGreaterThan(0)
    const sets = log.slice(placed).filter((e) => e.startsWith('set '))
    expect(sets.sort()).toEqual([
      'set --inbox-anchor-end',
      'set --inbox-anchor-start',
      'set --inbox-room',
      'set --inbox-shift',
      'set --inbox-top',
    ])
    // From the first property set to the last, no read between them.
    const last = log.findLastIndex((e) => e.startsWith('set '))
    expect(log.slice(placed, last + 1).filter((e) => e.startsWith('read '))).toEqual([])
    await page.close()
  })
})

describe('a bell with room for the popover on neither side', () => {
  for (const [placement, portal] of [
    ['bottom-end', true],
    ['top-start', true],
    ['bottom-end', false],
  ] as const)
    it(`keeps it within the viewport, on the larger side (${placement}${portal ? ', portal' : ''})`, async () => {
      // The bell halfway down a 700px viewport: 580px of popover fits neither above nor below it.
      const page = await open(BAR + '#bar { margin-top: 300px; }', 'light', {
        placement,
        ...(portal ? { portal: '' } : {}),
      })
      const bell = (await page.locator('.inbox-bell').boundingBox())!
      await page.locator('.inbox-bell').click()
      const dialog = page.getByRole('dialog')
      await dialog.getByRole('article').first().waitFor()
      const [above, below] = [bell.y, 700 - bell.y - bell.height]
      // On the larger side, 8px from the bell and 8px in from the viewport's edge, the whole of it (placed again
      // when its content comes), to the pixel: the bell's edges fall between pixels.
      const want = above > below ? [8, bell.y - 8] : [bell.y + bell.height + 8, 692]
      const off = async () => {
        const box = (await dialog.boundingBox())!
        return Math.max(Math.abs(box.y - want[0]!), Math.abs(box.y + box.height - want[1]!))
      }
      await expect.poll(off).toBeLessThan(1)
      const box = (await dialog.boundingBox())!
      // Its header within it, not cut off.
      const heading = (await dialog.getByRole('heading', { name: 'Notifications' }).boundingBox())!
      expect(heading.y).toBeGreaterThanOrEqual(box.y)
      await page.close()
    })
})

describe('the window resized with the inbox open', () => {
  it('keeps the popover on screen when it narrows to a phone, with the bell at the start', async () => {
    const page = await open(BAR + '#bar { flex-direction: row-reverse; }')
    await page.locator('.inbox-bell').click()
    const dialog = page.getByRole('dialog')
    await dialog.waitFor()
    // Moved along from its bell-end placement to stay in the viewport.
    await expect.poll(async () => (await dialog.boundingBox())?.x).toBe(8)
    await page.setViewportSize({ width: 400, height: 700 })
    // Over the whole screen, 8 px in.
    await expect
      .poll(async () => {
        const box = (await dialog.boundingBox())!
        return [box.x, box.x + box.width]
      })
      .toEqual([8, 392])
    await page.close()
  })
})

describe('switches in each theme', () => {
  for (const theme of ['light', 'dark'])
    it(`tell on from off at 3:1 at least: the thumb against the track, the track against the panel (${theme})`, async () => {
      const page = await open(BAR, theme)
      await page.locator('.inbox-bell').click()
      await page.getByRole('button', { name: 'Notification settings' }).click()
      await page.locator('.inbox-switch__input').first().waitFor()
      const ratios = await page.evaluate(() => {
        const rgb = (color: string) =>
          color
            .match(/[\d.]+/g)!
            .slice(0, 3)
            .map(Number)
        const luminance = (color: string) => {
          const [r, g, b] = rgb(color).map((v) =>
            v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4,
          )
          return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
        }
        const contrast = (a: string, b: string) => {
          const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
          return (hi! + 0.05) / (lo! + 0.05)
        }
        const panel = getComputedStyle(document.querySelector('[role="dialog"]')!).backgroundColor
        return ['checked', 'not(:checked)'].map((state) => {
          const input = document.querySelector(`.inbox-switch__input:${state}:not(:disabled)`)!
          const track = getComputedStyle(input).backgroundColor
          const thumb = getComputedStyle(input, '::before').backgroundColor
          return { state, thumb: contrast(thumb, track), track: contrast(track, panel) }
        })
      })
      for (const { state, thumb, track } of ratios) {
        expect(thumb, `${state}: thumb on track`).toBeGreaterThanOrEqual(3)
        expect(track, `${state}: track on panel`).toBeGreaterThanOrEqual(3)
      }
      await page.close()
    })
})

describe("the app's rules for elements", () => {
  it('leave headings, icons and title links as the inbox draws them, in the dark theme', async () => {
    const page = await open(
      BAR +
        'h1, h2, h3, h4 { color: rgb(31, 41, 55); font-family: Georgia, serif; } ' +
        'svg { fill: currentColor; } a:hover { color: rgb(37, 99, 235); }',
      'dark',
    )
    await page.locator('.inbox-bell').click()
    const title = page.locator('.inbox-item__link').first()
    await title.hover()
    // What differs from the inbox's own text color and font, and which of its icons are filled.
    const astray = () =>
      page.evaluate(() => {
        const inbox = getComputedStyle(document.querySelector('[data-inbox-root]')!)
        const parts = document.querySelectorAll('h2, h3, h4, .inbox-item__link:hover')
        return [
          ...Array.from(parts).flatMap((el) => {
            const own = getComputedStyle(el)
            return own.color === inbox.color && own.fontFamily === inbox.fontFamily
              ? []
              : [`${el.className}: ${own.color} ${own.fontFamily}`]
          }),
          ...Array.from(document.querySelectorAll('[data-inbox-root] svg'))
            .filter((svg) => getComputedStyle(svg).fill !== 'none')
            .map(
              (svg) => `${svg.closest('[data-part]')?.getAttribute('data-part')} svg: ${getComputedStyle(svg).fill}`,
            ),
        ]
      })
    expect(await astray()).toEqual([])
    expect(await page.locator('h2, h3').count()).toBeGreaterThan(3)
    // The settings, with their section and workflow headings.
    await page.getByRole('button', { name: 'Notification settings' }).click()
    await page.locator('.inbox-prefs__workflow-name').first().waitFor()
    expect(await astray()).toEqual([])
    await page.close()
  })
})

describe('the code a page loads for the bell alone', () => {
  it("keeps the count current without the ledger's code, and hands the looks to the ledger once a list shows", async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } })
    const fetched: string[] = []
    page.on('request', (r) => fetched.push(r.url()))
    await page.goto(`${url}/?css=&poll=200`)
    const count = () => page.locator('.inbox-bell').getAttribute('data-count').then(Number)
    await page.locator('.inbox-bell[data-count]').waitFor()
    const first = await count()
    const ledger = () => fetched.filter((u) => /\/ledger[-.][^/]*$/.test(u))
    // Looks that find nothing new, then one that finds a notification: the count follows, with no ledger.
    await page.waitForTimeout(600)
    await page.evaluate(() => (window as unknown as { arrive: () => Promise<unknown> }).arrive())
    await expect.poll(count).toBe(first + 1)
    expect(ledger()).toEqual([])
    expect(fetched.filter((u) => /\/live[-.][^/]*$/.test(u))).toHaveLength(1)
    // The list brings the ledger; the looks from then on refresh the list too.
    await page.locator('.inbox-bell').click()
    const rows = page.getByRole('dialog').locator('[data-inbox-item]')
    await rows.first().waitFor()
    expect(ledger()).toHaveLength(1)
    const before = await rows.count()
    await page.evaluate(() => (window as unknown as { arrive: () => Promise<unknown> }).arrive())
    await expect.poll(() => rows.count()).toBe(before + 1)
    await page.close()
  })
})

describe("the inbox's code on a flaky network", { timeout: 45_000 }, () => {
  it('waits for the network to come back before fetching the popover, and then opens it by itself', async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 700 } })
    const page = await context.newPage()
    const fetched: string[] = []
    page.on('request', (r) => fetched.push(r.url()))
    await page.goto(`${url}/?css=`)
    await page.locator('.inbox-bell[data-count]').waitFor()
    // What loads right after the first render is there (the live loop).
    await page.waitForLoadState('networkidle')
    await context.setOffline(true)
    await page.locator('.inbox-bell').click()
    // Said, with nothing to try again: it comes by itself.
    await page
      .getByRole('alert')
      .getByText('You’re offline. Notifications will update when you’re back online.')
      .waitFor()
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0)
    expect(fetched.filter((u) => /\/popover[-.][^/]*$/.test(u))).toEqual([])
    await context.setOffline(false)
    await page.getByRole('dialog').waitFor()
    await context.close()
  })

  it('starts looking for news only once a page that opened offline is back online', async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } })
    // The browser says it is offline until the test says otherwise.
    await page.addInitScript(() =>
      Object.defineProperty(navigator, 'onLine', { get: () => !!(window as { online?: boolean }).online }),
    )
    const fetched: string[] = []
    page.on('request', (r) => fetched.push(r.url()))
    await page.goto(`${url}/?css=`)
    await page.locator('.inbox-bell[data-count]').waitFor()
    await page.waitForLoadState('networkidle')
    const live = () => fetched.filter((u) => /\/live[-.][^/]*$/.test(u))
    expect(live()).toEqual([])
    await page.evaluate(() => {
      ;(window as { online?: boolean }).online = true
      dispatchEvent(new Event('online'))
    })
    await expect.poll(live).toHaveLength(1)
    await page.close()
  })

  /** The page, once the bell shows its count, with every request for the chunk named `chunk` refused. */
  async function openWithout(chunk: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } })
    await page.route(new RegExp(`/${chunk}[-.][^/]*$`), (route) => route.abort())
    await page.goto(`${url}/?css=`)
    await page.locator('.inbox-bell[data-count]').waitFor()
    return page
  }

  it('says so where the popover goes when its code cannot be fetched, and closes with Escape, focus on the bell', async () => {
    const page = await openWithout('popover')
    await page.locator('.inbox-bell').focus()
    await page.keyboard.press('Enter')
    const retry = page.getByRole('alert').getByRole('button', { name: 'Try again' })
    await retry.waitFor()
    await page.keyboard.press('Tab')
    await expect.poll(() => retry.evaluate((el) => el === document.activeElement)).toBe(true)
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByRole('alert').count()).toBe(0)
    expect(await page.locator('.inbox-bell').getAttribute('aria-expanded')).toBe('false')
    expect(await page.locator('.inbox-bell').evaluate((el) => el === document.activeElement)).toBe(true)
    await page.close()
  })

  it('says so in the settings view when their code cannot be fetched, and keeps the app and the inbox', async () => {
    const page = await openWithout('PreferencesPanel')
    await page.locator('.inbox-bell').click()
    await page.getByRole('dialog').getByRole('button', { name: 'Notification settings' }).click()
    await page.getByRole('dialog').getByRole('alert').getByRole('button', { name: 'Try again' }).waitFor()
    await expect.poll(() => page.locator('#bar strong').textContent()).toBe('App')
    await page.close()
  })
})
