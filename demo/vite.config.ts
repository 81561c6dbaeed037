import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { inboxDemoService } from './server/plugin'

const root = fileURLToPath(new URL('.', import.meta.url))

// `npm run dev`: the demo page, with the reference service embedded server-side at the same origin.
export default defineConfig({
  root,
  plugins: [react(), inboxDemoService()],
  // Pre-bundled at start, so that a first visit never waits for a re-optimisation and a reload.
  optimizeDeps: {
    include: [
      'react',
      'react/jsx-dev-runtime',
      'react-dom',
      'react-dom/client',
      '@tanstack/react-query',
      '@tanstack/query-core',
      'zustand',
      'zustand/vanilla',
    ],
  },
  server: {
    warmup: { clientFiles: ['./main.tsx'] },
    // The page must never load the service's code or fixtures (they hold the API key).
    fs: { deny: ['.env', '.env.*', '*.{crt,pem}', '**/.git/**', '**/server/**'] },
  },
  build: { outDir: fileURLToPath(new URL('../dist-demo', import.meta.url)), emptyOutDir: true },
})
