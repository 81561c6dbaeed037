import { useMemo, useState } from 'react'
import type { ReactNode } from 'react'
import { InboxProvider } from '../../src'
import { createInboxClient } from '../../src/client'
import { createService } from '../../server'
import type { FaultRule, Fixture } from '../../server'
import { STORY_SUBSCRIBER, defaultFixture } from './fixtures'

/** How a story seeds its own reference service. */
export interface ServiceSetup {
  /** The fixture, or a function that builds it. @default the demo fixture */
  fixture?: Fixture | (() => Fixture)
  /** Faults injected from the start (latency, 500s, …). */
  faults?: FaultRule[]
  /** @default STORY_SUBSCRIBER */
  subscriberId?: string
}

/** Provider props a story can control. */
export interface ScopeLook {
  theme?: 'light' | 'dark' | 'system'
  locale?: string
}

let scopes = 0

/**
 * A reference service running in the page, seeded for one story, and an `InboxProvider` talking to it
 * through its fetch handler: the static Storybook needs no server.
 */
export function ServiceScope({ setup = {}, look = {}, children }: { setup?: ServiceSetup; look?: ScopeLook; children: ReactNode }) {
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
        fetch: ((input: RequestInfo | URL, init?: RequestInit) => service.fetch(new Request(input, init))) as typeof fetch,
        retry: false,
        timeout: 600_000,
      }),
    [service],
  )
  return (
    <InboxProvider subscriberId={setup.subscriberId ?? STORY_SUBSCRIBER} client={client} theme={look.theme} locale={look.locale}>
      {children}
    </InboxProvider>
  )
}
