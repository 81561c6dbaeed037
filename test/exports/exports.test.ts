import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * The public API, entry by entry: every name each entry of package.json `exports` gives, pinned in
 * test/exports/<entry>.txt, so that adding or removing one shows in the diff of that file. Values are read
 * by importing the source; types from the TypeScript program (TypeScript 6's API, see CONTRIBUTING.md).
 * After a deliberate change: `npx vitest run test/exports -u`.
 */
const REPO = join(import.meta.dirname, '../..')

interface Entry {
  specifier: string
  /** Where its list lives. */
  list: string
  source: string
}

/** The JS entries of package.json and their sources: `./dist/x.d.ts` is built from `src/x.ts(x)`, `*` expanded. */
function entries(): Entry[] {
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
    name: string
    exports: Record<string, string | { types?: string }>
  }
  const out: Entry[] = []
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    // The stylesheet's declaration file only says that importing it is allowed: it exports nothing.
    if (typeof target === 'string' || !target.types || subpath.endsWith('.css')) continue
    const base = target.types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '')
    const [prefix, suffix = ''] = base.split('*') as [string, string?]
    const stars = subpath.includes('*')
      ? readdirSync(join(REPO, prefix.slice(0, prefix.lastIndexOf('/'))))
          .filter((f) => /\.tsx?$/.test(f))
          .map((f) => f.replace(/\.tsx?$/, ''))
      : ['']
    for (const star of stars) {
      const stem = (prefix + star + suffix).replace('*', star)
      const source = ['.ts', '.tsx'].map((ext) => stem + ext).find((f) => existsSync(join(REPO, f)))
      if (!source) throw new Error(`no source for ${subpath} (${stem}.ts or .tsx)`)
      const sub = subpath.replace('*', star)
      out.push({
        specifier: sub === '.' ? manifest.name : `${manifest.name}/${sub.slice(2)}`,
        list: `${sub === '.' ? 'index' : sub.slice(2).replaceAll('/', '-')}.txt`,
        source,
      })
    }
  }
  return out
}

const ENTRIES = entries()

/** Every name each source module exports, values and types alike, from one program over all entries. */
function exportedNames(): Map<string, string[]> {
  const program = ts.createProgram({
    rootNames: ENTRIES.map((e) => join(REPO, e.source)),
    options: {
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      jsx: ts.JsxEmit.ReactJSX,
      allowImportingTsExtensions: true,
      noEmit: true,
      // Only the names are read: no checking, no libraries.
      noLib: true,
      types: [],
      skipLibCheck: true,
    },
  })
  const checker = program.getTypeChecker()
  return new Map(
    ENTRIES.map((e) => {
      const file = program.getSourceFile(join(REPO, e.source))
      const symbol = file && checker.getSymbolAtLocation(file)
      if (!symbol) throw new Error(`TypeScript could not read ${e.source}`)
      return [e.source, checker.getExportsOfModule(symbol).map((s) => s.name)]
    }),
  )
}

describe('the exports of each entry', () => {
  const names = exportedNames()

  it('covers every JS entry of package.json', () => {
    expect(ENTRIES.map((e) => e.specifier)).toEqual(
      expect.arrayContaining(['inbox-kit', 'inbox-kit/client', 'inbox-kit/locales/en']),
    )
  })

  for (const entry of ENTRIES) {
    it(`${entry.specifier} gives what test/exports/${entry.list} lists`, async () => {
      const runtime = Object.keys((await import(join(REPO, entry.source))) as object)
      const types = (names.get(entry.source) ?? []).filter((n) => !runtime.includes(n))
      const list = [
        `# ${entry.specifier} (${entry.source}): values, then types`,
        ...runtime.sort(),
        ...types.sort().map((n) => `type ${n}`),
        '',
      ].join('\n')
      await expect(list).toMatchFileSnapshot(entry.list)
    })
  }
})
