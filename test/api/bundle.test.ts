import { isAbsolute } from 'node:path'
import { describe, expect, it } from 'vitest'
import { build, type Rolldown } from 'vite'

describe('the inbox-kit/client bundle', () => {
  it('is self-contained: no React, no dependencies, no Node built-ins', async () => {
    const result = await build({
      configFile: false,
      logLevel: 'silent',
      build: {
        write: false,
        lib: { entry: { client: 'src/client.ts' }, formats: ['es'] },
        // Every bare import stays an import, so that one would show below instead of being bundled.
        rolldownOptions: { external: (id) => !id.startsWith('.') && !isAbsolute(id) },
      },
    })
    const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[]
    const chunks = outputs.flatMap((o) => o.output).filter((o): o is Rolldown.OutputChunk => o.type === 'chunk')
    expect(chunks.map((c) => c.fileName)).toEqual(['client.js'])
    const chunk = chunks[0]!
    expect(chunk.imports).toEqual([])
    expect(chunk.dynamicImports).toEqual([])
    expect(chunk.code).not.toMatch(/\bfrom\s*["']|\brequire\(/)
    expect(chunk.exports).toEqual(expect.arrayContaining(['createInboxClient', 'ApiError', 'isInboxError']))
  })
})
