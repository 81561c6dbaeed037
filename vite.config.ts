import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

// `vite build` builds the library; the demo has its own config in demo/.
export default defineConfig({
  plugins: [react()],
  build: {
    lib: {
      entry: { index: 'src/index.ts', client: 'src/client.ts', proxy: 'src/proxy/index.ts', markdown: 'src/markdown/index.tsx' },
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
