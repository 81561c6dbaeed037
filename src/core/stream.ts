/**
 * The proxy's event stream, read with fetch (it carries the same headers as every request), resumed with
 * `Last-Event-ID` and opened again with backoff when it drops. Loaded by the live loop of the leading tab.
 */
import type { InboxClientOptions } from '../api/types'
import { backoff } from './live'

/** What the live loop hears of the stream. */
export interface StreamHandlers {
  /**
   * The stream is open: news comes as events. `resumed`: from the last event it read, so nothing came unheard;
   * else it starts from now, and what came since the last look (or the first reads) was heard by no one.
   */
  open(resumed: boolean): void
  /** It ended or failed; it is tried again after a backoff. `refused`: fresh credentials were refused too, it is not. */
  closed(refused?: boolean): void
  /** An event's type (`message` when it names none). */
  event(type: string): void
}

/**
 * Reads `{baseUrl}/events` until stopped or refused; a missing route (a proxy without `events` answers 204, a server
 * that does not know the route 403–501) means there is no stream, and the loop polls. Returns the stop.
 */
export function openStream(options: InboxClientOptions, on: StreamHandlers): () => void {
  const abort = new AbortController()
  void (async () => {
    let last: string | undefined
    // Nothing that could bring fresh credentials: a refusal is final, as the client's requests take it.
    const fixed = !options.getHeaders && !options.onUnauthorized
    let reauthorized = fixed
    for (let attempt = 0; !abort.signal.aborted;) {
      let opened = 0
      try {
        const headers: Record<string, string> = { accept: 'text/event-stream', ...options.headers }
        Object.assign(headers, await options.getHeaders?.())
        const resumed = !!last
        if (last) headers['last-event-id'] = last
        const response = await (options.fetch ?? fetch)(`${(options.baseUrl ?? '').replace(/\/+$/, '')}/events`, {
          headers,
          signal: abort.signal,
        })
        if (
          [403, 404, 405, 501].includes(response.status) ||
          (response.ok && !/event-stream/.test(response.headers.get('content-type') ?? ''))
        )
          return
        // Refused: fresh credentials once, at once, as the client asks for them; refused again, signed out.
        if (response.status === 401) {
          if (reauthorized) return on.closed(true)
          reauthorized = true
          await options.onUnauthorized?.()
          continue
        }
        if (!response.ok || !response.body) throw new Error(String(response.status))
        reauthorized = fixed
        opened = Date.now()
        on.open(resumed)
        await read(response.body, (id, type) => {
          last = id ?? last
          on.event(type)
        })
      } catch (error) {
        // Signed out before asking: `getHeaders` refused as the service would (createTokenAuth does when fetchToken
        // gives no token). Final, as a refusal of fresh credentials is; else gone or failed: back off, poll meanwhile.
        if ((error as { status?: unknown } | null)?.status === 401 && !abort.signal.aborted) return on.closed(true)
      }
      if (abort.signal.aborted) return
      on.closed()
      // A stream that stayed open a while was a success; one that ends at once counts as a failure, so a server
      // that closes every stream as it opens it is asked less and less often.
      if (opened && Date.now() - opened > 10_000) attempt = 0
      // The wait ends early when the network comes back (after a sleep or a train's tunnel the stream would
      // otherwise wait out minutes of backoff) and when the stream is stopped (letting go of what it holds).
      await new Promise<void>((resolve) => {
        const wake = () => (
          clearTimeout(timer),
          abort.signal.removeEventListener('abort', wake),
          globalThis.removeEventListener?.('online', wake),
          resolve()
        )
        const timer = setTimeout(wake, backoff(++attempt))
        abort.signal.addEventListener('abort', wake)
        globalThis.addEventListener?.('online', wake)
      })
    }
  })()
  return () => abort.abort()
}

/** Calls `onEvent` with each event of a `text/event-stream` body (its id and type) until it ends. */
async function read(body: ReadableStream<Uint8Array>, onEvent: (id: string | undefined, type: string) => void) {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let event: { id?: string; event?: string; data?: string } = {}
  /** Characters of the event being read. */
  let size = 0
  for (;;) {
    // Silent for longer than three of the proxy's heartbeats (every 25 s): the connection died without a word
    // (a sleep, a network change); it ends here and opens again.
    const silent = setTimeout(() => void reader.cancel().catch(() => {}), 80_000)
    const { done, value } = await reader.read().finally(() => clearTimeout(silent))
    if (done) return
    buffer += decoder.decode(value, { stream: true })
    const lines = buffer.split(/\r\n|\r|\n/)
    buffer = lines.pop()!
    for (const line of lines) {
      if (!line) {
        if (event.event || event.data !== undefined) onEvent(event.id, event.event ?? 'message')
        event = {}
        size = 0
        continue
      }
      size += line.length
      const at = line.indexOf(':')
      if (at === 0) continue
      const field = at < 0 ? line : line.slice(0, at)
      const value = at < 0 ? '' : line.slice(at + 1).replace(/^ /, '')
      // An id goes back as the Last-Event-ID header: one that cannot be a header's value (an emoji, a NUL) would
      // make every later attempt throw before it is sent, so it is ignored (as EventSource ignores one with a NUL).
      if (field === 'id' && /^[ -~]*$/.test(value)) event.id = value
      else if (field === 'event') event.event = value
      else if (field === 'data') event.data = (event.data === undefined ? '' : event.data + '\n') + value
    }
    // An event is a few ids: a megabyte without its end is a stream gone wrong, dropped (and opened again later)
    // rather than kept in memory.
    if (size + buffer.length > 1 << 20) return reader.cancel()
  }
}
