import { Webhook } from 'standardwebhooks'

/** One block of an event stream: an event (id, event, data, retry) or a comment. */
export interface SseBlock {
  id?: string
  event?: string
  data?: string
  retry?: number
  comment?: string
}

/**
 * Reads an event stream as the browser side will: a `fetch` body, parsed block by block. `next()` waits for the
 * next event (comments and retry hints are collected aside), `ended` resolves when the server closes the stream.
 */
export function readStream(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  const events: SseBlock[] = []
  const comments: string[] = []
  const retries: number[] = []
  let text = ''
  let waiters: (() => void)[] = []
  let done = false
  const wake = () => {
    const all = waiters
    waiters = []
    for (const w of all) w()
  }
  const ended = (async () => {
    try {
      for (;;) {
        const { done: end, value } = await reader.read()
        if (end) break
        text += decoder.decode(value, { stream: true })
        let at: number
        while ((at = text.indexOf('\n\n')) >= 0) {
          const block = text.slice(0, at)
          text = text.slice(at + 2)
          const parsed: SseBlock = {}
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) parsed.comment = line.slice(1).trim()
            const [, field, value] = /^(\w+): ?(.*)$/.exec(line) ?? []
            if (field === 'id' || field === 'event' || field === 'data') parsed[field] = value
            if (field === 'retry') parsed.retry = Number(value)
          }
          if (parsed.comment !== undefined) comments.push(parsed.comment)
          else if (parsed.data === undefined && parsed.retry !== undefined) retries.push(parsed.retry)
          else events.push(parsed)
        }
        wake()
      }
    } catch {
      // Cancelled or cut: the stream has ended either way.
    } finally {
      done = true
      wake()
    }
  })()
  let read = 0
  /** The next event, or null once the stream has ended without one. */
  const next = async (timeoutMs = 3_000): Promise<SseBlock | null> => {
    const deadline = Date.now() + timeoutMs
    while (read >= events.length && !done) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no event within ${timeoutMs} ms (had ${JSON.stringify(events)})`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
    return read < events.length ? events[read++]! : null
  }
  /** Waits until `n` comments have come, or throws. */
  const comment = async (n: number, timeoutMs = 3_000) => {
    const deadline = Date.now() + timeoutMs
    while (comments.length < n) {
      if (done || Date.now() > deadline) throw new Error(`only ${comments.length} comments`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now())
        waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }
  /** Events received and not yet taken by `next`. */
  const pending = () => events.slice(read)
  const cancel = () => reader.cancel().catch(() => {})
  return { next, comment, pending, events, comments, retries, ended, cancel, isDone: () => done }
}

/** A Standard Webhooks secret for tests. */
export const WEBHOOK_SECRET = 'whsec_' + Buffer.from('a test webhook secret of 32 bytes!!').toString('base64')

/** A signed webhook request as the service sends it, with any part overridable to spoil it. */
export function signedWebhook(
  url: string,
  payload: unknown,
  options: { id?: string; secret?: string; timestamp?: Date; signature?: string; body?: string } = {},
): Request {
  const body = options.body ?? JSON.stringify(payload)
  const id = options.id ?? `msg_${crypto.randomUUID()}`
  const timestamp = options.timestamp ?? new Date()
  const signature = options.signature ?? new Webhook(options.secret ?? WEBHOOK_SECRET).sign(id, timestamp, body)
  return new Request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signature,
    },
    body,
  })
}

/** The payload the reference service posts for one subscriber's messages. */
export function messagePayload(subscriberId: string, messageIds: string[], type = 'message.created') {
  return { type, timestamp: new Date().toISOString(), data: { subscriberId, environmentId: 'env-test', messageIds } }
}
