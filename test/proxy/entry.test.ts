import { build } from 'vite'
import type { Rollup } from 'vite'
import { describe, expect, it } from 'vitest'

describe('the inbox-kit/proxy entry', () => {
  it('bundles without React and without any Node module, so it also runs in edge runtimes', async () => {
    const result = (await build({
      configFile: false,
      logLevel: 'silent',
      build: {
        write: false,
        minify: false,
        lib: { entry: 'src/proxy/index.ts', formats: ['es'], fileName: 'proxy' },
        rollupOptions: { external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.includes('src/') },
      },
    })) as Rollup.RollupOutput[]
    const chunks = result.flatMap((r) => r.output).filter((o): o is Rollup.OutputChunk => o.type === 'chunk')
    const imports = chunks.flatMap((c) => [...c.imports, ...c.dynamicImports]).filter((id) => !chunks.some((c) => c.fileName === id))
    expect(imports).toEqual([])
    const code = chunks.map((c) => c.code).join('\n')
    expect(code).not.toMatch(/(from|import)\s*\(?\s*["'](react|node:)/)
    expect(code).not.toMatch(/\brequire\(/)
    const names = ['createInboxProxy', 'createSubscriberToken', 'verifySubscriberToken', 'bearerTokenAuth', 'toNodeHandler', 'readSubscriberToken']
    for (const name of [...names, 'createMemoryRateLimitStore']) {
      expect(chunks[0]!.exports).toContain(name)
    }
  })
})
