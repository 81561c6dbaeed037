import { encodePayloadFilter, path, queryString, randomKey } from './encoding'
import { ApiError, NetworkError, ResponseShapeError, TimeoutError } from './errors'
import { abortable, isRetryable, parseRetryAfter, retryDelay, sleep } from './retry'
import type { InboxClient, InboxClientOptions, RequestOptions, SubscriberClient } from './types'
import * as v from './validate'

/** The body itself, or what it wraps when its only key is `data` (the real service's envelope). */
const unwrap = (body: unknown): unknown =>
  // An array's keys are its indexes, so only an object can have `data` as its one key.
  body && typeof body === 'object' && Object.keys(body).join() === 'data' ? (body as { data: unknown }).data : body

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** What every operation is built on: one request with retries, timeout, headers and shape checks. */
function requester(options: InboxClientOptions) {
  // An unset option (an environment variable that is not there) is told at once, by its name.
  if (typeof options.baseUrl !== 'string') throw new TypeError(`baseUrl must be a URL; got ${String(options.baseUrl)}.`)
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const timeout = options.timeout ?? 15_000
  // Each default stands unless given a number (an option set to `undefined` keeps it).
  const given = options.retry || {}
  const retry = {
    retries: options.retry === false ? 0 : (given.retries ?? 2),
    baseDelay: given.baseDelay ?? 300,
    maxDelay: given.maxDelay ?? 5000,
  }

  /** One attempt: the response and its text, or NetworkError / TimeoutError / the abort reason. */
  async function attempt(url: string, init: RequestInit, signal: AbortSignal | undefined) {
    const controller = new AbortController()
    const timer = timeout > 0 && timeout < 2 ** 31 ? setTimeout(() => controller.abort(true), timeout) : undefined
    const onAbort = () => controller.abort(signal?.reason)
    signal?.addEventListener('abort', onAbort)
    try {
      if (signal?.aborted) throw signal.reason
      // Raced against the abort, so a fetch that ignores its signal cannot hold us up. Called as a plain
      // function: window.fetch throws "Illegal invocation" with another `this`.
      const response = await abortable(
        (options.fetch ?? fetch)(url, { ...init, signal: controller.signal }),
        controller.signal,
      )
      return [response, await abortable(response.text(), controller.signal)] as const
    } catch (error) {
      if (signal?.aborted) throw signal.reason
      // A path outside a browser (a server given the browser's `/api/inbox`) reaches nothing: said, not retried.
      if (typeof URL.canParse === 'function' && !URL.canParse(url, globalThis.location?.href))
        throw new TypeError(`baseUrl "${baseUrl}" makes no URL here: outside a browser, give a full one (https://…).`)
      // Aborted, but not by the caller (that threw its reason above): by the timer.
      throw controller.signal.aborted ? new TimeoutError(timeout) : new NetworkError(error, url)
    } finally {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    }
  }

  /**
   * `data` is the query of a GET (`path` has none: its segments are encoded) and the JSON body of a write.
   */
  return async function request<T>(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    check: v.Check,
    opts: RequestOptions = {},
    data?: object,
  ): Promise<T> {
    const read = method === 'GET'
    const json = read || data === undefined ? undefined : JSON.stringify(data)
    // One key for every attempt, so the service applies a retried write once.
    const key = read ? undefined : (opts.idempotencyKey ?? randomKey())
    const url = baseUrl + path + (read ? queryString({ ...data }) : '')
    let reauthorized = !options.getHeaders && !options.onUnauthorized
    for (let n = 0; ; n++) {
      const headers: Record<string, string> = { accept: 'application/json' }
      if (json) headers['content-type'] = 'application/json'
      if (options.apiKey) headers.authorization = `ApiKey ${options.apiKey}`
      if (key) headers['idempotency-key'] = key
      // Lower-cased so that a caller's `Authorization` replaces ours instead of sitting beside it.
      const computed = options.getHeaders && (await abortable(Promise.resolve(options.getHeaders()), opts.signal))
      for (const [name, value] of Object.entries({ ...options.headers, ...computed }))
        headers[name.toLowerCase()] = value
      let error: unknown
      try {
        const [response, text] = await attempt(url, { method, headers, body: json ?? null }, opts.signal)
        const parsed = parseJson(text)
        if (response.ok) {
          if (parsed === undefined) throw new ResponseShapeError('', 'JSON', text)
          const body = unwrap(parsed)
          check(body, '')
          return body as T
        }
        error = new ApiError(
          response.status,
          path,
          parsed === undefined ? text : unwrap(parsed),
          parseRetryAfter(response.headers.get('retry-after')),
        )
      } catch (e) {
        if (!isRetryable(e)) throw e
        error = e
      }
      // Credentials may have expired: fresh ones once, at once.
      if ((error as ApiError).status === 401 && !reauthorized) {
        reauthorized = true
        await options.onUnauthorized?.()
        n--
        continue
      }
      const wait =
        n >= retry.retries || opts.retry === false || !isRetryable(error)
          ? undefined
          : retryDelay(n, (error as Partial<ApiError>).retryAfter, retry)
      if (wait === undefined) throw error
      await sleep(wait, opts.signal)
    }
  }
}

type Request = ReturnType<typeof requester>

/** The operations of one subscriber (what the browser may do through `inbox-kit/proxy`). */
function subscriberOperations(request: Request): Omit<SubscriberClient, 'options'> {
  return {
    getFeed: (subscriberId, { payload, ...params } = {}, opts) =>
      // `payload` last, as it always was: the order of the query stays the same for caches.
      request('GET', path`/v1/subscribers/${subscriberId}/notifications/feed`, v.feedPage, opts, {
        ...params,
        payload: payload && encodePayloadFilter(payload),
      }),
    markAs: (subscriberId, body, opts) =>
      request('POST', path`/v1/subscribers/${subscriberId}/messages/mark-as`, v.messages, opts, body),
    getPreferences: (subscriberId, params, opts) =>
      request('GET', path`/v2/subscribers/${subscriberId}/preferences`, v.preferences, opts, params),
    updatePreferences: (subscriberId, body, opts) =>
      request('PATCH', path`/v2/subscribers/${subscriberId}/preferences`, v.preferences, opts, body),
    listSubscriberSubscriptions: (subscriberId, params, opts) =>
      request('GET', path`/v2/subscribers/${subscriberId}/subscriptions`, v.cursorPage, opts, params),
  }
}

/**
 * The client of one subscriber's operations only (feed, mark-as, preferences, their subscriptions):
 * what an inbox in the browser needs, without the bytes of the back-office operations.
 *
 * @example
 * const client = createSubscriberClient({ baseUrl: '/api/inbox' })
 */
export function createSubscriberClient(options: InboxClientOptions): SubscriberClient {
  return { options, ...subscriberOperations(requester(options)) }
}

/**
 * Creates the typed client of the Notification Delivery Service API: one method per operation.
 *
 * @example
 * const client = createInboxClient({ baseUrl: 'https://api.example.com', apiKey: process.env.INBOX_API_KEY })
 * const page = await client.getFeed('user-1', { read: false, limit: 20 })
 */
export function createInboxClient(options: InboxClientOptions): InboxClient {
  const request = requester(options)
  return {
    options,
    ...subscriberOperations(request),
    listTopicSubscriptions: (topicKey, params, opts) =>
      request('GET', path`/v2/topics/${topicKey}/subscriptions`, v.countedCursorPage, opts, params),
    setPrimaryIntegration: (integrationId, opts) =>
      request('POST', path`/v1/integrations/${integrationId}/set-primary`, v.primaryIntegration, opts),
    listActiveIntegrations: (opts) => request('GET', '/v1/integrations/active', v.integrations, opts),
    trigger: (body, opts) => request('POST', '/v1/events/trigger', v.trigger, opts, body),
    bulkTrigger: (body, opts) => request('POST', '/v1/events/trigger/bulk', v.bulkTrigger, opts, body),
  }
}
