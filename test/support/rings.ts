/** Focus rings as the eye sees them, in Chromium. */
import type { Page } from 'playwright-core'

/** The page's pixels in `clip` (CSS px at scale 1), as RGBA, decoded by the page's own image decoder. */
async function pixels(page: Page, clip: { x: number; y: number; width: number; height: number }) {
  const png = await page.screenshot({ clip })
  return page.evaluate(async (base64) => {
    const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob())
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height)
    const context = canvas.getContext('2d')!
    context.drawImage(bitmap, 0, 0)
    return { width: bitmap.width, data: Array.from(context.getImageData(0, 0, bitmap.width, bitmap.height).data) }
  }, png.toString('base64'))
}

const PAD = 6
/**
 * From the control focused now, up to `stops` Tab stops inside `within` (a selector): each one's name, and the
 * sides (if any) along which its focus ring does not show, found by comparing each stop's pixels while focused
 * with the same pixels once focus moved on. Along each side, the band from 6 px outside to 4 px inside the
 * control must have changed over a third of its length at least. Pages at a device scale of 1.
 */
export async function walkRings(
  page: Page,
  within: string,
  stops: number,
): Promise<{ reached: string[]; cut: string[] }> {
  const cut: string[] = []
  const reached: string[] = []
  for (let i = 0; i < stops; i++) {
    const focused = await page.evaluate((within) => {
      const el = document.activeElement as HTMLElement | null
      if (!el?.closest(within) || el.dataset.reached !== undefined) return null
      el.dataset.reached = ''
      const { x, y, width, height } = el.getBoundingClientRect()
      const label = el.getAttribute('aria-label') || el.title || el.textContent || ''
      const name = `${el.tagName.toLowerCase()}.${el.className.split(' ')[0]} "${label.trim().slice(0, 24)}"`
      return { name, box: { x, y, width, height } }
    }, within)
    if (!focused) break
    reached.push(focused.name)
    const { box } = focused
    const clip = { x: Math.floor(box.x) - PAD, y: Math.floor(box.y) - PAD, width: 0, height: 0 }
    clip.width = Math.ceil(box.x + box.width) + PAD - clip.x
    clip.height = Math.ceil(box.y + box.height) + PAD - clip.y
    const on = await pixels(page, clip)
    await page.keyboard.press('Tab')
    // The control's own transitions (a ring that fades) are over before the second look.
    await page.waitForTimeout(250)
    const off = await pixels(page, clip)
    const changed = (x: number, y: number) => {
      const at = (y * on.width + x) * 4
      return [0, 1, 2].some((c) => Math.abs(on.data[at + c]! - off.data[at + c]!) > 24)
    }
    const w = clip.width
    const h = clip.height
    const band = (along: number, across: [number, number], at: (a: number, b: number) => boolean) => {
      let hits = 0
      for (let a = PAD; a < along - PAD; a++) {
        for (let b = across[0]; b < across[1]; b++)
          if (at(a, b)) {
            hits++
            break
          }
      }
      return hits / Math.max(1, along - 2 * PAD)
    }
    const sides = {
      top: band(w, [0, PAD + 4], (a, b) => changed(a, b)),
      bottom: band(w, [h - PAD - 4, h], (a, b) => changed(a, b)),
      left: band(h, [0, PAD + 4], (a, b) => changed(b, a)),
      right: band(h, [w - PAD - 4, w], (a, b) => changed(b, a)),
    }
    const short = Object.entries(sides).filter(([, share]) => share < 1 / 3)
    if (short.length)
      cut.push(`${focused.name}: ${short.map(([side, share]) => `${side} ${share.toFixed(2)}`).join(', ')}`)
  }
  return { reached, cut }
}
