import type { ErrorBody } from './types'

/** Messages of a 422 by field path, e.g. `{ limit: ['limit must not be greater than 100'] }`. */
export type FieldErrors = Record<string, string[]>

/**
 * Base class of every error the client throws. An aborted call rejects with the signal's reason
 * instead (an `AbortError`), which is not an `InboxError`.
 */
export class InboxError extends Error {
  override name = 'InboxError'
  // Not shaped like any Error: `isInboxError` leaves the others, in its `else`, as what they were.
  declare private readonly inboxError: true
}

/** The service answered with a status outside 2xx; `message` is the service's own. */
export class ApiError extends InboxError {
  override name = 'ApiError'
  /** A 422's bad fields by path; empty otherwise. */
  readonly fieldErrors: FieldErrors = {}
  /** The `errorId` of a 500, for support. */
  readonly errorId: string | undefined

  constructor(
    /** HTTP status, e.g. 401, 404, 422, 500. */
    readonly status: number,
    /** Path of the failed request below `baseUrl`, without the query, e.g. `/v1/integrations/active`. */
    readonly path: string,
    /** The error body as the service sent it (parsed JSON, else text). */
    readonly body: unknown,
    /** How long the service asked to wait before retrying (`Retry-After`), in milliseconds. */
    readonly retryAfter?: number,
  ) {
    const b = (body && typeof body === 'object' ? body : {}) as Partial<ErrorBody>
    const m: unknown = Array.isArray(b.message) ? b.message.join('; ') : b.message
    super(
      (typeof m === 'string' && m) ||
        // A short text, not a page of markup (a web server's or proxy's own 404 page).
        (typeof body === 'string' && body.length < 200 && !/<[a-z!/]/i.test(body) && body) ||
        `Request failed with status ${status}`,
    )
    this.errorId = typeof b.errorId === 'string' ? b.errorId : undefined
    for (const [field, e] of Object.entries(b.errors ?? {})) {
      const messages = (e as { messages?: unknown } | null)?.messages
      // Defined, not assigned: a field named `__proto__` is a field like any other.
      Object.defineProperty(this.fieldErrors, field, {
        value: Array.isArray(messages) ? messages.map(String) : [],
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
  }
}

/** The request never got an answer: offline, DNS, CORS, a dropped connection. */
export class NetworkError extends InboxError {
  override name = 'NetworkError'
  /** @param url Where the request went: its origin goes into the message, for a log line to show a wrong `baseUrl`. */
  constructor(cause: unknown, url?: string) {
    let at = ''
    try {
      if (url) at = ' at ' + new URL(url, globalThis.location?.href).origin
    } catch {
      // No URL to name.
    }
    super(`Could not reach the notification service${at}.`, { cause })
  }
}

/** One attempt took longer than the client's `timeout`. */
export class TimeoutError extends InboxError {
  override name = 'TimeoutError'
  constructor(
    /** The timeout that ran out, in milliseconds. */
    readonly timeout: number,
  ) {
    super(`The notification service did not answer within ${timeout / 1000} s.`)
  }
}

/** A 2xx response whose body is not JSON or not of the shape the API gives. */
export class ResponseShapeError extends InboxError {
  override name = 'ResponseShapeError'
  /** What came instead, shortened JSON, e.g. `"yes"`. */
  readonly received: string

  constructor(
    /** Path of the first bad field, e.g. `data[3].read`; empty for the body itself. */
    readonly field: string,
    /** What the field should have been, e.g. `boolean`. */
    readonly expected: string,
    value: unknown,
  ) {
    let received: string | undefined
    try {
      // `undefined` for what JSON has no word for (undefined itself, a function, a symbol).
      received = JSON.stringify(value)
    } catch {
      // A cycle, a BigInt.
    }
    received ??= String(value)
    if (received.length > 40) received = `${received.slice(0, 37)}...`
    super(
      `The notification service sent an unexpected response (${field || 'body'}: expected ${expected}, got ${received}).`,
    )
    this.received = received
  }
}

/** Whether `e` is one of the client's errors (and not, for example, an abort). */
export const isInboxError = (e: unknown): e is InboxError => e instanceof InboxError
