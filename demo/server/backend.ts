import type { Service, WorkflowRecord } from '../../server'
import type { JsonObject } from '../../src/api/types'
import { bearerTokenAuth, createInboxProxy, createSubscriberToken } from '../../src/proxy'
import { ADMIN_PATH, INBOX_PATH, SESSION_PATH } from '../app/routes'
import type { DemoSession, Directory } from '../app/routes'

export { ADMIN_PATH, INBOX_PATH, SESSION_PATH }
export type { DemoSession, Directory, DirectorySubscriber, DirectoryWorkflow } from '../app/routes'

const UPSTREAM = 'http://reference-service.internal'

/** Operations a host app's backend would run for its own staff; never reachable through the subscriber proxy. */
const ADMIN_ROUTES: [string, RegExp][] = [
  ['POST', /^\/v1\/events\/trigger$/],
  ['POST', /^\/v1\/events\/trigger\/bulk$/],
  ['GET', /^\/v1\/integrations\/active$/],
  ['POST', /^\/v1\/integrations\/[^/]+\/set-primary$/],
  ['GET', /^\/v2\/topics\/[^/]+\/subscriptions$/],
]

export interface DemoBackendOptions {
  service: Service
  /** Signs the subscriber tokens. */
  secret: string
  /** Token lifetime in seconds; the page fetches a new one before it runs out. @default 600 */
  expiresIn?: number
  /** Display names of environments by id, for the integrations panel. */
  environments?: Record<string, string>
}

function json(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: { 'cache-control': 'no-store' } })
}

/** A payload with every `{{payload.…}}` path of the templates, valued from `example` where it has one. */
function samplePayload(templates: string[], example: JsonObject = {}): JsonObject {
  const payload: JsonObject = {}
  for (const template of templates) {
    for (const [, path] of template.matchAll(/\{\{\s*payload\.([\w.]+)\s*\}\}/g)) {
      const keys = path!.split('.')
      let node = payload
      let source: unknown = example
      keys.forEach((key, index) => {
        source = source && typeof source === 'object' ? (source as JsonObject)[key] : undefined
        if (index === keys.length - 1) node[key] ??= (source as JsonObject[string]) ?? `Sample ${key}`
        else node = (node[key] ??= {}) as JsonObject
      })
    }
  }
  return payload
}

/** A payload for a workflow, valued like its latest message in the fixture when there is one. */
function payloadFor(service: Service, workflow: WorkflowRecord): JsonObject {
  const templates = workflow.steps.flatMap((s) => [s.subject ?? '', s.content ?? '', s.cta?.url ?? '', s.avatar ?? ''])
  for (const subscriber of service.state.subscribers()) {
    const message = service.state.messages(subscriber.subscriberId).find((m) => m.templateIdentifier === workflow.identifier)
    if (message) return samplePayload(templates, message.payload)
  }
  return samplePayload(templates)
}

function directory(service: Service, environments: Record<string, string>): Directory {
  const { state } = service
  return {
    subscribers: state.subscribers().map((s) => ({
      subscriberId: s.subscriberId,
      name: [s.firstName, s.lastName].filter(Boolean).join(' ') || s.subscriberId,
      email: s.email,
      avatar: s.avatar,
    })),
    workflows: state.workflows().map((w) => ({
      identifier: w.identifier,
      name: w.name,
      description: w.description,
      critical: w.critical,
      active: w.active,
      channels: [...new Set(w.steps.filter((s) => s.channel !== 'delay').map((s) => s.channel))],
      samplePayload: payloadFor(service, w),
    })),
    topics: state.topics().map((t) => ({ key: t.key, name: t.name ?? t.key })),
    environments,
  }
}

/** Provider secrets stay in the back office too: the page only needs to know that they are set. */
function redactCredentials(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactCredentials)
  if (!value || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === 'credentials' && inner && typeof inner === 'object'
        ? Object.fromEntries(Object.entries(inner).map(([k, v]) => [k, typeof v === 'string' ? '••••••' : v]))
        : redactCredentials(inner),
    ]),
  )
}

async function forward(request: Request, path: string, upstreamFetch: typeof fetch, apiKey: string): Promise<Response> {
  const url = new URL(request.url)
  const headers = new Headers({ authorization: `ApiKey ${apiKey}`, accept: 'application/json' })
  for (const name of ['content-type', 'idempotency-key']) {
    const value = request.headers.get(name)
    if (value) headers.set(name, value)
  }
  const body = request.method === 'GET' ? undefined : await request.arrayBuffer()
  const response = await upstreamFetch(UPSTREAM + path + url.search, { method: request.method, headers, body })
  if (!path.startsWith('/v1/integrations') || !response.ok) return response
  const answer = new Response(JSON.stringify(redactCredentials(await response.json())), response)
  answer.headers.delete('content-length')
  return answer
}

/**
 * The demo's server side, as a fetch-standard handler: a sign-in route that issues subscriber tokens, the
 * subscriber-scoped proxy, and a small admin backend. The API key is used here only and never sent to the page.
 */
export function createDemoBackend(options: DemoBackendOptions): (request: Request) => Promise<Response> {
  const { service, secret, expiresIn = 600, environments = {} } = options
  const upstreamFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
    service.fetch(new Request(input, init))) as typeof fetch
  const proxy = createInboxProxy({
    upstreamUrl: UPSTREAM,
    apiKey: service.apiKey,
    basePath: INBOX_PATH,
    fetch: upstreamFetch,
    authenticate: bearerTokenAuth(secret),
  })

  return async (request) => {
    const url = new URL(request.url)
    const path = url.pathname

    if (path === SESSION_PATH) {
      if (request.method !== 'POST') return json({ message: 'Method not allowed' }, 405)
      // A real app signs in with a password or SSO; the demo lets anyone be any subscriber of the fixture.
      const body = (await request.json().catch(() => null)) as { subscriberId?: unknown } | null
      const subscriberId = typeof body?.subscriberId === 'string' ? body.subscriberId : ''
      if (!service.state.subscriber(subscriberId)) return json({ message: `Unknown subscriber ${subscriberId}` }, 404)
      const token = await createSubscriberToken(subscriberId, secret, { expiresIn })
      const session: DemoSession = { subscriberId, token, expiresAt: Date.now() + expiresIn * 1000 }
      return json(session)
    }

    if (path.startsWith(INBOX_PATH + '/')) return proxy(request)

    if (path === `${ADMIN_PATH}/directory`) return json(directory(service, environments))

    const inner = path.startsWith(ADMIN_PATH + '/') ? path.slice(ADMIN_PATH.length) : null
    if (inner && ADMIN_ROUTES.some(([method, pattern]) => method === request.method && pattern.test(inner))) {
      return forward(request, inner, upstreamFetch, service.apiKey)
    }
    return json({ message: `Cannot ${request.method} ${path}` }, 404)
  }
}
