import { ApiError, NetworkError, TimeoutError } from './errors'
import type { RetryOptions } from './types'

/** Statuses worth another attempt: timeout, idempotency conflict (still in flight), rate limit. */
const RETRY_STATUSES = [408, 409, 429]

/** Whether another attempt may succeed where this one failed. */
export function isRetryable(error: unknown): boolean {
  return (
    error instanceof NetworkError ||
    error instanceof TimeoutError ||
    (error instanceof ApiError && (error.status >= 500 || RETRY_STATUSES.includes(error.status)))
  )
}

/** `Retry-After` (delay in seconds or an HTTP date) in milliseconds; `undefined` when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined
  const value = header.trim()
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/**
 * Wait before retry number `attempt` (0-based): exponential backoff with jitter, or at least the
 * service's `Retry-After`; never longer than `maxDelay`.
 */
export function retryDelay(attempt: number, retryAfter: number | undefined, options: Required<RetryOptions>): number {
  const backoff = Math.min(options.maxDelay, options.baseDelay * 2 ** attempt)
  // Half fixed, half random: spreads clients that failed together without ever retrying at once.
  const jittered = backoff / 2 + (Math.random() * backoff) / 2
  return Math.min(options.maxDelay, Math.max(jittered, retryAfter ?? 0))
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** `promise`, or a rejection with the signal's reason as soon as it aborts. */
export function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
