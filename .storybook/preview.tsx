import type { Preview } from '@storybook/react-vite'

const preview: Preview = {
  parameters: {
    layout: 'padded',
    controls: { expanded: true, sort: 'requiredFirst' },
    // Stories are checked with axe in the browser tests too; here the panel shows the same rules.
    a11y: { test: 'error' },
  },
}

export default preview
