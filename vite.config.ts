import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import type { Plugin } from 'vite'
import { reactExternal, reactOnce } from './scripts/reactOnce.ts'
import { LongestFirst } from './test/support/sequencer.ts'

/** Every locale is an entry of its own (`inbox-kit/locales/<code>`), so an app ships only those it imports. */
const LOCALES = ['en', 'de', 'fr', 'es', 'ja', 'ar']

/**
 * The stylesheet's declaration file (the `types` of `inbox-kit/styles.css` in `exports`): TypeScript 6 checks that
 * a side-effect import resolves, and an app without a bundler's types for `*.css` has nothing else to find.
 */
const stylesDeclaration: Plugin = {
  name: 'inbox-kit:styles-declaration',
  // The library's build only (Storybook's reads this config too).
  apply: (config) => Boolean(config.build?.lib),
  generateBundle() {
    const source = "// `import 'inbox-kit/styles.css'` adds the stylesheet; it exports nothing.\nexport {}\n"
    this.emitFile({ type: 'asset', fileName: 'inbox-kit.css.d.ts', source })
  },
}

// `vite build` builds the library; the demo has its own config in demo/.
export default defineConfig({
  plugins: [react(), reactOnce(), stylesDeclaration],
  build: {
    lib: {
      // The stylesheet is an entry of its own, not an import of index.ts, so that no declaration file names it.
      entry: {
        index: 'src/index.ts',
        admin: 'src/admin/index.ts',
        client: 'src/client.ts',
        server: 'src/server.ts',
        proxy: 'src/proxy/index.ts',
        markdown: 'src/markdown/index.tsx',
        'proxy/redis': 'src/proxy/redis.ts',
        ...Object.fromEntries(LOCALES.map((code) => [`locales/${code}`, `src/locales/${code}.ts`])),
        'inbox-kit': 'src/styles/index.css',
      },
      formats: ['es'],
    },
    // Not minified: an app's bundler minifies the kit with the app, and names stay readable meanwhile (an
    // error logged in Node says `ApiError`, not the one-letter name a minifier gave its class).
    minify: false,
    cssCodeSplit: true,
    sourcemap: true,
    emptyOutDir: true,
    rolldownOptions: {
      preserveEntrySignatures: 'allow-extension',
      // A constant stays where it is declared: inlined into the modules that use it, it left them importing its
      // module bare, which bundlers then report as a side-effect import of a side-effect-free module.
      optimization: { inlineConst: false },
      // One file per source module, as the sources are laid out: an app's bundler then sees the kit's own
      // module graph, so what the kit loads lazily (the popover's contents, the settings view, the live loop)
      // stays out of the app's first chunk, and what the app does not use is left out file by file.
      output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: '[name].js' },
      external: (id, importer) =>
        reactExternal(id, importer) || /^(@tanstack\/|zustand($|\/)|standardwebhooks$|node:)/.test(id),
    },
  },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'node',
    // Many files open a page of a Vite dev server in Chromium per test: a few seconds alone, past 20 s now and then
    // with two files at once on two cores. What a test waits for has its own, shorter limit.
    testTimeout: 45_000,
    hookTimeout: 60_000,
    setupFiles: ['test/support/timeouts.ts'],
    // At least three files at once. Vitest's default on two cores is one, but much of a file's time here is spent
    // waiting (on Chromium, a server, a timer), not computing: with two at once the cores still sat idle an eighth
    // of the run (`vmstat`); with three, a twentieth. On two cores the run took 405 to 448 s two at once, 352 to
    // 415 s three at once. Beyond that it is bound by the cores: Chromium's own work per page opened (about two
    // core-seconds for a test page, a third of it for the browsing context alone) is most of it.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    // What a test polls for has 5 s, as what Testing Library waits for (test/support/timeouts.ts), not 1: three
    // files at once on two cores can hold a page's answer past a second.
    expect: { poll: { timeout: 5000 } },
    sequence: { sequencer: LongestFirst },
  },
})
