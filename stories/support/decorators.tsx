import type { Decorator } from '@storybook/react-vite'
import type { CSSProperties } from 'react'
import { ServiceScope } from './ServiceScope'
import type { ScopeLook, ServiceSetup } from './ServiceScope'

/** Story parameters read by {@link withService}. */
export interface InboxStoryParameters {
  service?: ServiceSetup
  /** Minimum height of the canvas, for popovers. */
  minHeight?: number
}

const RTL_LOCALES = new Set(['ar', 'he', 'fa', 'ur'])

function canvasStyle(theme: ScopeLook['theme'], minHeight = 0): CSSProperties {
  // `system` follows the reader's color scheme, as the inbox does: light-dark() picks by `colorScheme`.
  const pick = (light: string, dark: string) =>
    theme === 'system' ? `light-dark(${light}, ${dark})` : theme === 'dark' ? dark : light
  return {
    minHeight,
    padding: 24,
    background: pick('#f6f7fb', '#0e1018'),
    color: pick('#161a2b', '#eceef6'),
    colorScheme: theme === 'system' ? 'light dark' : pick('light', 'dark'),
    fontFamily: 'system-ui, sans-serif',
  }
}

/**
 * Gives each story its own reference service in the browser (seeded from `parameters.inbox.service`) and the
 * provider props that the `theme` and `locale` controls set; the canvas follows the theme and direction.
 */
export const withService: Decorator = (Story, context) => {
  const params = (context.parameters.inbox ?? {}) as InboxStoryParameters
  const args = context.args as ScopeLook
  const theme = args.theme ?? 'light'
  const locale = args.locale ?? 'en'
  return (
    <div dir={RTL_LOCALES.has(locale) ? 'rtl' : 'ltr'} lang={locale} style={canvasStyle(theme, params.minHeight)}>
      <ServiceScope key={context.id} setup={params.service} look={{ theme, locale }}>
        <Story />
      </ServiceScope>
    </div>
  )
}

/** Controls shared by every story: the provider's theme and locale. */
export const lookArgTypes = {
  theme: { control: 'inline-radio', options: ['light', 'dark', 'system'], table: { category: 'Provider' } },
  locale: { control: 'select', options: ['en', 'de', 'fr', 'es', 'ja', 'ar'], table: { category: 'Provider' } },
} as const

/** Faults that keep every request of a story waiting (ten minutes; the client is told to wait as long). */
export const LOADING = [{ latency: 600_000 }]
/** Faults that answer every request with a 500. */
export const FAILING = [{ status: 500 }]
/** Faults that answer every read with `status` (401 signed out, 403 no access, 404 not found, 503 unavailable). */
export const failingWith = (status: number) => [{ method: 'GET', status }]
/** Faults that answer every read with a body that is not the API's. */
export const MALFORMED = [{ method: 'GET', malformed: true }]

/**
 * Parameters of an Unstyled story (tagged `unstyled`, a tag the story tests read from index.json): with the
 * kit's visual rules dropped, target sizes are the app's CSS's job, so axe's target-size rule is off for it.
 */
export const UNSTYLED_PARAMETERS = { a11y: { config: { rules: [{ id: 'target-size', enabled: false }] } } }
