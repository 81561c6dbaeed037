import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { inboxDemoService } from './server/plugin'

const root = fileURLToPath(new URL('.', import.meta.url))

// `npm run dev`: the demo page, with the reference service embedded server-side at the same origin.
export default defineConfig({
  root,
  plugins: [react(), inboxDemoService()],
  server: {
    // The page must never load the service's code or fixtures (they hold the API key).
    fs: { deny: ['.env', '.env.*', '*.{crt,pem}', '**/.git/**', '**/server/**'] },
  },
  build: { outDir: fileURLToPath(new URL('../dist-demo', import.meta.url)), emptyOutDir: true },
})
