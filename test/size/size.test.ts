import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { measureBundle } from '../../bench/bundle'

const app = (name: string) => fileURLToPath(new URL(`../../bench/apps/${name}.tsx`, import.meta.url))

/**
 * Gzip budgets in bytes for the bench's tiny apps, built from the sources with React external, as an app
 * builds them. A little over what `npm run bench` measured on 2026-11-23: the full `<Inbox/>` 35,391 JS +
 * 5,014 CSS before its first render (its settings view, 4 kB, and the live loop, 3 kB, come later); the hooks
 * alone 20,303. The floor (React Query + zustand, a bell with a count) is 11,693; the smallest peer's full
 * inbox (@trycourier/courier-react) 65,846.
 */
const BUDGETS = {
  inbox: 41_500,
  inboxLazy: 7_800,
  hooks: 20_800,
  /** Each locale other than English, imported on demand (1.5 KiB). */
  locale: 1_536,
}

describe('size budget', () => {
  it('the full <Inbox/> app stays within its gzip budget, and what it loads later within its own', async () => {
    const cost = await measureBundle(app('inbox'))
    expect(cost.css.min, 'the inbox ships its stylesheet').toBeGreaterThan(0)
    expect(cost.gzip).toBeLessThanOrEqual(BUDGETS.inbox)
    expect(cost.lazy.gzip).toBeLessThanOrEqual(BUDGETS.inboxLazy)
  })

  it('the headless hooks alone stay within their gzip budget', async () => {
    const cost = await measureBundle(app('hooks'))
    expect(cost.css.min, 'the hooks bring no CSS').toBe(0)
    expect(cost.gzip).toBeLessThanOrEqual(BUDGETS.hooks)
  })

  it('each locale costs at most 1.5 KiB gzip, and only to the apps that import it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-locale-'))
    for (const code of ['de', 'fr', 'es', 'ja', 'ar']) {
      const entry = join(dir, `${code}.ts`)
      const source = fileURLToPath(new URL(`../../src/locales/${code}.ts`, import.meta.url))
      writeFileSync(entry, `export { ${code} } from ${JSON.stringify(source)}\n`)
      const cost = await measureBundle(entry)
      expect(cost.gzip, code).toBeLessThanOrEqual(BUDGETS.locale)
    }
    // English is built in; no other locale is.
    const inbox = await measureBundle(app('inbox'))
    expect(Object.keys(inbox.breakdown).filter((k) => k.startsWith('src/locales'))).toEqual(['src/locales'])
  })
})
