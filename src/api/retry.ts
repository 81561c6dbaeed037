import { ApiError, NetworkError, TimeoutError } from './errors'
import type { RetryOptions } from './types'

/**
 * Whether another attempt may succeed where this one failed: no answer, a timeout, a 5xx, or 408
 * (timeout), 409 (idempotency key still in flight), 429 (rate limit).
 */
export const isRetryable = (error: unknown): boolean =>
  error instanceof NetworkError ||
  error instanceof TimeoutError ||
  (error instanceof ApiError && (error.status >= 500 || [408, 409, 429].includes(error.status)))

/** `Retry-After` (seconds or an HTTP date) in milliseconds; `undefined` when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  // Absent or blank: neither a number nor a date (`Date.parse('')` is NaN).
  const value = header?.trim() ?? ''
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/**
 * Wait before retry number `attempt` (0-based): exponential backoff up to `maxDelay`, half of it random (so
 * clients that failed together do not retry together), and never less than the service's `Retry-After`. A
 * `Retry-After` over `maxDelay` is not waited out: `undefined`, no retry (the error says how long to wait).
 */
export function retryDelay(
  attempt: number,
  retryAfter: number | undefined,
  options: Required<RetryOptions>,
): number | undefined {
  if (retryAfter !== undefined && retryAfter > options.maxDelay) return undefined
  const backoff = Math.min(options.maxDelay, options.baseDelay * 2 ** attempt)
  return Math.max(backoff / 2 + (Math.random() * backoff) / 2, retryAfter ?? 0)
}

/** `promise`, or a rejection with the signal's reason as soon as it aborts. */
export function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise
  return new Promise((resolve, reject) => {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the signal's reason, as fetch rejects
    const onAbort = () => reject(signal.reason)
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts (and then drops its timer). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  return abortable(new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), signal).finally(() =>
    clearTimeout(timer),
  )
}
