import { Webhook } from 'standardwebhooks'
import { uuid } from './ids'

/** Where and how the service posts its message webhooks (see server/WEBHOOKS.md). */
export interface WebhookOptions {
  /** The receiver, e.g. `https://app.example.com/api/inbox/webhooks/messages`. */
  url: string
  /** Signing secret: `whsec_` and base64 of at least 24 random bytes, as Standard Webhooks has it. */
  secret: string
  /** How webhooks are posted; tests and the demo post in process. @default globalThis.fetch */
  fetch?: typeof fetch
  /** Attempts per webhook, the first included. @default 6 */
  attempts?: number
  /** Wait before the first retry, doubled before each next one (1, 2, 4, 8, 16 s by default). @default 1000 */
  retryDelayMs?: number
  /** An attempt not answered within this is a failure. @default 10000 */
  timeoutMs?: number
  /** Webhooks in flight at once. @default 8 */
  concurrency?: number
  /** Webhooks waiting at most; past it the oldest waiting one is dropped. @default 10000 */
  maxQueue?: number
}

/** What happened to the webhooks so far (for tests and the CLI). */
export interface WebhookStats {
  /** Answered 2xx. */
  delivered: number
  /** Given up: a 4xx that retrying cannot fix, or every attempt failed. */
  failed: number
  /** Dropped unsent because the queue was full. */
  dropped: number
  /** Attempts made, retries included. */
  attempts: number
}

export type MessageEventType = 'message.created' | 'message.updated'

/** Most ids in one webhook; more changes of one subscriber in one turn go in several. */
const MAX_IDS = 100
/** Statuses worth another attempt: the receiver may answer otherwise later. Any other 4xx will not change. */
const RETRYABLE = new Set([408, 409, 425, 429])

/** Events of one kind for one subscriber, gathered within one turn; `at` is when the first happened. */
interface Gathered {
  type: MessageEventType
  environmentId: string
  subscriberId: string
  ids: string[]
  at: number
}

interface Outgoing {
  id: string
  body: string
  attempt: number
}

const nextTurn: (run: () => void) => void =
  typeof setImmediate === 'function' ? (run) => void setImmediate(run) : (run) => void setTimeout(run, 0)

/**
 * Posts a signed webhook for each message event, after the request that caused it has been answered: events of one
 * subscriber within one turn of the event loop go in one webhook, at most `concurrency` are in flight, and a
 * failed one is tried again with a doubling delay (same `webhook-id`, a new timestamp and signature).
 */
export class WebhookSender {
  readonly stats: WebhookStats = { delivered: 0, failed: 0, dropped: 0, attempts: 0 }
  private readonly signer: Webhook
  private readonly url: URL
  private readonly gathered = new Map<string, Gathered>()
  private readonly queue: Outgoing[] = []
  private inFlight = 0
  private waiting = 0
  private gathering = false
  private idleWaiters: (() => void)[] = []

  constructor(
    private readonly options: WebhookOptions,
    private readonly clock: () => number,
  ) {
    try {
      this.url = new URL(options.url)
    } catch {
      throw new TypeError(`webhooks.url is not a URL: ${options.url}`)
    }
    if (this.url.protocol !== 'http:' && this.url.protocol !== 'https:')
      throw new TypeError('webhooks.url must be http(s).')
    try {
      this.signer = new Webhook(options.secret)
    } catch {
      throw new TypeError('webhooks.secret must be a Standard Webhooks secret: whsec_ followed by base64.')
    }
  }

  /** Notes one event that happened `at` (ms; now by default); never blocks: the webhook goes out on a later turn. */
  record(type: MessageEventType, environmentId: string, subscriberId: string, messageId: string, at?: number): void {
    const key = `${type}\0${environmentId}\0${subscriberId}`
    let group = this.gathered.get(key)
    if (!group || group.ids.length >= MAX_IDS) {
      if (group) this.enqueue(group)
      this.gathered.set(key, (group = { type, environmentId, subscriberId, ids: [], at: at ?? this.clock() }))
    }
    group.ids.push(messageId)
    if (this.gathering) return
    this.gathering = true
    nextTurn(() => {
      this.gathering = false
      for (const group of this.gathered.values()) this.enqueue(group)
      this.gathered.clear()
    })
  }

  /** Resolves once nothing is gathered, queued, in flight or waiting for a retry. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  private isIdle(): boolean {
    return !this.gathering && this.queue.length === 0 && this.inFlight === 0 && this.waiting === 0
  }

  private enqueue(group: Gathered): void {
    const body = JSON.stringify({
      type: group.type,
      timestamp: new Date(group.at).toISOString(),
      data: { subscriberId: group.subscriberId, environmentId: group.environmentId, messageIds: group.ids },
    })
    this.queue.push({ id: `msg_${uuid()}`, body, attempt: 0 })
    if (this.queue.length > (this.options.maxQueue ?? 10_000)) {
      this.queue.shift()
      this.stats.dropped++
    }
    this.pump()
  }

  private pump(): void {
    while (this.inFlight < (this.options.concurrency ?? 8) && this.queue.length > 0) {
      const item = this.queue.shift()!
      this.inFlight++
      void this.attempt(item).finally(() => {
        this.inFlight--
        this.pump()
        this.settleIfIdle()
      })
    }
  }

  private settleIfIdle(): void {
    if (!this.isIdle()) return
    const waiters = this.idleWaiters
    this.idleWaiters = []
    for (const resolve of waiters) resolve()
  }

  private async attempt(item: Outgoing): Promise<void> {
    item.attempt++
    this.stats.attempts++
    // The receiver checks the timestamp against its own clock, so it is the real time, not the service's clock.
    const timestamp = new Date()
    let retry = true
    try {
      const response = await (this.options.fetch ?? globalThis.fetch)(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': item.id,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'webhook-signature': this.signer.sign(item.id, timestamp, item.body),
        },
        body: item.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      })
      await response.body?.cancel().catch(() => {})
      if (response.ok) {
        this.stats.delivered++
        return
      }
      retry = response.status >= 500 || RETRYABLE.has(response.status)
    } catch {
      // Unreachable, reset or too slow: worth another attempt.
    }
    if (!retry || item.attempt >= (this.options.attempts ?? 6)) {
      this.stats.failed++
      return
    }
    this.waiting++
    const timer = setTimeout(
      () => {
        this.waiting--
        this.queue.unshift(item)
        this.pump()
      },
      (this.options.retryDelayMs ?? 1_000) * 2 ** (item.attempt - 1),
    )
    // Retries waiting must not keep a script or a test run alive.
    ;(timer as { unref?: () => void }).unref?.()
  }
}

/** A new signing secret: `whsec_` and base64 of 32 random bytes. */
export function createWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return 'whsec_' + btoa(String.fromCharCode(...bytes))
}
