import { createContext, useMemo, useState } from 'react'
import type { ReactNode } from 'react'
import { InboxProvider } from '../../src'
import { createInboxClient } from '../../src/client'
import { createService } from '../../server'
import type { FaultRule, Fixture, Service } from '../../server'
import { STORY_SUBSCRIBER, defaultFixture } from './fixtures'
import { ar } from '../../src/locales/ar'
import { de } from '../../src/locales/de'
import { es } from '../../src/locales/es'
import { fr } from '../../src/locales/fr'
import { ja } from '../../src/locales/ja'

/** The locales the stories' control offers (an app imports only those it uses). */
const MESSAGES: Record<string, typeof de> = { de, fr, es, ja, ar }

/** How a story seeds its own reference service. */
export interface ServiceSetup {
  /** The fixture, or a function that builds it. @default the demo fixture */
  fixture?: Fixture | (() => Fixture)
  /** Faults injected from the start (latency, 500s, …). */
  faults?: FaultRule[]
  /** @default STORY_SUBSCRIBER */
  subscriberId?: string
  /** How often the inbox looks for news, in ms (the stories of arrivals look often). @default the adaptive cadence */
  pollInterval?: number
}

/** Provider props a story can control. */
export interface ScopeLook {
  theme?: 'light' | 'dark' | 'system'
  locale?: string
}

let scopes = 0

/** The story's own reference service, for stories that act on it (send a notification). */
export const ServiceContext = createContext<Service | null>(null)

/**
 * A reference service running in the page, seeded for one story, and an `InboxProvider` talking to it
 * through its fetch handler: the static Storybook needs no server.
 */
export function ServiceScope({
  setup = {},
  look = {},
  children,
}: {
  setup?: ServiceSetup
  look?: ScopeLook
  children: ReactNode
}) {
  const [service] = useState(() => {
    const fixture = typeof setup.fixture === 'function' ? setup.fixture() : (setup.fixture ?? defaultFixture())
    const created = createService({ fixture })
    for (const rule of setup.faults ?? []) created.faults.add(rule)
    return created
  })
  const client = useMemo(
    () =>
      createInboxClient({
        // One address per service: providers of the same subscriber and address share changes across tabs
        // (BroadcastChannel), which must not carry one story cell's data into another's.
        baseUrl: `http://inbox-${++scopes}.story`,
        // The fixture's made-up key: this service exists only inside this page.
        apiKey: service.apiKey,
        fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
          service.fetch(new Request(input, init))) as typeof fetch,
        retry: false,
        timeout: 600_000,
      }),
    [service],
  )
  return (
    <ServiceContext.Provider value={service}>
      <InboxProvider
        subscriberId={setup.subscriberId ?? STORY_SUBSCRIBER}
        client={client}
        theme={look.theme}
        messages={look.locale ? MESSAGES[look.locale] : undefined}
        stream={false}
        {...(setup.pollInterval === undefined ? {} : { pollInterval: setup.pollInterval })}
      >
        {children}
      </InboxProvider>
    </ServiceContext.Provider>
  )
}
