import { compareIds, parseEventId } from './events'
import type { BrokerEntry, InboxEventBroker, ResumePoint } from './events'

/** How the proxy runs its event streams. */
export interface StreamSettings {
  broker: InboxEventBroker
  heartbeatMs: number
  retryMs: number
  maxStreamsPerSubscriber: number
  maxQueuedBytes: number
  /** Milliseconds the broker has to start a stream (→ the start rejects). */
  timeout: number
}

/** Longest Last-Event-ID read; a longer one is not an id the proxy gave, so the stream starts with `reset`. */
const MAX_LAST_EVENT_ID = 64
/** setTimeout's largest delay; a token valid for longer closes its stream then, and the client reconnects. */
const MAX_TIMER_MS = 2 ** 31 - 1

const encoder = new TextEncoder()

/** One event in the stream's wire format. */
function eventFrame(id: string, type: string, data: unknown): string {
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`
}

const HEARTBEAT = encoder.encode(': heartbeat\n\n')

/** The headers of an event stream's answer. */
export const STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store, no-transform',
  // Tells nginx and the like not to hold events back in a buffer.
  'x-accel-buffering': 'no',
}

interface OpenStream {
  close(): void
}

/** The open event streams of one proxy, by subscriber, oldest first. */
export function createStreams(settings: StreamSettings) {
  const open = new Map<string, OpenStream[]>()
  let count = 0

  /**
   * Opens the stream of `subscriberId`; resolves once the broker listens for them and their missed events are
   * read, or rejects when the broker fails.
   */
  async function start(request: Request, subscriberId: string, expiresAt: number | undefined): Promise<Response> {
    const header = request.headers.get('last-event-id')
    // Any id the proxy never gave (too long, malformed) is one whose events cannot be found: `reset`.
    const lastEventId = header === null || header === '' ? null : header.length > MAX_LAST_EVENT_ID ? '-' : header
    const early: BrokerEntry[] = []
    let deliver: (entry: BrokerEntry) => void = (entry) => void early.push(entry)
    const subscribing = settings.broker.subscribe(subscriberId, (entry) => deliver(entry))
    // A broker that never answers (a connection gone for good) must not hold the request open.
    const unsubscribe = await within(subscribing, settings.timeout).catch((error: unknown) => {
      void subscribing.then(
        (stop) => stop(),
        () => {},
      )
      throw error
    })
    let point: ResumePoint
    try {
      point = await within(settings.broker.resume(subscriberId, lastEventId), settings.timeout)
    } catch (error) {
      unsubscribe()
      throw error
    }

    let controller!: ReadableStreamDefaultController<Uint8Array>
    let closed = false
    let last = parseEventId(point.position)!
    const timers: ReturnType<typeof setTimeout>[] = []
    const stream: OpenStream = { close: () => finish(true) }
    const finish = (end: boolean) => {
      if (closed) return
      closed = true
      count--
      for (const timer of timers) clearTimeout(timer)
      request.signal.removeEventListener('abort', onAbort)
      unsubscribe()
      const list = open.get(subscriberId)
      if (list) {
        list.splice(list.indexOf(stream), 1)
        if (list.length === 0) open.delete(subscriberId)
      }
      if (end) {
        try {
          // Bytes still queued mean the host is waiting on a client that does not take what it was sent: ended
          // gracefully, the stream would wait behind them for ever. Errored, the host drops the connection.
          if ((controller.desiredSize ?? 0) < settings.maxQueuedBytes) controller.error(new Error('stream cut off'))
          else controller.close()
        } catch {
          // Already cancelled by the reader.
        }
      }
    }
    const onAbort = () => finish(false)
    const write = (text: string | Uint8Array, head = false) => {
      if (closed) return
      controller.enqueue(typeof text === 'string' ? encoder.encode(text) : text)
      // A client that stops reading would pile events up here; it is cut off and resumes from its Last-Event-ID.
      // The head may be large (a replay) and is never cut, or a resume could never get past it.
      if (!head && (controller.desiredSize ?? 0) <= 0) finish(true)
    }
    const send = (entry: BrokerEntry) => {
      const id = parseEventId(entry.id)
      if (!id || compareIds(id, last) <= 0) return
      last = id
      write(eventFrame(entry.id, entry.event.type, { type: entry.event.type, messageIds: entry.event.messageIds }))
    }

    const body = new ReadableStream<Uint8Array>(
      {
        start: (c) => void (controller = c),
        cancel: () => finish(false),
      },
      { highWaterMark: settings.maxQueuedBytes, size: (chunk) => chunk.byteLength },
    )
    count++
    let head = `retry: ${settings.retryMs}\n\n`
    if (point.entries === null) head += eventFrame(point.position, 'reset', { type: 'reset' })
    else {
      for (const entry of point.entries) {
        head += eventFrame(entry.id, entry.event.type, { type: entry.event.type, messageIds: entry.event.messageIds })
      }
      head += eventFrame(point.position, 'ready', { type: 'ready' })
    }
    write(head, true)
    for (const entry of early) send(entry)
    deliver = send

    const heartbeat = setInterval(() => write(HEARTBEAT), settings.heartbeatMs)
    timers.push(heartbeat)
    if (expiresAt !== undefined)
      timers.push(setTimeout(() => finish(true), Math.min(MAX_TIMER_MS, Math.max(0, expiresAt - Date.now()))))
    for (const timer of timers) (timer as { unref?: () => void }).unref?.()
    request.signal.addEventListener('abort', onAbort)
    if (request.signal.aborted) finish(false)

    if (!closed) {
      let list = open.get(subscriberId)
      if (!list) open.set(subscriberId, (list = []))
      list.push(stream)
      // The oldest goes: more likely a tab left behind, or a connection that died without a word.
      while (list.length > settings.maxStreamsPerSubscriber) list[0]!.close()
    }
    return new Response(body, { status: 200, headers: STREAM_HEADERS })
  }

  function closeAll(): void {
    for (const list of [...open.values()]) for (const stream of [...list]) stream.close()
  }

  return {
    start,
    closeAll,
    /** Streams open now. */
    get size() {
      return count
    },
  }
}

/** `promise`, or a rejection once `ms` have passed without it settling. */
export function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}
