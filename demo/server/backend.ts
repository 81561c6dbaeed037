import { createService, createWebhookSecret, demoFixture } from '../../server'
import type { Fixture, MessageRecord, Service, ServiceOptions, WorkflowRecord } from '../../server'
import { HttpError, errorBody } from '../../server/http'
import type { JsonObject } from '../../src/api/types'
import { BodyTooLarge, readBody } from '../../src/proxy/body'
import { bearerTokenAuth, createInboxProxy, createSubscriberToken, verifySubscriberToken } from '../../src/proxy'
import { ADMIN_PATH, INBOX_PATH, SESSION_PATH } from '../app/routes'
import type { DemoSession, Directory } from '../app/routes'

export { ADMIN_PATH, INBOX_PATH, SESSION_PATH }

/** Largest sign-in body: `{"subscriberId": …}` and nothing more. */
export const SESSION_BODY_LIMIT = 1024
/** Largest admin body: the service's own limit on its largest requests (bulk triggers). */
export const ADMIN_BODY_LIMIT = 1024 * 1024

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
  /** The secret the service signs its webhooks with; the proxy's webhook route is served only with it. */
  webhookSecret?: string
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { 'cache-control': 'no-store', ...headers } })
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i

/**
 * The floor every demo route stands on: what another site's page can send (a form post, a no-cors fetch, an
 * image) carries `Sec-Fetch-Site: cross-site` or `same-site` and, for a post, its own `Origin`. Tools without
 * a browser send neither and are let through; they cannot act for a visitor.
 */
function refuseOtherSites(request: Request): void {
  const site = request.headers.get('sec-fetch-site')
  if (site !== null && site !== 'same-origin') {
    throw new HttpError(403, `Requests from other sites are refused (Sec-Fetch-Site: ${site})`)
  }
  const origin = request.headers.get('origin')
  if (origin !== null && origin !== new URL(request.url).origin) {
    throw new HttpError(403, `Requests from other origins are refused (Origin: ${origin})`)
  }
}

/**
 * The body within `limit` bytes, as JSON only: a form's or a text post's content type is what a cross-site
 * page can send without a preflight, so it never gets this far. Empty bodies pass unless `required`.
 */
async function readJsonBody(request: Request, limit: number, required: boolean): Promise<Uint8Array | null> {
  const type = request.headers.get('content-type')
  if (type !== null && !JSON_TYPE.test(type)) {
    throw new HttpError(415, `Content-Type ${type.split(';')[0]} is not supported: send application/json`)
  }
  if (Number(request.headers.get('content-length') ?? 0) > limit) {
    throw new HttpError(413, `Request body larger than ${limit} bytes`)
  }
  const body = await readBody(request, limit).catch((error: unknown) => {
    throw error instanceof BodyTooLarge ? new HttpError(413, `Request body larger than ${limit} bytes`) : error
  })
  const empty = !body || body.length === 0
  if (type === null && (required || !empty)) {
    throw new HttpError(415, 'A body needs Content-Type application/json')
  }
  if (required && empty) throw new HttpError(400, 'Request body is empty: send a JSON object')
  return empty ? null : body
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON')
  }
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

/**
 * A payload for a workflow, valued like its oldest message when there is one: one of the fixture's, never what a
 * visitor sent since (an empty or junk payload would become everyone's sample).
 */
function payloadFor(service: Service, workflow: WorkflowRecord): JsonObject {
  const templates = workflow.steps.flatMap((s) => [s.subject ?? '', s.content ?? '', s.cta?.url ?? '', s.avatar ?? ''])
  let oldest: MessageRecord | undefined
  for (const subscriber of service.state.subscribers())
    for (const m of service.state.messages(subscriber.subscriberId))
      if (m.templateIdentifier === workflow.identifier && (!oldest || m.createdAt < oldest.createdAt)) oldest = m
  return samplePayload(templates, oldest?.payload)
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

async function forward(
  request: Request,
  path: string,
  body: Uint8Array | null,
  upstreamFetch: typeof fetch,
  apiKey: string,
): Promise<Response> {
  const url = new URL(request.url)
  const headers = new Headers({ authorization: `ApiKey ${apiKey}`, accept: 'application/json' })
  for (const name of ['content-type', 'idempotency-key']) {
    const value = request.headers.get(name)
    if (value) headers.set(name, value)
  }
  const response = await upstreamFetch(UPSTREAM + path + url.search, {
    method: request.method,
    headers,
    body: (body ?? undefined) as BodyInit | undefined,
  })
  if (!path.startsWith('/v1/integrations') || !response.ok) return response
  const answer = new Response(JSON.stringify(redactCredentials(await response.json())), response)
  answer.headers.delete('content-length')
  return answer
}

/**
 * The demo's server side, as a fetch-standard handler: a sign-in route that issues subscriber tokens, the
 * subscriber-scoped proxy, and a small admin backend. The API key is used here only and never sent to the page.
 *
 * Demo only: the sign-in lets anyone be any subscriber, and any signed-in visitor may use the admin routes.
 * Both refuse other sites (Origin, Sec-Fetch-Site), take JSON only, cap their bodies and answer in the
 * service's error shape; the admin routes also need a token from the sign-in route.
 */
export function createDemoBackend(options: DemoBackendOptions): (request: Request) => Promise<Response> {
  const { service, secret, expiresIn = 600, environments = {}, webhookSecret } = options
  const upstreamFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
    service.fetch(new Request(input, init))) as typeof fetch
  const proxy = createInboxProxy({
    upstreamUrl: UPSTREAM,
    apiKey: service.apiKey,
    basePath: INBOX_PATH,
    fetch: upstreamFetch,
    authenticate: bearerTokenAuth(secret),
    events: { ...(webhookSecret !== undefined && { webhookSecret }) },
  })

  async function signIn(request: Request): Promise<Response> {
    if (request.method !== 'POST')
      throw new HttpError(405, `Cannot ${request.method} ${SESSION_PATH}`, undefined, { allow: 'POST' })
    const body = parseJson((await readJsonBody(request, SESSION_BODY_LIMIT, true))!) as {
      subscriberId?: unknown
    } | null
    const subscriberId = body && typeof body === 'object' ? body.subscriberId : undefined
    if (typeof subscriberId !== 'string' || !subscriberId) {
      throw new HttpError(422, 'Validation Error', {
        subscriberId: {
          messages: ['subscriberId must be a non-empty string'],
          ...(subscriberId === undefined ? {} : { value: subscriberId }),
        },
      })
    }
    // A real app signs in with a password or SSO; the demo lets anyone be any subscriber of the fixture.
    if (!service.state.subscriber(subscriberId)) throw new HttpError(404, `Unknown subscriber ${subscriberId}`)
    const token = await createSubscriberToken(subscriberId, secret, { expiresIn })
    const session: DemoSession = { subscriberId, token, expiresAt: Date.now() + expiresIn * 1000 }
    return json(session)
  }

  async function admin(request: Request, path: string): Promise<Response> {
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
    if (!token || !(await verifySubscriberToken(token, secret))) {
      throw new HttpError(401, `Sign in first: ${ADMIN_PATH} needs a token from POST ${SESSION_PATH}`)
    }
    if (path === `${ADMIN_PATH}/directory` && request.method === 'GET') return json(directory(service, environments))
    const inner = path.slice(ADMIN_PATH.length)
    if (!ADMIN_ROUTES.some(([method, pattern]) => method === request.method && pattern.test(inner))) {
      throw new HttpError(404, `Cannot ${request.method} ${path}`)
    }
    const body = request.method === 'GET' ? null : await readJsonBody(request, ADMIN_BODY_LIMIT, false)
    return forward(request, inner, body, upstreamFetch, service.apiKey)
  }

  return async (request) => {
    const path = new URL(request.url).pathname
    if (path.startsWith(INBOX_PATH + '/')) return proxy(request)
    try {
      refuseOtherSites(request)
      if (path === SESSION_PATH) return await signIn(request)
      if (path.startsWith(ADMIN_PATH + '/')) return await admin(request, path)
      throw new HttpError(404, `Cannot ${request.method} ${path}`)
    } catch (error) {
      if (!(error instanceof HttpError)) throw error
      // Unread, the rest of a refused body would hold the connection (and the next request on it) up.
      if (request.body && !request.body.locked) await request.body.cancel().catch(() => {})
      return json(
        errorBody(error.status, error.message, path, error.errors ? { errors: error.errors } : {}),
        error.status,
        error.headers,
      )
    }
  }
}

/**
 * The reference service and the demo backend, wired as a host app would wire its own: the service posts a signed
 * webhook for every in-app message it delivers or marks to the backend's own proxy route (in process here), and the
 * proxy streams it to the subscriber's open inbox at `GET /api/inbox/events`.
 */
export function createDemo(options: ServiceOptions & { secret: string; expiresIn?: number }): {
  service: Service
  backend: (request: Request) => Promise<Response>
} {
  const { secret, expiresIn, ...serviceOptions } = options
  const webhookSecret = createWebhookSecret()
  // eslint-disable-next-line prefer-const -- made after the service, whose webhooks it receives
  let backend: ((request: Request) => Promise<Response>) | undefined
  const service = createService({
    ...serviceOptions,
    webhooks: {
      url: `http://demo.internal${INBOX_PATH}/webhooks/messages`,
      secret: webhookSecret,
      fetch: (input, init) => backend!(new Request(input, init)),
    },
  })
  const fixture = (serviceOptions.fixture ?? demoFixture) as Fixture
  const environments = Object.fromEntries(
    fixture.apiKeys.map((k) => [k.environmentId, k.environmentName ?? k.environmentId]),
  )
  backend = createDemoBackend({
    service,
    secret,
    environments,
    webhookSecret,
    ...(expiresIn !== undefined && { expiresIn }),
  })
  return { service, backend }
}
