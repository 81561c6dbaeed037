import type { InboxMessages } from '../../src'

/** The kit's locales, as the demo's language menu lists them; each but English is loaded on demand. */
export const DEMO_LOCALES = [
  { code: 'en', label: 'English', dir: 'ltr', load: () => import('../../src/locales/en').then((m) => m.en) },
  { code: 'de', label: 'Deutsch', dir: 'ltr', load: () => import('../../src/locales/de').then((m) => m.de) },
  { code: 'fr', label: 'Français', dir: 'ltr', load: () => import('../../src/locales/fr').then((m) => m.fr) },
  { code: 'es', label: 'Español', dir: 'ltr', load: () => import('../../src/locales/es').then((m) => m.es) },
  { code: 'ja', label: '日本語', dir: 'ltr', load: () => import('../../src/locales/ja').then((m) => m.ja) },
  { code: 'ar', label: 'العربية', dir: 'rtl', load: () => import('../../src/locales/ar').then((m) => m.ar) },
] as const satisfies readonly { code: string; label: string; dir: string; load: () => Promise<InboxMessages> }[]

export type DemoLocale = (typeof DEMO_LOCALES)[number]['code']
