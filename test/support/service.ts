import { createService } from '../../server'
import type { Service, ServiceOptions } from '../../server'
import { createInboxClient } from '../../src/api/client'
import type { InboxClient } from '../../src/api/types'

/** Base URL that the in-process service answers on. */
export const BASE_URL = 'http://inbox.test'

/** A running in-process service and a `fetch` bound to it. */
export interface StartedService {
  service: Service
  /** Calls `service.fetch`; relative URLs resolve against {@link BASE_URL}. */
  fetch: typeof fetch
  /** Base URL including the service's basePath. */
  baseUrl: string
  /** A client of the service with the fixture's first API key and retries off. */
  client: InboxClient
}

/**
 * Starts a fresh reference service in process (demo fixture unless `options.fixture` is given).
 * @example const { service, fetch } = startService({ fixture: buildFixture() })
 */
export function startService(options?: ServiceOptions): StartedService {
  const service = createService(options)
  const boundFetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const request =
      input instanceof Request ? new Request(input, init) : new Request(new URL(String(input), BASE_URL), init)
    return service.fetch(request)
  }) as typeof fetch
  const baseUrl = BASE_URL + (options?.basePath ?? '')
  const client = createInboxClient({ baseUrl, apiKey: service.apiKey, fetch: boundFetch, retry: false })
  return { service, fetch: boundFetch, baseUrl, client }
}
