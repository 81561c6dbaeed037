import { createInboxClient } from '../../src/api/client'
import type { InboxClientOptions } from '../../src/api/types'
import {
  TEST_SUBSCRIBER_ID,
  buildFixture,
  emailStep,
  inApp,
  integration,
  messages,
  subscriber,
  topic,
  workflow,
} from '../support/fixtures'
import { startService } from '../support/service'
import type { ServiceOptions } from '../../server'

/** A request as the service received it. */
interface SeenRequest {
  method: string
  path: string
  search: URLSearchParams
  headers: Headers
}

/**
 * A fixture with something for every operation: two subscribers, two topics, integrations of three
 * channels (one email primary), 15 in_app messages for `user-1` (every third one read) and a critical workflow.
 */
function apiFixture() {
  return buildFixture({
    subscribers: [subscriber('user-2', { firstName: 'Bo' })],
    workflows: [
      workflow('test-workflow', [inApp('Hello {{subscriber.firstName}} {{payload.text}}'), emailStep()]),
      workflow('security-alert', [inApp('Security alert')], { critical: true }),
    ],
    topics: [topic('news', [TEST_SUBSCRIBER_ID, 'user-2']), topic('product', [TEST_SUBSCRIBER_ID])],
    integrations: [
      integration('email', 'email-a', { primary: true }),
      integration('email', 'email-b'),
      integration('sms', 'sms-a'),
      integration('in_app', 'in-app-a'),
      integration('chat', 'chat-off', { active: false }),
    ],
    messages: messages(TEST_SUBSCRIBER_ID, 15, (i) => ({ read: i % 3 === 0, payload: { index: i } })),
  })
}

/**
 * A fresh service (the {@link apiFixture} unless `serviceOptions.fixture` says otherwise), the requests it
 * has seen, and a factory of clients talking to it in process.
 */
export function setup(serviceOptions: ServiceOptions = {}) {
  const started = startService({ fixture: apiFixture(), ...serviceOptions })
  const seen: SeenRequest[] = []
  const recordingFetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input instanceof Request ? input : new URL(String(input), started.baseUrl), init)
    const url = new URL(request.url)
    seen.push({ method: request.method, path: url.pathname, search: url.searchParams, headers: request.headers })
    return started.fetch(request)
  }) as typeof fetch
  const client = (options: Partial<InboxClientOptions> = {}) =>
    createInboxClient({
      baseUrl: started.baseUrl,
      apiKey: started.service.apiKey,
      fetch: recordingFetch,
      retry: { baseDelay: 1, maxDelay: 50 },
      ...options,
    })
  return { ...started, seen, client }
}
