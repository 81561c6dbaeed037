// `npm run screenshots`: the README's pictures of the demo with the inbox open, light and dark, LTR and RTL.
import { mkdir } from 'node:fs/promises'
import { bellCount, openDemo, openInbox, startDemo } from './demo'

const SHOTS = [
  { file: 'docs/screenshot-light.png', theme: 'light', locale: 'en' },
  { file: 'docs/screenshot-dark.png', theme: 'dark', locale: 'en' },
  { file: 'docs/screenshot-rtl.png', theme: 'light', locale: 'ar' },
  { file: 'docs/screenshot-rtl-dark.png', theme: 'dark', locale: 'ar' },
] as const

const run = await startDemo()
try {
  await mkdir('docs', { recursive: true })
  for (const shot of SHOTS) {
    const page = await openDemo(run, 'demo-user', { theme: shot.theme, locale: shot.locale })
    while ((await bellCount(page)) === 0) await page.waitForTimeout(100)
    const dialog = await openInbox(page)
    await dialog.locator('article img, article').first().waitFor()
    // Images (avatars) and fonts settle before the picture is taken (the open event stream keeps the
    // network from ever going idle).
    await page.waitForFunction(
      () => [...document.images].every((i) => i.complete) && document.fonts.status === 'loaded',
    )
    await page.waitForTimeout(300)
    await page.screenshot({ path: shot.file })
    console.info(`wrote ${shot.file}`)
    await page.context().close()
  }
} finally {
  await run.close()
}
