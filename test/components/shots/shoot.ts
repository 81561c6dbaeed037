/**
 * Screenshots of the inbox in a real browser: light, dark, right-to-left, preferences, a phone.
 * Run: npx tsx test/components/shots/shoot.ts [outDir]   (default docs/)
 */
import { mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { launchBrowser, startVite } from '../../support/browser'

const here = dirname(fileURLToPath(import.meta.url))
const out = resolve(process.argv[2] ?? join(here, '../../../docs'))
mkdirSync(out, { recursive: true })

const scenes = [
  { name: 'inbox-light', query: 'theme=light&locale=en' },
  { name: 'inbox-dark', query: 'theme=dark&locale=en' },
  { name: 'inbox-rtl', query: 'theme=light&locale=ar' },
  { name: 'inbox-preferences', query: 'theme=light&locale=en', prefs: true },
  { name: 'inbox-dark-preferences', query: 'theme=dark&locale=en', prefs: true },
  { name: 'inbox-mobile-dark', query: 'theme=dark&locale=en', mobile: true },
]

const { server, url } = await startVite({ root: here, plugins: [react()], configFile: false })
const browser = await launchBrowser()
try {
  const page = await browser.newPage({ viewport: { width: 760, height: 720 }, deviceScaleFactor: 2 })
  page.on('pageerror', (e) => console.error('page error:', e.message))
  for (const scene of scenes) {
    await page.setViewportSize(scene.mobile ? { width: 390, height: 760 } : { width: 760, height: 720 })
    await page.goto(`${url}/?${scene.query}`)
    await page.waitForSelector('[role="feed"]', { timeout: 15_000 })
    if (scene.prefs) {
      await page.click('.inbox-header__actions button:last-child')
      await page.waitForSelector('[role="switch"]', { timeout: 15_000 })
    }
    await page.waitForTimeout(400)
    await page.screenshot({ path: join(out, `${scene.name}.png`) })
    console.log('wrote', join(out, `${scene.name}.png`))
  }
} finally {
  await browser.close()
  await server.close()
}
