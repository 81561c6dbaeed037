/**
 * Every TypeScript code block of the README compiles as shown: each is written out as a module of its
 * own (importing `inbox-kit` and its entries, mapped to the sources; one that names its file, by that name)
 * and type-checked with the project's strict settings.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))
const readme = readFileSync(here('../../README.md'), 'utf8')

/** The README's ```ts and ```tsx blocks, with the line each starts on. */
export function blocksOf(markdown: string): { lang: string; code: string; line: number }[] {
  const out: { lang: string; code: string; line: number }[] = []
  const re = /^```(ts|tsx)\s*$([\s\S]*?)^```\s*$/gm
  for (let m; (m = re.exec(markdown));)
    out.push({ lang: m[1]!, code: m[2]!.replace(/^\n/, ''), line: markdown.slice(0, m.index).split('\n').length })
  return out
}

describe('README', () => {
  it('starts with the command that runs the demo and the test command', () => {
    const first = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? ''
    expect(first).toMatch(/npm run dev/)
    expect(first).toMatch(/npm test/)
    expect(readme.indexOf('```sh')).toBeLessThan(readme.indexOf('##'))
  })

  // Read on the package's page, the first command is the repository's: the Quick start has the user's own.
  it('starts its Quick start with the command that installs the package', () => {
    const quickStart = readme.slice(readme.indexOf('## Quick start'))
    expect(/```sh\n([\s\S]*?)```/.exec(quickStart)?.[1]).toMatch(/^npm install inbox-kit\b/)
    expect(quickStart.indexOf('```sh')).toBeLessThan(quickStart.search(/```tsx?\n/))
  })

  it('has code blocks that each compile as a module of their own', { timeout: 120_000 }, () => {
    const blocks = blocksOf(readme)
    expect(blocks.length).toBeGreaterThan(10)
    const dir = here('./blocks')
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir)
    // A block that starts with a path (`// app/NavBar.tsx`) is that file, which another block may import.
    for (const b of blocks) {
      const named = /^\/\/ ((?:[\w-]+\/)*[\w-]+\.tsx?)\n/.exec(b.code)?.[1]
      const file = `${dir}/${named ?? `line-${b.line}.${b.lang}`}`
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, `${b.code}\nexport {}\n`)
    }
    try {
      // TypeScript 7, the native compiler: the JavaScript one took over 20 s here on a loaded machine.
      execFileSync(process.execPath, [here('../../node_modules/typescript-7/bin/tsc'), '-p', here('./tsconfig.json')], {
        encoding: 'utf8',
        stdio: 'pipe',
      })
    } catch (error) {
      const output = String((error as { stdout?: string }).stdout ?? error)
      // Only the blocks' own errors: the file name gives the README line the block starts on.
      expect(
        output
          .split('\n')
          .filter((l) => l.includes('blocks/'))
          .join('\n'),
      ).toBe('')
      throw error
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
