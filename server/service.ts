import { Delivery, Scheduler } from './delivery'
import { demoFixture } from './fixtures/demo'
import { Faults, IdempotencyStore, RateLimiter, type IdempotencyUsage, type StoredResponse } from './guards'
import { HttpError, errorBody, json, readJson } from './http'
import { uuid } from './ids'
import { MAX_BULK_EVENTS, matchRoute, type RouteResult } from './routes'
import { Store } from './store'
import type { Service, ServiceOptions } from './types'
import { validateFixture } from './validateFixture'
import { WebhookSender } from './webhooks'

const internals = new WeakMap<Service, { store: Store; idempotency: IdempotencyStore }>()

function internalsOf(service: Service) {
  const found = internals.get(service)
  if (!found) throw new Error('not a service made by createService')
  return found
}

/** The store behind a service (for the data generators). */
export function storeOf(service: Service): Store {
  return internalsOf(service).store
}

/** How much the service's idempotency store holds (for tests and benchmarks). */
export function idempotencyUsage(service: Service): IdempotencyUsage {
  return internalsOf(service).idempotency.usage
}

/** The request's fingerprint for Idempotency-Key: a digest of the body where the platform has one, so kept entries stay small. */
async function fingerprintOf(method: string, path: string, rawBody: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle
  if (!subtle) return `${method} ${path}\n${rawBody}`
  const digest = new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(rawBody)))
  return `${method} ${path}\n#${Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')}`
}

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'Idempotency-Key, Idempotency-Replay, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After',
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve()
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * Builds an in-process reference service from a fixture (the demo fixture by default).
 * @example
 * const service = createService({ fixture })
 * const res = await service.fetch(new Request('http://x/v1/integrations/active', { headers: { Authorization: `ApiKey ${service.apiKey}` } }))
 */
export function createService(options: ServiceOptions = {}): Service {
  const fixture = validateFixture(options.fixture ?? demoFixture)
  const clock = options.now ?? Date.now
  const store = new Store(fixture, clock)
  const scheduler = new Scheduler(clock)
  const delivery = new Delivery(store, scheduler)
  const faults = new Faults()
  const idempotency = new IdempotencyStore(clock, options.idempotency)
  const limiter = options.rateLimit ? new RateLimiter(options.rateLimit, clock) : undefined
  const basePath = (options.basePath ?? '').replace(/\/+$/, '')
  const baseLatency = options.latency ?? 0
  const webhooks = options.webhooks && new WebhookSender(options.webhooks, clock)
  if (webhooks) {
    store.onMessageEvent = (type, message) =>
      webhooks.record(type, message._environmentId, message.subscriberId, message._id, Date.parse(message.updatedAt))
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url)
    const method = request.method.toUpperCase()
    if (method === 'OPTIONS') {
      return new Response(null, {
        status: 204,
        headers: {
          'Access-Control-Allow-Methods': 'GET, POST, PATCH, OPTIONS',
          'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key',
          'Access-Control-Max-Age': '600',
        },
      })
    }
    let path = url.pathname
    const inBase = !basePath || path === basePath || path.startsWith(basePath + '/')
    if (basePath && inBase) path = path.slice(basePath.length) || '/'
    const keyHeader = method === 'POST' || method === 'PATCH' ? request.headers.get('idempotency-key') : null
    const echo: Record<string, string> = keyHeader !== null ? { 'Idempotency-Key': keyHeader } : {}
    const fault = faults.take(method, path)
    let latency = baseLatency + (fault?.latency ?? 0)
    const wait = async () => {
      const ms = latency
      latency = 0
      await sleep(ms, request.signal)
    }
    if (fault && (fault.drop || fault.status !== undefined || fault.malformed || fault.body !== undefined)) {
      await wait()
      if (fault.drop) throw new TypeError('fetch failed')
      if (fault.status !== undefined)
        return json(
          fault.status,
          errorBody(fault.status, 'Injected failure', url.pathname, fault.status >= 500 ? { errorId: uuid() } : {}),
          { ...echo, ...(fault.retryAfter !== undefined ? { 'Retry-After': String(fault.retryAfter) } : {}) },
        )
      if (fault.malformed)
        return new Response('{"data": [{"_id": "', {
          status: 200,
          headers: { 'content-type': 'application/json', ...echo },
        })
      return json(200, fault.body, echo)
    }

    let extra: Record<string, string> = { ...echo }
    let claimed: { scope: string; fingerprint: string } | undefined
    try {
      const match = inBase ? matchRoute(method, path) : null
      if (!match) throw new HttpError(404, `Cannot ${method} ${url.pathname}`)
      const auth = request.headers.get('authorization')
      if (auth === null || auth.trim() === '') throw new HttpError(401, 'Missing authorization header')
      const [scheme, ...rest] = auth.trim().split(/\s+/)
      if (scheme?.toLowerCase() !== 'apikey') throw new HttpError(401, 'Invalid authentication scheme')
      const scope = store.keys.get(rest.join(' '))
      if (!scope) throw new HttpError(401, 'API Key not found')
      if (keyHeader !== null && keyHeader.length > 255)
        throw new HttpError(400, 'Idempotency-Key must be at most 255 characters')
      // Fetch trims header values, so a blank key arrives empty; one shared "" key would replay strangers' answers.
      if (keyHeader === '') throw new HttpError(400, 'Idempotency-Key must not be empty')

      let rawBody = ''
      let body: unknown
      if (method === 'POST' || method === 'PATCH') {
        body = await readJson(request, match.route.limit)
        rawBody = body === undefined ? '' : JSON.stringify(body)
      }

      if (limiter) {
        const events = (body as { events?: unknown } | undefined)?.events
        const count = path.endsWith('/trigger/bulk') && Array.isArray(events) ? events.length : 1
        // A bulk of a count that will be refused costs one token, so that its 422 names `events` instead of a 429.
        const cost = count >= 1 && count <= MAX_BULK_EVENTS ? count : 1
        const taken = limiter.take(scope.key, cost)
        extra = { ...extra, ...taken.headers }
        if (!taken.ok) throw new HttpError(429, 'Too many requests', undefined, taken.headers)
      }

      if (keyHeader !== null) {
        // With the query: the preferences PATCH answers by its `criticality`, so another query is another request.
        const fingerprint = await fingerprintOf(method, path + url.search, rawBody)
        const entry = idempotency.get(scope.key, keyHeader)
        if (entry) {
          if (entry.fingerprint !== fingerprint)
            throw new HttpError(422, 'Idempotency-Key was already used with a different request')
          if (entry.state === 'running')
            throw new HttpError(409, 'A request with this Idempotency-Key is in progress', undefined, {
              'Retry-After': '1',
            })
          await wait()
          return replay(entry.response, extra)
        }
        idempotency.start(scope.key, keyHeader, fingerprint)
        claimed = { scope: scope.key, fingerprint }
      }

      await wait()
      const result: RouteResult = match.route.handle({
        store,
        delivery,
        scope,
        env: store.env(scope.environmentId),
        params: match.params,
        query: url.searchParams,
        body,
        totalCount: options.totalCount ?? true,
      })
      const payload = options.envelope && !result.paginated ? { data: result.body } : result.body
      const stored: StoredResponse = {
        status: result.status,
        body: JSON.stringify(payload),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      }
      if (claimed && keyHeader !== null) idempotency.finish(claimed.scope, keyHeader, claimed.fingerprint, stored)
      claimed = undefined
      return new Response(stored.body, { status: stored.status, headers: { ...stored.headers, ...extra } })
    } catch (error) {
      const keep = claimed && keyHeader !== null && error instanceof HttpError && error.status < 500
      if (claimed && keyHeader !== null && !keep) idempotency.forget(claimed.scope, keyHeader)
      if (request.signal.aborted) throw error
      await wait().catch(() => undefined)
      if (error instanceof HttpError) {
        const extraBody = error.errors ? { errors: error.errors } : {}
        const body = JSON.stringify(errorBody(error.status, error.message, url.pathname, extraBody))
        const headers = { 'content-type': 'application/json; charset=utf-8', ...error.headers }
        // A refused request is a completed one: the same key answers the same refusal.
        if (keep && claimed && keyHeader !== null)
          idempotency.finish(claimed.scope, keyHeader, claimed.fingerprint, { status: error.status, body, headers })
        return new Response(body, { status: error.status, headers: { ...headers, ...extra } })
      }
      const errorId = uuid()
      console.error(`[inbox-kit service] ${errorId}`, error)
      return json(500, errorBody(500, 'Internal server error', url.pathname, { errorId }), extra)
    }
  }

  const service: Service = {
    apiKey: fixture.apiKeys[0]!.key,
    state: store,
    faults: { add: (rule) => faults.add(rule), clear: () => faults.clear() },
    settle: () => delivery.settle(),
    webhooks: {
      get delivered() {
        return webhooks?.stats.delivered ?? 0
      },
      get failed() {
        return webhooks?.stats.failed ?? 0
      },
      get dropped() {
        return webhooks?.stats.dropped ?? 0
      },
      get attempts() {
        return webhooks?.stats.attempts ?? 0
      },
      idle: () => webhooks?.idle() ?? Promise.resolve(),
    },
    async fetch(request) {
      // HEAD is answered as GET is, without the body (as the service's own framework does).
      const head = request.method.toUpperCase() === 'HEAD'
      let response = await handle(head ? new Request(request, { method: 'GET' }) : request)
      if (head) response = new Response(null, response)
      for (const [name, value] of Object.entries(CORS)) response.headers.set(name, value)
      return response
    },
  }
  internals.set(service, { store, idempotency })
  return service
}

function replay(response: StoredResponse, extra: Record<string, string>): Response {
  return new Response(response.body, {
    status: response.status,
    headers: { ...response.headers, ...extra, 'Idempotency-Replay': 'true' },
  })
}
