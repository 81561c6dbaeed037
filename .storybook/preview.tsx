import type { Preview } from '@storybook/react-vite'
// As an app imports 'inbox-kit/styles.css': the stylesheet is a file of its own, not a side effect of the JS.
import '../src/styles/index.css'

const preview: Preview = {
  parameters: {
    layout: 'padded',
    controls: { expanded: true, sort: 'requiredFirst' },
    // Stories are checked with axe in the browser tests too; here the panel shows the same rules.
    a11y: { test: 'error' },
  },
}

export default preview
