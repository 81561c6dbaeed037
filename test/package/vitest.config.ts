import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The packed package in fresh apps: slow (a build, an install, `next build`), so apart from `vitest run`.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    name: 'package',
    include: ['test/package/**/*.spec.ts'],
    globalSetup: ['test/package/setup.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
})
