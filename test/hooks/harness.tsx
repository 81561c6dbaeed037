/**
 * Shared setup of the headless-layer tests: a fresh reference service in process, a client whose
 * fetch counts requests, a fresh QueryClient (retry off) and a provider wrapper.
 */
import { QueryClient } from '@tanstack/react-query'
import { act, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { createInboxClient } from '../../src/api/client'
import type { InboxClient } from '../../src/api/types'
import type { FeedData } from '../../src/core/lists'
import { inboxKeys, type FeedFilters } from '../../src/core/queries'
import { InboxProvider, type InboxProviderProps } from '../../src/provider/InboxProvider'
import type { Fixture } from '../support/fixtures'
import { buildFixture, messages, TEST_SUBSCRIBER_ID } from '../support/fixtures'
import { startService } from '../support/service'
import type { Service, ServiceOptions } from '../../server'

/** One request as the service received it. */
interface SeenRequest {
  method: string
  path: string
  search: URLSearchParams
  body?: unknown
  idempotencyKey: string | null
}

export interface Harness {
  started: ReturnType<typeof startService>
  service: Service
  client: InboxClient
  queryClient: QueryClient
  requests: SeenRequest[]
  /** Requests whose path contains `part` (and of `method`, when given). */
  count(part: string, method?: string): number
  /** Feed requests (GET …/notifications/feed) whose filters match. */
  feedRequests(filter?: { read?: string; seen?: string }): SeenRequest[]
  /** A provider around `children` with this harness's client and QueryClient. */
  wrapper: (props: { children?: ReactNode }) => ReactNode
  /** The in_app messages of the subscriber as the service holds them. */
  serviceState(subscriberId?: string): {
    unread: number
    unseen: number
    byId: Map<string, { read: boolean; seen: boolean }>
  }
  /** The cached list with these filters. */
  cached(filters?: Partial<FeedFilters>, subscriberId?: string): FeedData | undefined
}

export function newQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
}

/** A fixture with `count` messages for the test subscriber; `extra` shapes each. */
export function feedFixture(
  count: number,
  extra?: Parameters<typeof messages>[2],
  parts: Partial<Fixture> = {},
): Fixture {
  return buildFixture({
    ...parts,
    messages: [...messages(TEST_SUBSCRIBER_ID, count, extra), ...(parts.messages ?? [])],
  })
}

export function setup(
  options: ServiceOptions & {
    provider?: Partial<InboxProviderProps>
    client?: Partial<Parameters<typeof createInboxClient>[0]>
    /** Another harness whose service to share (a second tab of the same app). */
    sameServiceAs?: Harness
  } = {},
): Harness {
  const { provider, client: clientOptions, sameServiceAs, ...serviceOptions } = options
  const started = sameServiceAs?.started ?? startService(serviceOptions)
  const requests: SeenRequest[] = []
  const countingFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://inbox.test')
    const headers = new Headers(init?.headers)
    requests.push({
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      search: url.searchParams,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      idempotencyKey: headers.get('idempotency-key'),
    })
    return started.fetch(input, init)
  }) as typeof fetch
  const client = createInboxClient({
    baseUrl: started.baseUrl,
    apiKey: started.service.apiKey,
    fetch: countingFetch,
    retry: false,
    ...clientOptions,
  })
  const queryClient = newQueryClient()
  const subscriberId = provider?.subscriberId ?? TEST_SUBSCRIBER_ID
  const wrapper = ({ children }: { children?: ReactNode }) => (
    // The reference service has no event stream (that is the proxy's); not asking for one keeps request counts exact.
    <InboxProvider subscriberId={subscriberId} client={client} queryClient={queryClient} stream={false} {...provider}>
      {children}
    </InboxProvider>
  )
  const service = started.service
  return {
    started,
    service,
    client,
    queryClient,
    requests,
    count: (part, method) => requests.filter((r) => r.path.includes(part) && (!method || r.method === method)).length,
    feedRequests: (filter = {}) =>
      requests.filter(
        (r) =>
          r.path.endsWith('/notifications/feed') &&
          (filter.read === undefined || r.search.get('read') === filter.read) &&
          (filter.seen === undefined || r.search.get('seen') === filter.seen),
      ),
    wrapper,
    serviceState: (id = subscriberId) => {
      const list = service.state.messages(id).filter((m) => m.channel === 'in_app')
      return {
        unread: list.filter((m) => !m.read).length,
        unseen: list.filter((m) => !m.seen).length,
        byId: new Map(list.map((m) => [m._id, { read: m.read, seen: m.seen }])),
      }
    },
    cached: (filters = {}, id = subscriberId) => queryClient.getQueryData<FeedData>(inboxKeys.feed(id, filters)),
  }
}

export const UNREAD = { read: false, limit: 100 }
export const UNSEEN = { seen: false, limit: 100 }

/** Waits until no query or mutation of the QueryClient is running (and then a little longer). */
export async function settled(queryClient: QueryClient, timeout = 5000): Promise<void> {
  await waitFor(
    () => {
      if (queryClient.isFetching() > 0 || queryClient.isMutating() > 0) throw new Error('busy')
    },
    { timeout, interval: 5 },
  )
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 5))
  })
  if (queryClient.isFetching() > 0 || queryClient.isMutating() > 0) return settled(queryClient, timeout)
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
