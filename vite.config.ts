import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

// Vitest 5's reporter calls Map.groupBy, which Node 20 lacks; without it a failing run can't print its summary.
if (!('groupBy' in Map)) {
  Object.defineProperty(Map, 'groupBy', {
    value<K, T>(items: Iterable<T>, key: (item: T, index: number) => K): Map<K, T[]> {
      const groups = new Map<K, T[]>()
      let index = 0
      for (const item of items) {
        const k = key(item, index++)
        const group = groups.get(k)
        if (group) group.push(item)
        else groups.set(k, [item])
      }
      return groups
    },
  })
}

// `vite build` builds the library; the demo has its own config in demo/.
export default defineConfig({
  plugins: [react()],
  build: {
    lib: {
      entry: { index: 'src/index.ts', client: 'src/client.ts', proxy: 'src/proxy/index.ts' },
      formats: ['es'],
      cssFileName: 'inbox-kit',
    },
    sourcemap: true,
    emptyOutDir: true,
    rolldownOptions: {
      // index.js imports the client from client.js itself rather than both sharing a hashed chunk.
      preserveEntrySignatures: 'allow-extension',
      external: [/^react($|\/)/, /^react-dom($|\/)/, /^@tanstack\//, /^zustand($|\/)/, /^node:/],
    },
  },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
})
