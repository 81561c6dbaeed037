/** Focus rings as the eye sees them, in Chromium. */
import type { Page } from 'playwright-core'

const PAD = 6

/**
 * From the control focused now, up to `stops` Tab stops inside `within` (a selector): each one's name, and the
 * sides (if any) along which its focus ring does not show, found by comparing each stop's pixels while focused
 * with the same pixels once focus moved on. Along each side, the band from 6 px outside to 4 px inside the
 * control must have changed over a third of its length at least. Pages at a device scale of 1; motion is
 * reduced for the walk, so that no transition is caught half way.
 */
export async function walkRings(
  page: Page,
  within: string,
  stops: number,
): Promise<{ reached: string[]; cut: string[] }> {
  await page.emulateMedia({ reducedMotion: 'reduce' })
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
    const on = (await page.screenshot({ clip })).toString('base64')
    await page.keyboard.press('Tab')
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    const off = (await page.screenshot({ clip })).toString('base64')
    // Compared in the page, by its own image decoder: the share of each side's band that changed.
    const sides = await page.evaluate(
      async ({ on, off, pad }) => {
        const decode = async (base64: string) => {
          const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob())
          const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!
          context.drawImage(bitmap, 0, 0)
          return context.getImageData(0, 0, bitmap.width, bitmap.height)
        }
        const [a, b] = await Promise.all([decode(on), decode(off)])
        const { width: w, height: h } = a
        const changed = (x: number, y: number) => {
          const at = (y * w + x) * 4
          return [0, 1, 2].some((c) => Math.abs(a.data[at + c]! - b.data[at + c]!) > 24)
        }
        const band = (along: number, across: [number, number], at: (i: number, j: number) => boolean) => {
          let hits = 0
          for (let i = pad; i < along - pad; i++) {
            for (let j = across[0]; j < across[1]; j++)
              if (at(i, j)) {
                hits++
                break
              }
          }
          return hits / Math.max(1, along - 2 * pad)
        }
        return {
          top: band(w, [0, pad + 4], (i, j) => changed(i, j)),
          bottom: band(w, [h - pad - 4, h], (i, j) => changed(i, j)),
          left: band(h, [0, pad + 4], (i, j) => changed(j, i)),
          right: band(h, [w - pad - 4, w], (i, j) => changed(j, i)),
        }
      },
      { on, off, pad: PAD },
    )
    const short = Object.entries(sides).filter(([, share]) => share < 1 / 3)
    if (short.length)
      cut.push(`${focused.name}: ${short.map(([side, share]) => `${side} ${share.toFixed(2)}`).join(', ')}`)
  }
  return { reached, cut }
}
