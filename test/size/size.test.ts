import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { measureBundle } from '../../bench/bundle'

const app = (name: string) => fileURLToPath(new URL(`../../bench/apps/${name}.tsx`, import.meta.url))

/**
 * Gzip budgets in bytes (JS + CSS) for the bench's tiny apps, built from the sources with React external.
 * About 13% over what `npm run bench` measured on 2026-11-22 (46,052 and 22,918 bytes); the smallest
 * peer's full inbox (@trycourier/courier-react) was 65,846.
 */
const BUDGETS = {
  inbox: 52_000,
  hooks: 26_000,
}

describe('size budget', () => {
  it('the full <Inbox/> app stays within its gzip budget', async () => {
    const cost = await measureBundle(app('inbox'))
    expect(cost.css.min, 'the inbox ships its stylesheet').toBeGreaterThan(0)
    expect(cost.gzip).toBeLessThanOrEqual(BUDGETS.inbox)
  })

  it('the headless hooks alone stay within their gzip budget', async () => {
    const cost = await measureBundle(app('hooks'))
    expect(cost.css.min, 'the hooks bring no CSS').toBe(0)
    expect(cost.gzip).toBeLessThanOrEqual(BUDGETS.hooks)
  })
})
