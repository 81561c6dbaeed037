import { BodyTooLarge, readBody } from './body'

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
   */
  authenticate: (request: Request, context: C | undefined) => string | null | undefined | Promise<string | null | undefined>
  /** Largest request body accepted, in bytes (→ 413). @default 65536 */
  maxBodyBytes?: number
  /** Path the proxy is mounted under, e.g. `/api/inbox`; the part after it is the API path. @default '' */
  basePath?: string
  /** Milliseconds to wait for the service before answering 504. @default 30000 */
  timeout?: number
  /**
   * Requests each subscriber may make per window (→ 429 with `Retry-After`), so that one signed-in user
   * cannot spend the rate limit of the API key every subscriber shares. Counted per process; `false` turns
   * it off. @default { limit: 600, windowMs: 60000 }
   */
  rateLimit?: { limit: number; windowMs: number } | false
  /** @default globalThis.fetch */
  fetch?: typeof fetch
}

/** A token bucket per subscriber: `limit` requests at once, refilled evenly over `windowMs`. */
function subscriberLimiter({ limit, windowMs }: { limit: number; windowMs: number }) {
  const buckets = new Map<string, { tokens: number; at: number }>()
  const rate = limit / windowMs
  return (subscriberId: string): number => {
    const now = Date.now()
    if (buckets.size > 10_000) {
      // Full buckets carry no information; dropping them keeps the map to the recently active.
      for (const [id, b] of buckets) if (b.tokens + (now - b.at) * rate >= limit) buckets.delete(id)
    }
    const bucket = buckets.get(subscriberId) ?? { tokens: limit, at: now }
    bucket.tokens = Math.min(limit, bucket.tokens + (now - bucket.at) * rate)
    bucket.at = now
    buckets.set(subscriberId, bucket)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return 0
    }
    return Math.ceil((1 - bucket.tokens) / rate)
  }
}

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
  { method: 'GET', segments: ['v2', 'subscribers', ':id', 'subscriptions'], query: [...CURSOR_QUERY, 'key'], body: false },
]

const REQUEST_HEADERS = ['accept', 'content-type', 'idempotency-key']
const RESPONSE_HEADERS = [
  'content-type',
  'idempotency-key',
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
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  504: 'Gateway Timeout',
}

/** An answer in the service's error shape, so the browser's client reads proxy errors like the service's. */
function errorResponse(status: number, path: string, message: string, headers: Record<string, string> = {}): Response {
  const body = { statusCode: status, timestamp: new Date().toISOString(), path, message, error: REASONS[status] }
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  })
}

/** One path segment decoded once; null when it is not valid percent-encoding. */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment)
  } catch {
    return null
  }
}

type Match = { kind: 'route'; route: Route; subscriberId: string } | { kind: 'forbidden' }

/**
 * Matches the raw path segment by segment: literal segments must be spelled exactly (no case folding,
 * no encoding, no empty or dot segments), and the id segment must decode to the caller's own id.
 */
function match(method: string, apiPath: string, subscriberId: string): Match {
  const segments = apiPath.split('/').slice(1)
  for (const route of ROUTES) {
    if (route.method !== method || route.segments.length !== segments.length) continue
    const ok = route.segments.every((expected, i) => {
      const actual = segments[i]!
      return expected === ':id' ? decodeSegment(actual) === subscriberId : actual === expected
    })
    if (ok) return { kind: 'route', route, subscriberId }
  }
  return { kind: 'forbidden' }
}

/**
 * Creates the subscriber-scoped proxy: a fetch-standard handler to mount in your server (for example
 * at `/api/inbox`) so that the browser reaches the service without ever holding the API key.
 *
 * It forwards only the subscriber-facing operations (feed, mark-as, preferences read and update, the
 * subscriber's own subscriptions), only for the id `authenticate` returns, and adds
 * `Authorization: ApiKey …` itself. No user → 401; another subscriber or any other operation → 403;
 * a body over `maxBodyBytes` → 413; more than `rateLimit` requests of one subscriber → 429; the service
 * unreachable → 502; its own errors pass through as they are.
 * Writes must be JSON (else 415) and not cross-site (`Sec-Fetch-Site`, else 403), so that a session
 * cookie cannot be ridden by another site's form.
 *
 * @example
 * const handler = createInboxProxy({
 *   upstreamUrl: process.env.INBOX_API_URL!,
 *   apiKey: process.env.INBOX_API_KEY!,
 *   basePath: '/api/inbox',
 *   authenticate: async (request) => (await getSession(request))?.userId ?? null,
 * })
 */
export function createInboxProxy<C = unknown>(
  options: InboxProxyOptions<C>,
): (request: Request, context?: C) => Promise<Response> {
  if (!options.apiKey) throw new TypeError('createInboxProxy needs the service API key.')
  const upstream = new URL(options.upstreamUrl)
  const upstreamBase = upstream.origin + upstream.pathname.replace(/\/+$/, '')
  const basePath = (options.basePath ?? '').replace(/^\/*/, '/').replace(/\/+$/, '')
  const maxBodyBytes = options.maxBodyBytes ?? 65_536
  const timeout = options.timeout ?? 30_000
  const limited = options.rateLimit === false ? () => 0 : subscriberLimiter(options.rateLimit ?? { limit: 600, windowMs: 60_000 })

  return async function inboxProxy(request: Request, context?: C): Promise<Response> {
    const url = new URL(request.url)
    const path = url.pathname

    let subscriberId: string | null | undefined
    try {
      subscriberId = await options.authenticate(request, context)
    } catch {
      return errorResponse(500, path, 'Could not check who is signed in.')
    }
    if (typeof subscriberId !== 'string' || !subscriberId) {
      return errorResponse(401, path, 'Sign in to see your notifications.')
    }

    const apiPath = path.startsWith(basePath + '/') ? path.slice(basePath.length) : null
    const found = apiPath === null ? ({ kind: 'forbidden' } as const) : match(request.method, apiPath, subscriberId)
    if (found.kind === 'forbidden') return errorResponse(403, path, 'This operation is not allowed here.')
    const { route } = found
    const wait = limited(subscriberId)
    if (wait > 0) {
      return errorResponse(429, path, 'Too many requests; try again shortly.', { 'retry-after': String(Math.ceil(wait / 1000)) })
    }

    let body: Uint8Array | null = null
    if (route.body) {
      // A write from another site (a form, a no-cors fetch riding on the session cookie) is refused: such
      // requests either say so in Sec-Fetch-Site or cannot send a JSON content type without a preflight.
      if (request.headers.get('sec-fetch-site') === 'cross-site') {
        return errorResponse(403, path, 'Cross-site requests are not allowed here.')
      }
      if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(request.headers.get('content-type') ?? '')) {
        return errorResponse(415, path, 'Send the request body as application/json.')
      }
      const declared = Number(request.headers.get('content-length') ?? 0)
      if (declared > maxBodyBytes) return errorResponse(413, path, `The request body is larger than ${maxBodyBytes} bytes.`)
      try {
        body = await readBody(request, maxBodyBytes)
      } catch (error) {
        if (error instanceof BodyTooLarge) {
          return errorResponse(413, path, `The request body is larger than ${maxBodyBytes} bytes.`)
        }
        return errorResponse(400, path, 'The request body could not be read.')
      }
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
    headers.set('authorization', `ApiKey ${options.apiKey}`)

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
      text = await response.text()
    } catch {
      return timedOut
        ? errorResponse(504, path, 'The notification service did not answer in time.')
        : errorResponse(502, path, 'Could not reach the notification service.')
    } finally {
      clearTimeout(timer)
      request.signal.removeEventListener('abort', onAbort)
    }
    // A redirect from the service would send the browser to it directly; the proxy does not relay one.
    if (response.status >= 300 && response.status < 400) {
      return errorResponse(502, path, 'The notification service answered with a redirect.')
    }
    const out = new Headers({ 'cache-control': 'no-store' })
    for (const name of RESPONSE_HEADERS) {
      const value = response.headers.get(name)
      if (value !== null) out.set(name, value)
    }
    return new Response(response.status === 204 || response.status === 205 ? null : text, { status: response.status, headers: out })
  }
}
