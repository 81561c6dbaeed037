import { QueryClient } from '@tanstack/react-query'
import type { ServiceOptions } from '../../server'
import { createInboxClient } from '../../src/api/client'
import { buildFixture } from '../support/fixtures'
import type { Fixture } from '../support/fixtures'
import { startService } from '../support/service'

/** A fresh service, client (no retries) and QueryClient for one test. */
export function setupService(fixture: Fixture = buildFixture(), options: Omit<ServiceOptions, 'fixture'> = {}) {
  const started = startService({ fixture, ...options })
  const client = createInboxClient({
    baseUrl: started.baseUrl,
    apiKey: started.service.apiKey,
    fetch: started.fetch,
    retry: false,
  })
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  return { ...started, client, queryClient }
}
