import type { QueryClient } from '@tanstack/react-query'
import { cleanup, configure, render } from '@testing-library/react'
import type { RenderResult } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import axe from 'axe-core'
import type { ReactElement } from 'react'
import { afterEach, expect } from 'vitest'
import type { FaultRule, ServiceOptions } from '../../server'
import type { InboxClient } from '../../src/api/types'
import { InboxProvider } from '../../src/provider/InboxProvider'
import type { InboxProviderProps } from '../../src/provider/InboxProvider'
import { TEST_SUBSCRIBER_ID } from '../support/fixtures'
import type { Fixture } from '../support/fixtures'
import type { StartedService } from '../support/service'
import { setupService } from './setup-service'

export { setupService }

// The first render of a file also pays for loading the service and the components.
configure({ asyncUtilTimeout: 5000 })

// axe probes canvas for icon fonts; jsdom has none.
HTMLCanvasElement.prototype.getContext = (() => null) as never

afterEach(() => {
  cleanup()
  document.title = ''
})

export interface Rendered extends RenderResult, StartedService {
  client: InboxClient
  queryClient: QueryClient
  user: ReturnType<typeof userEvent.setup>
}

/** Renders `ui` inside an `InboxProvider` talking to a fresh in-process service. */
export function renderWithInbox(
  ui: ReactElement,
  {
    fixture,
    service,
    provider,
    faults = [],
    setup,
  }: {
    fixture?: Fixture
    service?: Omit<ServiceOptions, 'fixture'>
    provider?: Partial<InboxProviderProps>
    /** Fault rules in place before the first request. */
    faults?: FaultRule[]
    /** A service set up (and perhaps prefetched from) beforehand. */
    setup?: ReturnType<typeof setupService>
  } = {},
): Rendered {
  const s = setup ?? setupService(fixture, service)
  for (const rule of faults) s.service.faults.add(rule)
  const result = render(
    <InboxProvider
      stream={false}
      subscriberId={TEST_SUBSCRIBER_ID}
      client={s.client}
      queryClient={s.queryClient}
      pollInterval={0}
      {...provider}
    >
      {ui}
    </InboxProvider>,
  )
  return { ...s, ...result, user: userEvent.setup() }
}

/** Runs axe on `container` (rules that need a real layout engine are off in jsdom). */
export async function expectAccessible(container: Element): Promise<void> {
  const results = await axe.run(container, {
    rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
  })
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([])
}

/** Fetches the subscriber's messages straight from the service (what it now holds). */
export async function serviceFeed(client: InboxClient, params: { read?: boolean; seen?: boolean } = {}) {
  return client.getFeed(TEST_SUBSCRIBER_ID, { limit: 100, ...params })
}
