/**
 * The inbox on a host page whose global rules style elements: a reset that sets every box to border-box (as
 * Tailwind's preflight does), rules for buttons, a forms plugin's rules for checkboxes and time fields, and
 * Bootstrap's reboot (margins of paragraphs, headings and lists, underlined links, labels as inline blocks). Loaded
 * before the kit's stylesheet and after it, they must leave the inbox as it is drawn on a page without them.
 */
import type { Browser } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { servePage } from '../support/browser'

let browser: Browser
let url = ''
servePage(new URL('./host', import.meta.url), (u, b) => ((url = u), (browser = b)))

const RESET = `*, ::after, ::before { box-sizing: border-box; border: 0 solid; margin: 0; padding: 0; }
body { margin: 8px; }
h1, h2, h3, h4, h5, h6 { font-size: inherit; font-weight: inherit; }
ol, ul, menu { list-style: none; }
img, svg, video { display: block; vertical-align: middle; }
img, video { max-width: 100%; height: auto; }
button, input, select, textarea { font: inherit; letter-spacing: inherit; color: inherit; border-radius: 0; background-color: transparent; }
a { color: inherit; text-decoration: inherit; }`
const ELEMENTS = `button { text-transform: uppercase; letter-spacing: 0.1em; }
[type='checkbox'] { appearance: none; width: 1rem; height: 1rem; background-color: #fff; border: 1px solid #6b7280; border-radius: 0; padding: 0; }
[type='checkbox']:checked { background-color: currentColor; border-color: transparent; background-image: url("data:image/svg+xml,%3csvg xmlns='http://www.w3.org/2000/svg'/%3e"); }
[type='time'] { appearance: none; background-color: #fff; border: 1px solid #6b7280; border-radius: 0; padding: 8px 12px; font-size: 16px; line-height: 24px; }`

/** Bootstrap's reboot, in part. */
const REBOOT = `body { margin: 8px; font-family: system-ui; line-height: 1.5; }
p { margin-top: 0; margin-bottom: 1rem; }
h1, h2, h3, h4, h5, h6 { margin-top: 0; margin-bottom: 0.5rem; font-weight: 500; line-height: 1.2; }
ol, ul { padding-left: 2rem; margin-top: 0; margin-bottom: 1rem; }
a { color: rgba(13, 110, 253, 1); text-decoration: underline; }
label { display: inline-block; }
button { border-radius: 0; }
button, input, select, textarea { margin: 0; font-family: inherit; font-size: inherit; line-height: inherit; }
img, svg { vertical-align: middle; }`

/**
 * Opens the inbox on `view` and returns what draws it under given rules: each drawn element, its box from the
 * inbox's corner and what the rules could change. The rules change in place, in the one page (a page for each
 * would load the kit 17 times): set as the host's stylesheet, which sits before the kit's or, `late`, after it.
 */
async function opened(view: 'feed' | 'settings', portal = false) {
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } })
  await page.goto(`${url}/?${new URLSearchParams({ schedule: '', ...(portal ? { portal: '' } : {}) })}`)
  await page.locator('.inbox-bell[data-count]').waitFor()
  await page.locator('.inbox-bell').click()
  await page.locator('.inbox-item').first().waitFor()
  if (view === 'settings') {
    await page.getByRole('button', { name: 'Notification settings' }).click()
    await page.locator('.inbox-switch__input').first().waitFor()
    await page.locator('.inbox-input').first().waitFor()
  }
  const measure = () =>
    page.evaluate(() => {
      const origin = document.querySelector('[data-inbox-root]')!.getBoundingClientRect()
      const props = ['text-transform', 'letter-spacing', 'border-top-width', 'background-image', 'font-size']
      return Array.from(document.querySelectorAll('[data-inbox-root] *'), (el) => {
        const r = el.getBoundingClientRect()
        if (!r.width || !r.height || el instanceof SVGElement) return ''
        const style = getComputedStyle(el)
        const box = [r.x - origin.x, r.y - origin.y, r.width, r.height].map(Math.round).join(',')
        return `${el.getAttribute('class')?.split(' ')[0] ?? el.tagName}: ${box} ${props.map((p) => style.getPropertyValue(p)).join(' | ')}`
      }).filter(Boolean)
    })
  const drawn = async (css: string, late = false) => {
    await page.evaluate(
      ({ css, late }) => {
        const host = document.getElementById('host')!
        host.textContent = css
        // Before every stylesheet of the page (the kit's among them), or after them all.
        if (late) document.body.append(host)
        else document.head.prepend(host)
      },
      { css, late },
    )
    // Once the rows are measured again and the popover placed: the same twice in a row.
    let boxes = await measure()
    for (let last: string[] = []; JSON.stringify(boxes) !== JSON.stringify(last);) {
      last = boxes
      await page.waitForTimeout(150)
      boxes = await measure()
    }
    return boxes
  }
  return { drawn, close: () => page.close() }
}

describe("an app's global rules for elements", () => {
  for (const view of ['feed', 'settings'] as const)
    it(`leave the ${view === 'feed' ? 'feed (in place and in a portal)' : 'settings view'} as drawn without them, loaded before the kit's stylesheet or after it`, async () => {
      const inbox = await opened(view)
      const plain = await inbox.drawn('')
      expect(plain.length).toBeGreaterThan(view === 'feed' ? 40 : 20)
      if (view === 'settings') expect(plain.join()).toMatch(/inbox-input.*inbox-input/)
      for (const late of [false, true]) {
        expect(await inbox.drawn(RESET, late)).toEqual(plain)
        expect(await inbox.drawn(ELEMENTS, late)).toEqual(plain)
        expect(await inbox.drawn(REBOOT, late)).toEqual(plain)
      }
      await inbox.close()
      // The popover in a portal at the end of the body (its own root there), under the rules loaded last.
      if (view === 'feed') {
        const inPortal = await opened(view, true)
        const portal = await inPortal.drawn('')
        expect(portal.length).toBeGreaterThan(40)
        for (const css of [RESET, ELEMENTS]) expect(await inPortal.drawn(css, true)).toEqual(portal)
        await inPortal.close()
      }
    })
})
