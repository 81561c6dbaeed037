import { readFileSync } from 'node:fs'
import { builtinModules, createRequire } from 'node:module'
import { build } from 'vite'
import type { Rollup } from 'vite'
import { describe, expect, it } from 'vitest'

/** The Standard Webhooks verifier and what it needs: pure JavaScript, bundled here to see that it stays so. */
const WEBHOOKS = ['standardwebhooks', '@stablelib/base64', 'fast-sha256']

async function bundle(entry: string, inline: string[] = []) {
  const result = (await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: { entry, formats: ['es'], fileName: 'entry' },
      rollupOptions: {
        external: (id) =>
          !id.startsWith('.') &&
          !id.startsWith('/') &&
          !id.includes('src/') &&
          !inline.some((name) => id === name || id.startsWith(name + '/')),
      },
    },
  })) as Rollup.RollupOutput[]
  const chunks = result.flatMap((r) => r.output).filter((o): o is Rollup.OutputChunk => o.type === 'chunk')
  const imports = chunks
    .flatMap((c) => [...c.imports, ...c.dynamicImports])
    .filter((id) => !chunks.some((c) => c.fileName === id))
  return { chunks, imports, code: chunks.map((c) => c.code).join('\n') }
}

const BUILTIN = new RegExp(`(from|import|require)\\s*\\(?\\s*["'](node:|(${builtinModules.join('|')})["'/])`)

describe('the inbox-kit/proxy entry', () => {
  it('bundles without React and without any Node module, so it also runs in edge runtimes', async () => {
    const { chunks, imports, code } = await bundle('src/proxy/index.ts')
    // Its one dependency, loaded by this entry alone.
    expect(imports).toEqual(['standardwebhooks'])
    expect(code).not.toMatch(/(from|import)\s*\(?\s*["'](react|node:)/)
    expect(code).not.toMatch(/\brequire\(/)
    const names = [
      'createInboxProxy',
      'createSubscriberToken',
      'verifySubscriberToken',
      'bearerTokenAuth',
      'toNodeHandler',
      'readSubscriberToken',
    ]
    for (const name of [...names, 'createMemoryRateLimitStore', 'createMemoryBroker']) {
      expect(chunks[0]!.exports).toContain(name)
    }
  })

  it('and its webhook verifier is pure JavaScript too', async () => {
    const { imports, code } = await bundle('src/proxy/index.ts', WEBHOOKS)
    expect(imports).toEqual([])
    expect(code).not.toMatch(BUILTIN)
    // And none of it runs anything at install.
    const require = createRequire(import.meta.url)
    for (const name of WEBHOOKS) {
      const manifest = JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as {
        scripts?: Record<string, string>
      }
      expect(
        Object.keys(manifest.scripts ?? {}).filter((s) => /^(pre|post)?install$/.test(s)),
        name,
      ).toEqual([])
    }
  })
})

describe('the inbox-kit/proxy/redis entry', () => {
  it('imports nothing, not even a Redis client: the app passes its own', async () => {
    const { chunks, imports, code } = await bundle('src/proxy/redis.ts')
    expect(imports).toEqual([])
    // Statements only: the TSDoc's example imports `redis`, as the app does.
    expect(code).not.toMatch(/^\s*(import|export)\b[^\n]*["'](redis|ioredis|standardwebhooks|react|node:)/m)
    expect(code).not.toMatch(/\b(require|import)\(\s*["']/)
    expect(chunks[0]!.exports.sort()).toEqual(['createRedisBroker', 'createRedisRateLimitStore'])
  })
})
