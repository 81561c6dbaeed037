import { useCallback, useEffect, useState } from 'react'
import { DEMO_LOCALES, type DemoLocale } from './locales'

/** What the page remembers in its address: who is signed in, and how the app looks. */
export interface DemoSettings {
  subscriberId: string
  theme: 'light' | 'dark'
  locale: DemoLocale
}

/** Who the demo signs in as unless told otherwise. */
export const DEFAULT_SUBSCRIBER = 'demo-user'

const DEFAULTS: DemoSettings = { subscriberId: DEFAULT_SUBSCRIBER, theme: 'light', locale: 'en' }

function read(): DemoSettings {
  const params = new URLSearchParams(location.search)
  const stored = localStorage.getItem('inbox-demo-subscriber')
  const locale = params.get('locale')
  return {
    subscriberId: params.get('subscriber') ?? stored ?? DEFAULTS.subscriberId,
    theme: params.get('theme') === 'dark' ? 'dark' : DEFAULTS.theme,
    locale: DEMO_LOCALES.some((l) => l.code === locale) ? (locale as DemoLocale) : DEFAULTS.locale,
  }
}

/** Settings from the query string (so a link or a screenshot script can set them), kept there on change. */
export function useDemoSettings(): [DemoSettings, (change: Partial<DemoSettings>) => void] {
  const [settings, setSettings] = useState(read)
  useEffect(() => {
    const params = new URLSearchParams(location.search)
    params.set('subscriber', settings.subscriberId)
    params.set('theme', settings.theme)
    params.set('locale', settings.locale)
    history.replaceState(null, '', `?${params}`)
    localStorage.setItem('inbox-demo-subscriber', settings.subscriberId)
    const root = document.documentElement
    root.dataset.theme = settings.theme
    root.lang = settings.locale
    root.dir = DEMO_LOCALES.find((l) => l.code === settings.locale)?.dir ?? 'ltr'
  }, [settings])
  const update = useCallback((change: Partial<DemoSettings>) => setSettings((s) => ({ ...s, ...change })), [])
  return [settings, update]
}
