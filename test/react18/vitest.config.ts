import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import base from '../../vite.config'

// The component and hook tests once more, on React 18 (the oldest React in the peer range).
// React 18 lives in this folder's own node_modules, where react-dom 18 finds react 18 beside it.
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineConfig({
  ...base,
  root: here('../..'),
  resolve: {
    alias: [
      { find: /^(react|react-dom)(\/.*)?$/, replacement: `${here('./node_modules/')}$1$2` },
      // Its `main` is CommonJS, whose require() no alias reaches; its ESM build is named by `module` only.
      { find: /^@testing-library\/react$/, replacement: '@testing-library/react/dist/@testing-library/react.esm.js' },
    ],
  },
  test: {
    ...base.test,
    name: 'react18',
    include: ['test/components/**/*.test.tsx', 'test/hooks/**/*.test.tsx'],
    // Two at once: `npm test` runs these beside the packed-package test, which keeps a core busy on its own.
    maxWorkers: 2,
    setupFiles: [here('../support/timeouts.ts'), here('./setup.ts')],
    server: {
      deps: {
        // Run through Vite so that their own imports of react and react-dom meet the alias too.
        inline: [/@testing-library\/react/, /@tanstack\/react-query/, /zustand/],
      },
    },
  },
})
