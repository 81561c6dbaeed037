import { QueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import { Inbox, InboxProvider, type InboxMessages } from '../../src'
import { INBOX_PATH } from './routes'
import type { Directory } from './routes'
import { AdminScope } from './AdminScope'
import { DEMO_LOCALES } from './locales'
import { IntegrationsPanel } from './panels/IntegrationsPanel'
import { SendPanel } from './panels/SendPanel'
import { SubscriberSwitcher } from './panels/SubscriberSwitcher'
import { TopicsPanel } from './panels/TopicsPanel'
import { DemoAuthContext, fetchDirectory, signIn } from './session'
import { DEFAULT_SUBSCRIBER, useDemoSettings } from './settings'
import type { DemoSettings } from './settings'
import { useDemoStrings } from './strings'

function Logo() {
  const t = useDemoStrings()
  return (
    <a className="demo-logo" href="/" aria-label={t.home}>
      <svg width="28" height="28" viewBox="0 0 28 28" aria-hidden="true">
        <rect width="28" height="28" rx="8" fill="currentColor" />
        <path d="M8 18.5 14 8l6 10.5h-4.2L14 15.2l-1.8 3.3z" fill="var(--demo-logo-mark)" />
      </svg>
      <span>Relay</span>
    </a>
  )
}

/** The demo: a small product whose header holds the inbox and whose pages exercise the rest of the API. */
export function App() {
  const [settings, update] = useDemoSettings()
  const { subscriberId, theme, locale } = settings
  const [directory, setDirectory] = useState<Directory | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  // One cache for the inbox and the admin panels, so that a trigger refreshes the inbox at once.
  const queryClient = useMemo(
    () => new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } }),
    [],
  )
  const auth = useMemo(() => signIn(subscriberId), [subscriberId])

  // Loaded once: any signed-in subscriber may read it, and switching must not reset the panels.
  const [firstAuth, setFirstAuth] = useState(auth)
  // A link (or a stored choice) naming a subscriber the demo does not have: signed in as the default one instead,
  // and said so, rather than a page that cannot sign in.
  const [unknown, setUnknown] = useState<string | null>(null)
  useEffect(() => {
    fetchDirectory(firstAuth).then(setDirectory, (error: Error) => {
      if (/\(404\)$/.test(error.message) && subscriberId !== DEFAULT_SUBSCRIBER) {
        setUnknown(subscriberId)
        update({ subscriberId: DEFAULT_SUBSCRIBER })
        setFirstAuth(signIn(DEFAULT_SUBSCRIBER))
      } else setLoadError(error.message)
    })
    // Only when the sign-in it reads with changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [firstAuth])

  // Strings other than English are a separate module each, loaded when chosen.
  const [messages, setMessages] = useState<InboxMessages>()
  useEffect(() => {
    let current = true
    void DEMO_LOCALES.find((l) => l.code === locale)
      ?.load()
      .then((m) => current && setMessages(m))
    return () => {
      current = false
    }
  }, [locale])

  return (
    <DemoAuthContext value={auth}>
      <InboxProvider
        subscriberId={subscriberId}
        baseUrl={INBOX_PATH}
        getHeaders={auth.getHeaders}
        queryClient={queryClient}
        theme={theme}
        locale={locale}
        messages={messages?.lang === locale ? messages : undefined}
      >
        <Shell settings={settings} update={update} directory={directory} loadError={loadError} unknown={unknown} />
      </InboxProvider>
    </DemoAuthContext>
  )
}

/** The app around the inbox: header with the bell, and the console's panels. */
function Shell({
  settings,
  update,
  directory,
  loadError,
  unknown,
}: {
  settings: DemoSettings
  update: (change: Partial<DemoSettings>) => void
  directory: Directory | null
  loadError: string | null
  unknown: string | null
}) {
  const { subscriberId, theme, locale } = settings
  const t = useDemoStrings()
  const me = directory?.subscribers.find((s) => s.subscriberId === subscriberId)
  const [inboxOpen, setInboxOpen] = useState(false)
  // The link of a notification the visitor followed (the demo has no page behind it, so it stays and says so), or
  // the action button pressed (the demo has no backend behind it).
  const [followed, setFollowed] = useState<string | null>(null)
  const [acted, setActed] = useState<string | null>(null)
  // The section of the console the address points at, for the header's links.
  const [section, setSection] = useState(() => location.hash || '#send')
  useEffect(() => {
    const follow = () => setSection(location.hash || '#send')
    addEventListener('hashchange', follow)
    return () => removeEventListener('hashchange', follow)
  }, [])
  return (
    <div className="demo-shell">
      <header className="demo-header">
        <Logo />
        <nav className="demo-nav" aria-label={t.mainNav}>
          {(
            [
              ['#send', t.navNotifications],
              ['#integrations', t.navIntegrations],
              ['#topics', t.navTopics],
            ] as const
          ).map(([href, label]) => (
            <a key={href} href={href} aria-current={section === href ? 'location' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <div className="demo-header-tools">
          <label className="demo-select">
            <span className="demo-visually-hidden">{t.language}</span>
            <select value={locale} onChange={(e) => update({ locale: e.target.value as typeof locale })}>
              {DEMO_LOCALES.map((l) => (
                <option key={l.code} value={l.code}>
                  {l.label}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="demo-icon-button"
            aria-pressed={theme === 'dark'}
            onClick={() => update({ theme: theme === 'dark' ? 'light' : 'dark' })}
          >
            <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span>
            <span className="demo-visually-hidden">{t.darkTheme}</span>
          </button>
          <Inbox
            countKind="unread"
            open={inboxOpen}
            onOpenChange={setInboxOpen}
            // The popover closes on its own, focus back on the bell.
            onNavigate={(url, _item, event) => {
              event.preventDefault()
              setActed(null)
              setFollowed(url)
            }}
            onAction={(button, item) => {
              setFollowed(null)
              setActed(`${button.content} · ${item.subject ?? item.content}`)
            }}
            toasts
          />
          <SubscriberSwitcher
            subscribers={directory?.subscribers ?? []}
            current={subscriberId}
            onChange={(id) => update({ subscriberId: id })}
          />
        </div>
      </header>
      <main className="demo-main">
        <div className="demo-intro">
          <h1>{t.consoleTitle}</h1>
          <p>
            {t.signedInAs} <strong>{me?.name ?? subscriberId}</strong>. {t.intro}
          </p>
          <p role="status" className="demo-notice">
            {followed && (
              <>
                {t.followed} <code dir="ltr">{followed}</code>
              </>
            )}
            {acted && (
              <>
                {t.acted} <strong>{acted}</strong>
              </>
            )}
            {unknown && !followed && !acted && (
              <>
                {t.unknownSubscriber} <code dir="ltr">{unknown}</code>
              </>
            )}
          </p>
        </div>
        {loadError && (
          <p role="alert" className="demo-error">
            {t.loadError} {loadError}
          </p>
        )}
        <div className="demo-grid">
          <AdminScope>
            <SendPanel directory={directory} subscriberId={subscriberId} />
            <IntegrationsPanel environments={directory?.environments} />
          </AdminScope>
          <TopicsPanel directory={directory} />
        </div>
      </main>
    </div>
  )
}
