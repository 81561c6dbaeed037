import { Webhook } from 'standardwebhooks'
import { BodyTooLarge, readBody } from './body'
import { createMemoryBroker, eventProblems } from './events'
import type { InboxEvent, InboxEventBroker } from './events'
import { createMemoryRateLimitStore } from './rateLimit'
import { STREAM_HEADERS, createStreams, within } from './stream'
import type { RateLimitRule, RateLimitStore } from './rateLimit'
import type { ErrorBody } from '../api/types'
import { base64UrlEncode } from '../auth/tokenPayload'

/** Options of {@link createInboxProxy}; `C` is what the host passes beside the request (see `toNodeHandler`). */
export interface InboxProxyOptions<C = unknown> {
  /** The service's base address, e.g. `https://api.example.com`. */
  upstreamUrl: string
  /** The secret API key; it is added here and never reaches the browser. */
  apiKey: string
  /**
   * Who is asking: the subscriberId of the signed-in user, or null (→ 401). Read your own session
   * cookie here, or use `bearerTokenAuth(secret)` for tokens from `createSubscriberToken`. `context` is the
   * handler's second argument: `{ req, res }` under `toNodeHandler` (for `req.session`), Next.js's route context.
   * Answer `{ subscriberId, expiresAt }` (ms since the epoch) when the credential expires: an event stream
   * opened with it ends then, and the client reconnects with a fresh one. `bearerTokenAuth` does so.
   */
  authenticate: (request: Request, context: C | undefined) => AuthenticateResult | Promise<AuthenticateResult>
  /** Largest request body accepted, in bytes (→ 413). @default 65536 */
  maxBodyBytes?: number | undefined
  /** Path the proxy is mounted under, e.g. `/api/inbox`; the part after it is the API path. @default '' */
  basePath?: string | undefined
  /**
   * Milliseconds to wait for the request body (→ 408, so a client that never finishes sending does not hold
   * the request open), and then again for the service (→ 504) or the event broker (→ 503). @default 30000
   */
  timeout?: number | undefined
  /**
   * Requests each subscriber may make at once and per `windowMs` (→ 429 with `Retry-After`), so that one
   * signed-in user cannot spend the rate limit of the API key every subscriber shares. Refused requests,
   * answered before the limit is looked at (401, 403, 405), cost nothing. `store` keeps the counts: by default
   * {@link createMemoryRateLimitStore}, per process and at most 100,000 subscribers; pass a shared store to
   * hold the limit across instances. A store that fails (throws, rejects, or has not answered within 1 s) lets
   * the request through, and is told to `onError`: an outage of a shared store neither takes the inbox down with it
   * nor holds its requests (the limit guards the API key's allowance, and the service keeps its own). `false`
   * turns the limit off.
   * @default { limit: 600, windowMs: 60000, store: createMemoryRateLimitStore() }
   */
  rateLimit?: (RateLimitRule & { store?: RateLimitStore }) | false | undefined
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined
  /**
   * Told each time the proxy itself fails a request, for your logs or error reporting: the service unreachable or
   * its connection dropped (502), too slow (504) or answering with a redirect (502); `authenticate` throwing (500);
   * the event broker failing (503); the rate-limit store failing (throwing, rejecting or not answering within 1 s),
   * which lets the request go ahead without the limit: told once the request has its answer, with that answer's
   * status (the service's, say 200, or the proxy's own). `error.status` is the status the browser gets,
   * `error.message` says what failed and where (method and upstream URL, the API key redacted), `error.cause` is
   * what was thrown underneath (fetch's error, whose own `cause` holds a code such as `ECONNREFUSED`; what
   * `authenticate` or the store threw). `request` is the browser's request, its body already read.
   *
   * Called synchronously before the answer is sent; it cannot change that answer, and what it throws (or, for an
   * async function, rejects with) is ignored. Not called for the service's own errors, which are relayed as they
   * came, nor for a browser that went away before the service answered.
   *
   * @example
   * onError: (error, request) => console.error(`inbox proxy ${error.status} for ${request.url}:`, error)
   */
  onError?: ((error: Error & { status: number }, request: Request) => void) | undefined
  /** Turns on the event stream (`GET {basePath}/events`) and the ways events come in; see {@link InboxEventsOptions}. */
  events?: InboxEventsOptions | undefined
}

/** Who `authenticate` found: a subscriberId, or one with the expiry of its credential, or nobody. */
export type AuthenticateResult = string | { subscriberId: string; expiresAt?: number } | null | undefined

/**
 * The event stream and its sources. With these options the proxy serves:
 *
 * - `GET {basePath}/events`: a `text/event-stream` of the signed-in subscriber's events, authenticated like
 *   every other route (a Bearer header or the app's cookie). See the README's "Real-time" section for the wire
 *   format: `retry: <retryMs>` first; then either the events missed since `Last-Event-ID` followed by
 *   `event: ready`, or `event: reset` when they cannot all be given; then `message.created` / `message.updated`
 *   events as they happen, `id: <ms>-<n>` increasing per subscriber, `data: {"type":…,"messageIds":[…]}`, and
 *   `: heartbeat` comment lines every `heartbeatMs`.
 * - `POST {basePath}/webhooks/messages` when `webhookSecret` is set: the service's delivery webhooks, verified
 *   as Standard Webhooks (→ 401 for a bad signature, a timestamp more than 5 minutes off, a replayed
 *   `webhook-id`; 422 for a payload that is not a message event; 204 once published).
 * - `handler.notify(subscriberIds, event)` for the app's own code.
 */
export interface InboxEventsOptions {
  /**
   * The secret the service signs its webhooks with (`whsec_` and base64, as Standard Webhooks has it); several
   * while one replaces another. Without it the webhook route is not served, and only `notify` publishes.
   */
  webhookSecret?: string | readonly string[] | undefined
  /**
   * Carries events to the streams and keeps what resumes need. The default serves one process; an app with
   * several instances passes one shared by all (`createRedisBroker` from `inbox-kit/proxy/redis`).
   * @default createMemoryBroker()
   */
  broker?: InboxEventBroker | undefined
  /**
   * Milliseconds between heartbeat comments, so idle connections are not closed by proxies on the way; under
   * 80000 (the kit opens a stream again that says nothing for that long). @default 25000
   */
  heartbeatMs?: number | undefined
  /** The `retry:` hint: milliseconds a client waits before reconnecting. @default 3000 */
  retryMs?: number | undefined
  /**
   * Streams one subscriber may hold open on this instance; a new one past it closes that subscriber's oldest,
   * which is more likely a tab left behind or a connection that died without a word. @default 5
   */
  maxStreamsPerSubscriber?: number | undefined
  /** Bytes queued for a client that does not read before its stream is closed (it resumes from its last id). @default 65536 */
  maxQueuedBytes?: number | undefined
}

/** Standard Webhooks' tolerance: a timestamp further off is refused, so a webhook-id needs remembering this long each way. */
const WEBHOOK_TOLERANCE_MS = 5 * 60_000
/** Longest `webhook-id` accepted. */
const MAX_WEBHOOK_ID = 256

interface Route {
  method: string
  /** Path segments; `:id` is the subscriberId. */
  segments: readonly string[]
  /** Query parameters passed on; any other is dropped. */
  query: readonly string[]
  body: boolean
}

const CURSOR_QUERY = ['after', 'before', 'limit', 'orderDirection', 'orderBy', 'includeCursor']

/** The subscriber-facing operations; everything else (triggers, integrations, topic lists) is refused. */
const ROUTES: readonly Route[] = [
  {
    method: 'GET',
    segments: ['v1', 'subscribers', ':id', 'notifications', 'feed'],
    query: ['page', 'limit', 'read', 'seen', 'payload'],
    body: false,
  },
  { method: 'POST', segments: ['v1', 'subscribers', ':id', 'messages', 'mark-as'], query: [], body: true },
  { method: 'GET', segments: ['v2', 'subscribers', ':id', 'preferences'], query: ['criticality'], body: false },
  { method: 'PATCH', segments: ['v2', 'subscribers', ':id', 'preferences'], query: [], body: true },
  {
    method: 'GET',
    segments: ['v2', 'subscribers', ':id', 'subscriptions'],
    query: [...CURSOR_QUERY, 'key'],
    body: false,
  },
]

/** Segments of the longest route path (the event and webhook routes have fewer). */
const MAX_ROUTE_SEGMENTS = Math.max(...ROUTES.map((r) => r.segments.length))

/** `methods` and HEAD beside GET: HEAD is answered as GET is, without the body. */
const withHead = (methods: readonly string[]) =>
  [...new Set(methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])))].sort()

/** Every method some route takes; any other is answered 405 wherever it is asked. */
const METHODS = withHead(ROUTES.map((r) => r.method))

/**
 * The most of the service's error answer the proxy reads, and the most bad fields of a 422 it relays: a small
 * request with many bad items can draw an answer a hundred times its size, which the proxy would otherwise
 * read, parse and write again whole while other users wait. A larger answer is relayed as a plain error of
 * the same status.
 */
const MAX_ERROR_BYTES = 262_144
// Above the reference service's own hundred and the line it adds counting the rest.
const MAX_RELAYED_FIELDS = 200

/** The service's limit on Idempotency-Key, kept here too so a key the service would refuse is refused alike. */
const MAX_IDEMPOTENCY_KEY = 255

const REQUEST_HEADERS = ['accept', 'content-type']
const RESPONSE_HEADERS = [
  'content-type',
  'idempotency-replay',
  'retry-after',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
]

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

const reason = (status: number) => REASONS[status] ?? (status >= 500 ? 'Server Error' : 'Error')

/** The service's error shape, so the browser's client reads proxy errors like the service's. */
function errorBody(status: number, path: string, message: string): ErrorShape {
  return { statusCode: status, timestamp: new Date().toISOString(), path, message, error: reason(status) }
}

/** Every answer is what its content type says: a browser never takes a JSON body for a page or a script. */
const NO_SNIFF = { 'x-content-type-options': 'nosniff' }

/** An answer in the service's error shape. */
function errorResponse(
  status: number,
  path: string,
  message: string,
  headers: Record<string, string> = {},
  errors?: ErrorShape['errors'],
): Response {
  return new Response(JSON.stringify({ ...errorBody(status, path, message), ...(errors && { errors }) }), {
    status,
    headers: {
      ...NO_SNIFF,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    },
  })
}

/** The error shape as the service may send it: some services send `message` as a list. */
type ErrorShape = Omit<ErrorBody, 'message'> & { message: string | string[] }

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Finds and replaces every spelling of the API key in a text, whatever its case, so no relayed value carries it. */
function keyRedactor(apiKey: string) {
  const source = apiKey.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const every = new RegExp(source, 'gi')
  const any = new RegExp(source, 'i')
  return { redact: (text: string) => text.replace(every, '[redacted]'), mentions: (text: string) => any.test(text) }
}

/** A JSON value rebuilt with every string (keys too) redacted; values nested deeper than `depth` become null. */
function redactValue(value: unknown, redact: (text: string) => string, depth: number): unknown {
  if (typeof value === 'string') return redact(value)
  if (value === null || typeof value !== 'object') return value
  if (depth <= 0) return null
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redact, depth - 1))
  // No prototype, so that a key named `__proto__` stays a key.
  const out = Object.create(null) as Record<string, unknown>
  for (const [k, v] of Object.entries(value)) out[redact(k)] = redactValue(v, redact, depth - 1)
  return out
}

/**
 * The service's error answer cut down to the fields of the error shape, each of its type and redacted; a body
 * that is not the error shape at all gets a plain one with the same status.
 */
function relayedError(status: number, text: string, path: string, redact: (text: string) => string): ErrorShape {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  const source = isObject(parsed) ? parsed : {}
  const str = (value: unknown) => (typeof value === 'string' ? redact(value) : undefined)
  const message =
    Array.isArray(source.message) && source.message.every((m) => typeof m === 'string')
      ? source.message.map(redact)
      : str(source.message)
  const body: ErrorShape = {
    statusCode: status,
    timestamp: str(source.timestamp) ?? new Date().toISOString(),
    // The browser's path: the service's own says where the proxy forwards to.
    path,
    message: message ?? `The notification service answered ${status}.`,
    error: str(source.error) ?? reason(status),
  }
  if (isObject(source.errors)) {
    const errors = Object.create(null) as NonNullable<ErrorShape['errors']>
    let relayed = 0
    for (const [field, entry] of Object.entries(source.errors)) {
      if (!isObject(entry) || !Array.isArray(entry.messages)) continue
      if (relayed++ === MAX_RELAYED_FIELDS) break
      const messages = entry.messages.filter((m): m is string => typeof m === 'string').map(redact)
      errors[redact(field)] =
        'value' in entry ? { messages, value: redactValue(entry.value, redact, 32) } : { messages }
    }
    body.errors = errors
  }
  const errorId = str(source.errorId)
  if (errorId !== undefined) body.errorId = errorId
  return body
}

/**
 * The key the service sees for a subscriber's Idempotency-Key: a digest of both, so that subscribers sharing
 * one API key never share a key space (one could neither collide with nor probe another's keys), in 49
 * characters whatever the length of the key the browser chose.
 */
async function scopedIdempotencyKey(subscriberId: string, key: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify([subscriberId, key])))
  return 'inbox-' + base64UrlEncode(new Uint8Array(digest))
}

/** One path segment decoded once; null when it is not valid percent-encoding. */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment)
  } catch {
    return null
  }
}

/** Whether `segments` are those of `route`: literal segments spelled exactly, the id segment anything. */
function shaped(route: Route, segments: readonly string[]): boolean {
  return route.segments.length === segments.length && route.segments.every((s, i) => s === ':id' || s === segments[i])
}

/** The methods the routes of `apiPath` take (HEAD beside GET); empty when no route has its shape. */
function routeMethods(apiPath: string): string[] {
  const segments = apiPath.split('/').slice(1)
  return withHead(ROUTES.filter((route) => shaped(route, segments)).map((route) => route.method))
}

type Match =
  | { kind: 'route'; route: Route; subscriberId: string }
  /** The operation is forwarded, but the path names another subscriber (or no readable id at all). */
  | { kind: 'not-yours' }
  /** Nothing is forwarded for this method and path. */
  | { kind: 'not-forwarded' }

/**
 * Matches the raw path segment by segment: literal segments must be spelled exactly (no case folding,
 * no encoding, no empty or dot segments), and the id segment must decode to the caller's own id.
 */
function match(method: string, apiPath: string, subscriberId: string): Match {
  const segments = apiPath.split('/').slice(1)
  const route = ROUTES.find((r) => r.method === method && shaped(r, segments))
  if (!route) return { kind: 'not-forwarded' }
  const at = route.segments.indexOf(':id')
  if (at >= 0 && decodeSegment(segments[at]!) !== subscriberId) return { kind: 'not-yours' }
  return { kind: 'route', route, subscriberId }
}

/** The handler {@link createInboxProxy} returns: fetch-standard, plus the methods it takes. */
export interface InboxProxyHandler<C = unknown> {
  (request: Request, context?: C): Promise<Response>
  /**
   * The methods some route of the proxy takes (`GET`, `HEAD`, `PATCH`, `POST`; HEAD is answered as GET,
   * without the body); any other is answered 405 wherever it is asked.
   */
  readonly methods: readonly string[]
  /**
   * The methods the proxy takes at `path` (a request's pathname, base path included), as `Allow` names them
   * when it answers 405 there: `['GET', 'HEAD']` for the feed, `['POST']` for mark-as, none where it
   * forwards nothing. `toNodeHandler` reads it to answer the methods a fetch `Request` cannot carry (`TRACE`).
   */
  allowedMethods(path: string): readonly string[]
  /**
   * Publishes an event to the streams of `subscriberIds`, on every instance the broker reaches: for apps that
   * know of a change first (they triggered it). Without `event`, `{ type: 'message.created', messageIds: [] }`:
   * something new, refetch. Rejects with a TypeError for bad arguments or when `events` is not configured, and
   * with the broker's error when it fails.
   *
   * @example await inboxProxy.notify([user.id], { type: 'message.updated', messageIds: [messageId] })
   */
  notify(subscriberIds: readonly string[], event?: InboxEvent): Promise<void>
  /** Ends every event stream open on this instance (say before the server shuts down); clients reconnect. */
  closeStreams(): void
}

/**
 * Creates the subscriber-scoped proxy: a fetch-standard handler to mount in your server (for example
 * at `/api/inbox`) so that the browser reaches the service without ever holding the API key.
 *
 * It forwards only the subscriber-facing operations (feed, mark-as, preferences read and update, the
 * subscriber's own subscriptions), only for the id `authenticate` returns, and adds
 * `Authorization: ApiKey …` itself. HEAD is answered as GET, without the body. A method the path does not
 * take → 405 with `Allow` naming those it does (none on a path it forwards nothing for); no user → 401;
 * another subscriber's id → 403 naming `subscriberId`, in the same words whoever it names; any other
 * operation → 403 naming the method and path it does not forward; a body over `maxBodyBytes` → 413, or not
 * sent within `timeout` → 408; an Idempotency-Key empty or over 255 characters → 400; more than `rateLimit`
 * requests of one subscriber → 429; the service unreachable → 502, too slow → 504, refusing the proxy's own
 * API key (its 401 or 403) → 502 (all three told to `onError`, with the proxy's other failures of its own).
 * Writes must be JSON (else 415), and no request may come from another site (`Sec-Fetch-Site: cross-site`,
 * else 403), so that a session cookie cannot be ridden by another site's form, image or script.
 *
 * The service's own errors keep their status, with only the fields of the error shape (statusCode,
 * timestamp, path, message, error, errors, errorId) relayed: at most 200 of `errors`' fields, and an error
 * answer over 256 KiB as a plain error of its status (a small request can draw a 422 listing thousands of bad
 * items, which would hold the proxy up for other users). The API key is redacted from everything relayed,
 * headers included. Idempotency keys are scoped per subscriber: the service sees a digest of subscriber and
 * key, the browser its own key.
 *
 * With `events` options it also serves the subscriber's event stream (`GET {basePath}/events`) and the service's
 * delivery webhooks (`POST {basePath}/webhooks/messages`), and `notify` publishes; see {@link InboxEventsOptions}.
 *
 * @example
 * const handler = createInboxProxy({
 *   upstreamUrl: process.env.INBOX_API_URL!,
 *   apiKey: process.env.INBOX_API_KEY!,
 *   basePath: '/api/inbox',
 *   authenticate: async (request) => (await getSession(request))?.userId ?? null,
 * })
 */
export function createInboxProxy<C = unknown>(options: InboxProxyOptions<C>): InboxProxyHandler<C> {
  if (!options.apiKey) throw new TypeError('createInboxProxy needs the service API key.')
  let upstream: URL
  try {
    upstream = new URL(options.upstreamUrl)
    if (!/^https?:$/.test(upstream.protocol)) throw new TypeError()
  } catch {
    throw new TypeError(
      `createInboxProxy needs upstreamUrl, the service's absolute http(s) address (such as https://api.example.com); got ${JSON.stringify(options.upstreamUrl)}.`,
    )
  }
  const upstreamBase = upstream.origin + upstream.pathname.replace(/\/+$/, '')
  const basePath = (options.basePath ?? '').replace(/^\/*/, '/').replace(/\/+$/, '')
  const maxBodyBytes = options.maxBodyBytes ?? 65_536
  const timeout = options.timeout ?? 30_000
  const { redact, mentions } = keyRedactor(options.apiKey)
  const rateLimit = options.rateLimit === false ? null : (options.rateLimit ?? { limit: 600, windowMs: 60_000 })
  if (
    rateLimit &&
    !(rateLimit.limit >= 1 && rateLimit.windowMs > 0 && Number.isFinite(rateLimit.limit / rateLimit.windowMs))
  ) {
    throw new RangeError('rateLimit needs a limit of at least 1 and a positive windowMs.')
  }
  const rule: RateLimitRule | null = rateLimit && { limit: rateLimit.limit, windowMs: rateLimit.windowMs }
  const store = rateLimit && (rateLimit.store ?? createMemoryRateLimitStore())

  /** Longest wait for the rate-limit store's verdict; a store slower than that lets the request through. */
  const storeTimeout = Math.min(timeout, 1_000)
  /**
   * Milliseconds the subscriber must wait, or 0 to go ahead; 0 too when the store fails or is slow (fail open),
   * and then `failed` has what went wrong.
   */
  async function limited(subscriberId: string, failed: (error: unknown) => unknown): Promise<number> {
    if (!store || !rule) return 0
    try {
      const taken = store.take(subscriberId, 1, Date.now(), rule)
      // A remote store that does not answer (its server down, a client queueing commands until it is back) must
      // not hold every request: past the bound the request goes ahead, as when the store fails.
      const verdict = 'then' in taken ? await within(Promise.resolve(taken), storeTimeout) : taken
      return verdict.ok ? 0 : Math.max(1, verdict.retryAfterMs)
    } catch (error) {
      failed(error)
      return 0
    }
  }

  const events = options.events && eventsSetup(options.events, timeout)

  /**
   * `onError` told of a failure of the proxy's own; `message` says what failed, the messages of `cause`'s chain
   * are added to it. Whatever the callback throws or rejects with is dropped: the answer goes out as it would.
   */
  function report(request: Request, status: number, message: string, cause?: unknown) {
    if (!options.onError) return
    const causes: string[] = []
    for (let c = cause, n = 0; c instanceof Error && n < 5; c = c.cause, n++) causes.push(c.message)
    const text = redact(causes.length ? `${message}: ${causes.join(': ')}` : message)
    try {
      const returned: unknown = options.onError(
        Object.assign(new Error(text, cause === undefined ? {} : { cause }), { status }),
        request,
      )
      if (returned instanceof Promise) returned.catch(() => {})
    } catch {
      // The app's logging failed; the browser still gets its answer.
    }
  }

  /** Reads a body within `maxBodyBytes` and `timeout`, or answers why not. */
  async function bodyOf(request: Request, path: string): Promise<Uint8Array | null | Response> {
    const declared = Number(request.headers.get('content-length') ?? 0)
    if (declared > maxBodyBytes)
      return errorResponse(413, path, `The request body is larger than ${maxBodyBytes} bytes.`)
    const reading = AbortSignal.timeout(timeout)
    try {
      return await readBody(request, maxBodyBytes, reading)
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        return errorResponse(413, path, `The request body is larger than ${maxBodyBytes} bytes.`)
      }
      if (reading.aborted) return errorResponse(408, path, 'The request body did not arrive in time.')
      return errorResponse(400, path, 'The request body could not be read.')
    }
  }

  /** A delivery webhook of the service: verified, then published; nothing changes unless it is answered 204. */
  async function receiveWebhook(
    request: Request,
    path: string,
    setup: EventsSetup,
    context: unknown,
  ): Promise<Response> {
    const bytes = await bodyOf(request, path)
    if (bytes instanceof Response) return bytes
    const text = bytes ? new TextDecoder().decode(bytes) : ''
    const headers = {
      'webhook-id': request.headers.get('webhook-id') ?? '',
      'webhook-timestamp': request.headers.get('webhook-timestamp') ?? '',
      'webhook-signature': request.headers.get('webhook-signature') ?? '',
    }
    const id = headers['webhook-id']
    if (id.length > MAX_WEBHOOK_ID)
      return errorResponse(401, path, `webhook-id is longer than ${MAX_WEBHOOK_ID} characters.`)
    let problem = 'No webhook secret is set.'
    if (
      !setup.verifiers.some((verifier) => {
        try {
          verifier.verify(text, headers, { jsonParse: false })
          return true
        } catch (error) {
          problem = error instanceof Error ? error.message : String(error)
          return false
        }
      })
    ) {
      const hint = parsedBefore(context)
        ? ' A body parser (such as express.json()) read the body before the proxy, which got it re-serialized:' +
          ' a webhook is signed over the bytes the service sent, so mount the proxy before any body parser.'
        : ''
      return errorResponse(401, path, `The webhook could not be verified: ${problem}.${hint}`)
    }
    let payload: unknown
    try {
      payload = JSON.parse(text)
    } catch {
      return errorResponse(400, path, 'The webhook body is not JSON.')
    }
    const message = webhookMessage(payload)
    if (message === 'other') return new Response(null, { status: 204 })
    if ('errors' in message) return errorResponse(422, path, 'Validation Error', {}, message.errors)
    const key = `webhook:${id}`
    try {
      if (!(await within(setup.broker.claim(key, 2 * WEBHOOK_TOLERANCE_MS), timeout))) {
        return errorResponse(401, path, `The webhook ${id} was already received: a webhook-id counts once.`)
      }
    } catch (error) {
      report(request, 503, `The event broker failed to record webhook ${id}`, error)
      return errorResponse(503, path, 'Could not reach the event broker.', { 'retry-after': '5' })
    }
    try {
      await within(setup.broker.publish([message.subscriberId], message.event), timeout)
    } catch (error) {
      report(request, 503, `The event broker failed to publish webhook ${id}`, error)
      await within(setup.broker.release(key), timeout).catch(() => {})
      return errorResponse(503, path, 'Could not reach the event broker.', { 'retry-after': '5' })
    }
    return new Response(null, { status: 204 })
  }

  async function inboxProxy(request: Request, context?: C): Promise<Response> {
    // A rate-limit store that failed let the request go ahead: told with the status the request then got.
    const storeFailures: unknown[] = []
    const response = await respond(request, context, (error) => storeFailures.push(error))
    if (storeFailures.length)
      report(
        request,
        response.status,
        'The rate-limit store failed; the request went ahead unlimited',
        storeFailures[0],
      )
    return response
  }

  /** The answer to `request`; `storeFailed` hears of a rate-limit store that failed, the request going ahead. */
  async function respond(
    request: Request,
    context: C | undefined,
    storeFailed: (error: unknown) => unknown,
  ): Promise<Response> {
    const url = new URL(request.url)
    const path = url.pathname
    // A method the path does not take is refused before anything else: what a path takes is no secret. On a
    // path no route has, a method some route takes goes on, to be refused (403) once the caller is known.
    const allowed = allowedMethods(path)
    if (!(allowed.length > 0 ? allowed : METHODS).includes(request.method)) {
      const message =
        allowed.length > 0
          ? `The method ${request.method} is not allowed on ${path}: it takes ${allowed.join(', ')}.`
          : `The method ${request.method} is not allowed here: the proxy forwards nothing at ${path}.`
      return errorResponse(405, path, message, { allow: allowed.join(', ') })
    }
    if (request.method === 'POST' && path === basePath + '/webhooks/messages') {
      if (events?.verifiers.length) return receiveWebhook(request, path, events, context)
      // The service's webhook, sent to a proxy not set up for it (an unset secret in the environment, say): a
      // "sign in" 401 would point the wrong way. Nothing is secret in what is missing.
      return errorResponse(
        404,
        path,
        `The webhook route is off: the proxy was created without ${events ? 'events.webhookSecret' : 'events'}.`,
      )
    }

    let auth: AuthenticateResult
    try {
      auth = await options.authenticate(request, context)
    } catch (error) {
      report(request, 500, 'authenticate threw', error)
      return errorResponse(500, path, 'Could not check who is signed in.')
    }
    const who = typeof auth === 'string' ? { subscriberId: auth } : auth
    const subscriberId = who && typeof who === 'object' ? who.subscriberId : undefined
    if (typeof subscriberId !== 'string' || !subscriberId) {
      return errorResponse(401, path, 'Sign in to see your notifications.' + basePathHint(path))
    }
    const expiresAt = typeof who?.expiresAt === 'number' && !Number.isNaN(who.expiresAt) ? who.expiresAt : undefined

    // Another site's page (a form, an image, a no-cors fetch riding on the session cookie) can read no answer,
    // since the proxy sends no CORS headers, but its requests would still change things, spend the subscriber's
    // rate limit and the API key's, and open streams that push out the subscriber's own: all are refused.
    if (request.headers.get('sec-fetch-site') === 'cross-site') {
      return errorResponse(403, path, 'Cross-site requests are not allowed here.')
    }

    // GET or HEAD: any other method was answered 405 above.
    if (path === basePath + '/events') {
      // No events here: "no content" tells the kit to poll, without a failed request in the browser's console.
      if (!events) return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } })
      const wait = await limited(subscriberId, storeFailed)
      if (wait > 0) {
        return errorResponse(429, path, 'Too many requests; try again shortly.', {
          'retry-after': String(Math.ceil(wait / 1000)),
        })
      }
      // The headers a stream starts with, without opening one: that would close the subscriber's oldest.
      if (request.method === 'HEAD') return new Response(null, { status: 200, headers: STREAM_HEADERS })
      try {
        return await events.streams.start(request, subscriberId, expiresAt)
      } catch (error) {
        report(request, 503, 'The event broker failed to start an event stream', error)
        return errorResponse(503, path, 'Could not reach the event broker.', { 'retry-after': '5' })
      }
    }

    const apiPath = path.startsWith(basePath + '/') ? path.slice(basePath.length) : null
    // HEAD goes on as GET; `answer` drops the body.
    const method = request.method === 'HEAD' ? 'GET' : request.method
    const found = apiPath === null ? ({ kind: 'not-forwarded' } as const) : match(method, apiPath, subscriberId)
    // The same words whoever the id names, and before the service is asked: nothing about other subscribers.
    if (found.kind === 'not-yours') {
      return errorResponse(
        403,
        path,
        "The subscriberId in the path is not the signed-in subscriber's: the proxy serves only their own " +
          'notifications, preferences and subscriptions.',
      )
    }
    if (found.kind === 'not-forwarded') {
      return errorResponse(
        403,
        path,
        `The proxy does not forward ${request.method} ${path}: it serves only the signed-in subscriber's ` +
          'feed, mark-as, preferences and subscriptions.' +
          basePathHint(path),
      )
    }
    const { route } = found
    const wait = await limited(subscriberId, storeFailed)
    if (wait > 0) {
      return errorResponse(429, path, 'Too many requests; try again shortly.', {
        'retry-after': String(Math.ceil(wait / 1000)),
      })
    }

    let body: Uint8Array | null = null
    let idempotencyKey: string | null = null
    if (route.body) {
      // A write from another site that does not say so in Sec-Fetch-Site (refused above) cannot send a JSON
      // content type without a preflight, which the proxy refuses.
      if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(request.headers.get('content-type') ?? '')) {
        return errorResponse(415, path, 'Send the request body as application/json.')
      }
      idempotencyKey = request.headers.get('idempotency-key')
      // Blank, scoped to the subscriber it would be a key all their blank-keyed writes share.
      if (idempotencyKey !== null && !idempotencyKey.trim()) {
        return errorResponse(400, path, 'Idempotency-Key must not be empty.')
      }
      if (idempotencyKey !== null && idempotencyKey.length > MAX_IDEMPOTENCY_KEY) {
        return errorResponse(400, path, `Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY} characters.`)
      }
      const read = await bodyOf(request, path)
      if (read instanceof Response) return read
      body = read
    }

    // Rebuilt from the route and the verified id, so nothing the browser spelled reaches the service unchecked.
    const target = new URL(
      upstreamBase +
        '/' +
        route.segments.map((s) => (s === ':id' ? encodeURIComponent(found.subscriberId) : s)).join('/'),
    )
    for (const name of route.query) {
      for (const value of url.searchParams.getAll(name)) target.searchParams.append(name, value)
    }
    const headers = new Headers()
    for (const name of REQUEST_HEADERS) {
      const value = request.headers.get(name)
      if (value !== null) headers.set(name, value)
    }
    if (idempotencyKey !== null)
      headers.set('idempotency-key', await scopedIdempotencyKey(subscriberId, idempotencyKey))
    headers.set('authorization', `ApiKey ${options.apiKey}`)

    // A browser that gave up while the proxy authenticated it or read its body: nothing to relay, and a write
    // relayed now would hold its key at the service while the browser's retry of it comes.
    if (request.signal.aborted) return errorResponse(502, path, 'Could not reach the notification service.')
    const controller = new AbortController()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, timeout)
    const onAbort = () => controller.abort()
    request.signal.addEventListener('abort', onAbort)
    let response: Response
    let text: string
    try {
      const doFetch = options.fetch ?? globalThis.fetch
      response = await doFetch(target, {
        method: route.method,
        headers,
        body: body as BodyInit | null,
        redirect: 'manual',
        signal: controller.signal,
      })
      text =
        response.status < 400
          ? await response.text()
          : await readBody(response, MAX_ERROR_BYTES).then(
              (bytes) => (bytes ? new TextDecoder().decode(bytes) : ''),
              (error: unknown) => {
                if (error instanceof BodyTooLarge) return ''
                throw error
              },
            )
    } catch (error) {
      if (timedOut) {
        report(
          request,
          504,
          `The notification service did not answer ${route.method} ${target.href} within ${timeout} ms`,
        )
        return errorResponse(504, path, 'The notification service did not answer in time.')
      }
      // A browser that went away aborted the request itself: nothing failed on this side.
      if (!request.signal.aborted)
        report(request, 502, `Could not reach the notification service for ${route.method} ${target.href}`, error)
      return errorResponse(502, path, 'Could not reach the notification service.')
    } finally {
      clearTimeout(timer)
      request.signal.removeEventListener('abort', onAbort)
    }
    // A redirect from the service would send the browser to it directly; the proxy does not relay one.
    if (response.status >= 300 && response.status < 400) {
      report(
        request,
        502,
        `The notification service answered ${route.method} ${target.href} with a redirect (${response.status} to ${response.headers.get('location') ?? 'nowhere'})`,
      )
      return errorResponse(502, path, 'The notification service answered with a redirect.')
    }
    // The browser's token was checked above; the service refusing the request is the proxy's own key refused
    // (revoked, rotated, another environment's). Relayed as it is, every user would look signed out.
    if (response.status === 401 || response.status === 403) {
      report(
        request,
        502,
        `The notification service refused the proxy's API key (${response.status} to ${route.method} ${target.href}): ${String(relayedError(response.status, text, path, redact).message).slice(0, 200)}`,
      )
      return errorResponse(502, path, 'The notification service refused the request of the proxy.')
    }
    const out = new Headers({ ...NO_SNIFF, 'cache-control': 'no-store' })
    for (const name of RESPONSE_HEADERS) {
      const value = response.headers.get(name)
      if (value !== null) out.set(name, redact(value))
    }
    if (idempotencyKey !== null && response.headers.has('idempotency-key')) out.set('idempotency-key', idempotencyKey)
    if (response.status === 204 || response.status === 205)
      return new Response(null, { status: response.status, headers: out })
    if (response.status >= 400) {
      out.set('content-type', 'application/json; charset=utf-8')
      return new Response(JSON.stringify(relayedError(response.status, text, path, redact)), {
        status: response.status,
        headers: out,
      })
    }
    // Escapes could spell the key in a way a plain search misses; such bodies are read as JSON first.
    if (mentions(text) || text.includes('\\')) text = redactBody(text, redact)
    return new Response(text, { status: response.status, headers: out })
  }

  /**
   * When `path` is one of the proxy's routes under another prefix than `basePath` (mounted at `/api/inbox`
   * with no `basePath`, say), a sentence naming the `basePath` to set; else nothing.
   */
  function basePathHint(path: string): string {
    // Under a basePath that is set, the proxy is mounted there: the path names no route of its, and that is all.
    if (basePath && path.startsWith(basePath + '/')) return ''
    // Only the last few segments can name a route. Trying every prefix would cost a path of thousands of
    // segments, which anyone may send signed out, seconds of work.
    const segments = path.split('/')
    for (let n = Math.min(MAX_ROUTE_SEGMENTS, segments.length - 2); n >= 1; n--) {
      const prefix = segments.slice(0, segments.length - n).join('/')
      const rest = path.slice(prefix.length)
      if (prefix !== basePath && (rest === '/events' || allowedMethods(basePath + rest).length > 0)) {
        return ` The proxy's basePath is '${basePath}': if it is mounted at ${prefix}, set basePath: '${prefix}'.`
      }
    }
    return ''
  }

  /** The methods the proxy takes at `path`; none where it forwards nothing. */
  function allowedMethods(path: string): string[] {
    if (path === basePath + '/events') return ['GET', 'HEAD']
    if (events?.verifiers.length && path === basePath + '/webhooks/messages') return ['POST']
    return path.startsWith(basePath + '/') ? routeMethods(path.slice(basePath.length)) : []
  }

  /** The proxy's answer; to HEAD, the answer GET would get, without its body. */
  async function answer(request: Request, context?: C): Promise<Response> {
    const response = await inboxProxy(request, context)
    if (request.method !== 'HEAD' || response.body === null) return response
    await response.body.cancel().catch(() => {})
    return new Response(null, response)
  }

  async function notify(
    subscriberIds: readonly string[],
    event: InboxEvent = { type: 'message.created', messageIds: [] },
  ) {
    if (!events) throw new TypeError('notify needs the proxy to be created with `events` options.')
    if (!Array.isArray(subscriberIds) || !subscriberIds.every((id) => typeof id === 'string' && id !== '')) {
      throw new TypeError('notify needs an array of subscriberIds (non-empty strings).')
    }
    const problems = eventProblems(event)
    if (problems) {
      throw new TypeError(
        `notify: ${Object.entries(problems)
          .map(([field, problem]) => `${field} ${problem}`)
          .join('; ')}.`,
      )
    }
    if (subscriberIds.length)
      await events.broker.publish(subscriberIds, { type: event.type, messageIds: [...event.messageIds] })
  }

  return Object.assign(answer, {
    methods: METHODS,
    allowedMethods,
    notify,
    closeStreams: () => events?.streams.closeAll(),
  })
}

type EventsSetup = ReturnType<typeof eventsSetup>

function eventsSetup(options: InboxEventsOptions, timeout: number) {
  // Named but empty: an environment variable that is not there. Served anyway, the stream would carry nothing
  // from the service, and the browser would look for news once a minute instead of every 10 s.
  // Several while one replaces another: one of them may be unset by then.
  const secrets = [options.webhookSecret ?? []].flat().filter((secret): secret is string => !!secret)
  if ('webhookSecret' in options && !secrets.length)
    throw new TypeError(
      'events.webhookSecret is empty (an environment variable that is not set?). Leave it out to publish with notify() alone.',
    )
  const verifiers = secrets.map((secret) => {
    try {
      return new Webhook(secret)
    } catch {
      throw new TypeError('events.webhookSecret must be a Standard Webhooks secret: whsec_ followed by base64.')
    }
  })
  const count = (value: number | undefined, fallback: number, name: string) => {
    const n = value ?? fallback
    if (!(Number.isFinite(n) && n >= 1)) throw new RangeError(`events.${name} must be a number of at least 1.`)
    return n
  }
  const broker = options.broker ?? createMemoryBroker()
  const streams = createStreams({
    broker,
    heartbeatMs: count(options.heartbeatMs, 25_000, 'heartbeatMs'),
    retryMs: Math.round(count(options.retryMs, 3_000, 'retryMs')),
    maxStreamsPerSubscriber: count(options.maxStreamsPerSubscriber, 5, 'maxStreamsPerSubscriber'),
    maxQueuedBytes: count(options.maxQueuedBytes, 65_536, 'maxQueuedBytes'),
    timeout,
  })
  return { verifiers, broker, streams }
}

/**
 * The message event a webhook payload carries (`{type, timestamp, data: {subscriberId, messageIds}}`), its
 * problems by field, or 'other' for a type the stream does not carry.
 */
function webhookMessage(
  payload: unknown,
): { subscriberId: string; event: InboxEvent } | { errors: NonNullable<ErrorShape['errors']> } | 'other' {
  if (!isObject(payload)) return { errors: { body: { messages: ['must be a JSON object'] } } }
  if (typeof payload.type !== 'string')
    return { errors: { type: { messages: ['must be a string'], value: payload.type } } }
  if (payload.type !== 'message.created' && payload.type !== 'message.updated') return 'other'
  const data = isObject(payload.data) ? payload.data : {}
  const errors: NonNullable<ErrorShape['errors']> = {}
  if (!isObject(payload.data)) errors.data = { messages: ['must be an object'] }
  const { subscriberId, messageIds } = data
  if (typeof subscriberId !== 'string' || !subscriberId || subscriberId.length > 4096) {
    errors['data.subscriberId'] = { messages: ['must be a non-empty string'], value: subscriberId ?? null }
  }
  const problems = eventProblems({ type: payload.type, messageIds })
  if (problems?.messageIds) errors['data.messageIds'] = { messages: [problems.messageIds] }
  if (Object.keys(errors).length) return { errors }
  return {
    subscriberId: subscriberId as string,
    event: { type: payload.type, messageIds: [...(messageIds as string[])] },
  }
}

/**
 * Whether a Node body parser read the request before the proxy (`toNodeHandler`'s context): the body then comes
 * re-serialized from what the parser made of it, not as sent.
 */
function parsedBefore(context: unknown): boolean {
  const req = isObject(context) && isObject(context.req) ? context.req : undefined
  const body = req?.body
  return (
    typeof body === 'object' &&
    body !== null &&
    !(body instanceof Uint8Array) &&
    (req?.readableEnded === true || req?.complete === true)
  )
}

/** A success body with the API key redacted: as JSON when it is JSON, as text otherwise. */
function redactBody(text: string, redact: (text: string) => string): string {
  try {
    return JSON.stringify(redactValue(JSON.parse(text), redact, Infinity))
  } catch {
    return redact(text)
  }
}
