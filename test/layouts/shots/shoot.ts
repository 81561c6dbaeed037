/**
 * Screenshots of the parts and layouts in a real browser, for the README.
 * Run: npx tsx test/layouts/shots/shoot.ts [outDir]   (default docs/)
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
  { name: 'layout-parts', hash: 'parts', size: { width: 560, height: 700 } },
  { name: 'layout-inline', hash: 'inline', size: { width: 1000, height: 640 } },
  { name: 'layout-page', hash: 'page', size: { width: 1100, height: 640 }, pick: 1 },
  { name: 'layout-page-narrow', hash: 'page', size: { width: 390, height: 700 }, pick: 1 },
  { name: 'layout-threads', hash: 'threads', size: { width: 460, height: 700 }, expand: true },
]

const { server, url } = await startVite({ root: here, plugins: [react()], configFile: false })
const browser = await launchBrowser()
try {
  const page = await browser.newPage({ deviceScaleFactor: 2 })
  page.on('pageerror', (e) => console.error('page error:', e.message))
  for (const scene of scenes) {
    await page.setViewportSize(scene.size)
    await page.goto(`${url}/?${scene.name}#${scene.hash}`)
    await page.waitForSelector('article', { timeout: 15_000 })
    if (scene.pick !== undefined)
      await page
        .locator('article')
        .nth(scene.pick)
        .click({ position: { x: 8, y: 8 } })
    if (scene.expand) await page.locator('button[aria-expanded="false"]').first().click()
    await page.mouse.move(0, 0)
    await page.waitForTimeout(400)
    await page.screenshot({ path: join(out, `${scene.name}.png`) })
    console.log('wrote', join(out, `${scene.name}.png`))
  }
} finally {
  await browser.close()
  await server.close()
}
