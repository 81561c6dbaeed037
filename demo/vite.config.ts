import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { servePageOnly } from './server/guard'
import { inboxDemoService } from './server/plugin'

const at = (path: string) => fileURLToPath(new URL(path, import.meta.url))
// The dev server's root holds the page's code only; this config and the demo's server code sit beside it.
const page = at('./app')
const served = {
  root: page,
  allow: [page, at('../src'), at('../node_modules')],
  deny: [at('../src/proxy')],
}

// `npm run dev`: the demo page, with the reference service embedded server-side at the same origin.
// Demo only, never deploy: its sign-in lets anyone be any subscriber (see README, "The demo").
export default defineConfig({
  root: page,
  // No index.html for unknown paths: a file the server will not serve is a 404, not the page.
  appType: 'mpa',
  plugins: [react(), inboxDemoService(), servePageOnly(served)],
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
    // Same-origin only: no other site (another localhost port included) may read what this server answers.
    cors: false,
    warmup: { clientFiles: ['./main.tsx'] },
    // Vite's own checks, beneath servePageOnly (which also covers modules Vite would transform regardless).
    fs: {
      strict: true,
      allow: served.allow,
      deny: [
        '.env',
        '.env.*',
        '*.{crt,pem,key}',
        '**/.git/**',
        '**/server/**',
        '**/src/proxy/**',
        '**/fixtures/**',
        '**/*.config.*',
        '**/package.json',
        '**/package-lock.json',
      ],
    },
  },
  build: { outDir: at('../dist-demo'), emptyOutDir: true },
})
