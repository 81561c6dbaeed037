import type { Service } from '../../server'
import { createInboxClient } from '../../src/api/client'
import type { InboxClient } from '../../src/api/types'

/** For a test page: a client of the reference service running in the page itself (no network), no retries. */
export function pageClient(service: Service): InboxClient {
  return createInboxClient({
    baseUrl: 'http://inbox.test',
    apiKey: service.apiKey,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
      service.fetch(new Request(new URL(String(input), 'http://inbox.test'), init))) as typeof fetch,
    retry: false,
  })
}
