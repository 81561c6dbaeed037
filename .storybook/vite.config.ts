import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// Storybook's Vite config: stories run the reference service in the browser, so nothing else is needed.
export default defineConfig({
  plugins: [react()],
})
