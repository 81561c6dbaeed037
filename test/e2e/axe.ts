import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

/** One axe violation, reduced to what a failure message needs. */
export interface Violation {
  id: string
  impact: string | null
  help: string
  targets: string[]
}

/**
 * Runs axe (WCAG 2.2 A and AA rules, and axe's best practices) on the page, but for `exclude`. The page-level
 * `region` rule (all content inside landmarks) is the host page's business, not the kit's.
 */
export async function axeViolations(
  page: Page,
  exclude: string[] = [],
  disabledRules: string[] = [],
): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axePath })
  return page.evaluate(
    async ({ exclude, disabledRules }) => {
      const axe = (
        window as unknown as { axe: { reset(): void; run: (context: unknown, options: unknown) => Promise<any> } }
      ).axe
      // A copy already in the page (Storybook's a11y addon) may carry its own configuration.
      axe.reset()
      const results = await axe.run(
        { include: [document.body], exclude: exclude.map((s) => [s]) },
        {
          runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
          rules: Object.fromEntries(['region', ...disabledRules].map((id) => [id, { enabled: false }])),
        },
      )
      return (results.violations as any[]).map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n: { target: string[] }) => n.target.join(' ')),
      }))
    },
    { exclude, disabledRules },
  )
}
