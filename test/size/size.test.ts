import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import * as esbuild from 'esbuild'
import { esbuildOptions, measureBundle } from '../../bench/bundle'
import { BUDGETS } from './budgets'

const app = (name: string) => fileURLToPath(new URL(`../../bench/apps/${name}.tsx`, import.meta.url))

describe('size budget', () => {
  it('the full <Inbox/> app stays within its gzip budget, and what it loads later within its own', async () => {
    const cost = await measureBundle(app('inbox'))
    expect(cost.js.gzip).toBeLessThanOrEqual(BUDGETS.inbox)
    expect(cost.lazy.gzip).toBeLessThanOrEqual(BUDGETS.inboxLazy)
    expect(cost.css.min, 'the inbox ships its stylesheet').toBeGreaterThan(0)
    expect(cost.css.gzip).toBeLessThanOrEqual(BUDGETS.css)
    // The popover's code is not on the path to the bell.
    expect(Object.keys(cost.breakdown)).not.toContain('src/components/Feed')
  })

  it('the headless hooks alone stay within their gzip budget', async () => {
    const cost = await measureBundle(app('hooks'))
    expect(cost.css.min, 'the hooks bring no CSS').toBe(0)
    expect(cost.js.gzip).toBeLessThanOrEqual(BUDGETS.hooks)
  })

  it('a production build carries none of the development warnings, nor their messages', async () => {
    for (const name of ['inbox', 'page', 'hooks']) {
      const result = await esbuild.build({
        ...esbuildOptions(app(name)),
        external: ['react', 'react-dom', 'react/*', 'react-dom/*'],
        loader: { '.css': 'empty' },
      })
      const text = result.outputFiles!.map((f) => f.text).join('\n')
      // Every development warning starts so (`devWarn`); the code that builds one goes with it.
      expect(text.length, name).toBeGreaterThan(10_000)
      expect(text.match(/inbox-kit: [^"'`]{0,40}/g), name).toBeNull()
      expect(text, name).not.toContain('check `baseUrl`')
    }
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
    // English is built in (its strings of the bell in the first chunk, the rest with the popover); no other is.
    const inbox = await measureBundle(app('inbox'))
    expect(Object.keys(inbox.breakdown)).toContain('src/i18n')
    expect(Object.keys(inbox.breakdown)).not.toContain('src/locales')
    expect(Object.keys(inbox.lazyBreakdown).filter((k) => k.startsWith('src/locales'))).toEqual(['src/locales'])
  })
})
