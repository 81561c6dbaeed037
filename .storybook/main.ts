import type { StorybookConfig } from '@storybook/react-vite'

const config: StorybookConfig = {
  stories: ['../stories/**/*.stories.tsx'],
  addons: ['@storybook/addon-a11y'],
  framework: {
    name: '@storybook/react-vite',
    // The root vite.config.ts builds the library; Storybook gets a plain React config of its own.
    options: { builder: { viteConfigPath: '.storybook/vite.config.ts' } },
  },
  // react-docgen parses with Babel; the TypeScript-based docgen would need the TypeScript JS API.
  typescript: { reactDocgen: 'react-docgen', check: false },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // Storybook ignores the `build` of a Vite config file; its preview bundle is one large chunk by design.
  viteFinal: (config) => ({ ...config, build: { ...config.build, chunkSizeWarningLimit: 4096 } }),
}

export default config
