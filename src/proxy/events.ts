/** What a stream tells the browser about its messages: ids and a kind, never content. */
export type InboxEventType = 'message.created' | 'message.updated'

/** The kinds a stream carries, in the order they are listed in the docs. */
const EVENT_TYPES: readonly InboxEventType[] = ['message.created', 'message.updated']

/**
 * One event for one subscriber. `messageIds` may be empty: then "something changed, refetch the first page".
 * Its JSON is the `data:` line of the stream.
 */
export interface InboxEvent {
  type: InboxEventType
  messageIds: string[]
}

/** An event as a subscriber's buffer holds it, with the id the broker gave it. */
export interface BrokerEntry {
  /** `<ms>-<n>`, increasing per subscriber (a Redis stream id). */
  id: string
  event: InboxEvent
}

/** Where a new stream starts: what it missed since `Last-Event-ID`, and the id of "now". */
export interface ResumePoint {
  /** The id the stream's `ready` event carries: every event after it comes live. */
  position: string
  /**
   * Entries after the asked-for id, oldest first; null when some of them may be gone (the id is older than the
   * buffer, from before its time-to-live, malformed or from the future), so the client must refetch everything.
   */
  entries: BrokerEntry[] | null
}

/**
 * Carries events from wherever they come in (a webhook, `notify`) to the streams of their subscribers, on this
 * instance and on every other one, and keeps the last few of each subscriber for `Last-Event-ID` resumes.
 * {@link createMemoryBroker} serves one process; `createRedisBroker` from `inbox-kit/proxy/redis` serves many.
 */
export interface InboxEventBroker {
  /** Gives `event` a new id in each subscriber's buffer and delivers it to their listeners everywhere. */
  publish(subscriberIds: readonly string[], event: InboxEvent): Promise<void>
  /**
   * Listens for a subscriber's events; resolves, with the function that stops listening, once every event
   * published from then on will reach `listener`, in order.
   */
  subscribe(subscriberId: string, listener: (entry: BrokerEntry) => void): Promise<() => void>
  /** The entries after `lastEventId` (none when it is null) and the position now. */
  resume(subscriberId: string, lastEventId: string | null): Promise<ResumePoint>
  /** Marks `key` as seen for `ttlMs`; false when it already was (a replayed webhook). */
  claim(key: string, ttlMs: number): Promise<boolean>
  /** Forgets a claim, so that a webhook that could not be handled can be sent again. */
  release(key: string): Promise<void>
}

/** An event id, split; null when `id` is not one. */
export function parseEventId(id: string): [number, number] | null {
  const match = /^(\d{1,15})-(\d{1,15})$/.exec(id)
  return match ? [Number(match[1]), Number(match[2])] : null
}

/** Orders two parsed ids. */
export function compareIds(a: [number, number], b: [number, number]): number {
  return a[0] - b[0] || a[1] - b[1]
}

/** What the buffer knows, for {@link resumeFrom}. */
export interface BufferState {
  /** The broker's clock, ms since the epoch. */
  nowMs: number
  /** The newest id ever given in this buffer, if it still exists. */
  lastId: string | null
  /** The newest id trimmed off the buffer, if any. */
  trimmedId: string | null
  /** Entries with ids after the asked-for one. */
  after: BrokerEntry[]
  /** How long a quiet buffer is kept. */
  ttlMs: number
}

/**
 * The resume rules every broker shares. The position is the newest id or, when that is older, `<now-1>-0`:
 * every later id is greater, since ids start from the clock. An id can be honoured when it is well-formed, not
 * past the position, younger than the buffer's time-to-live (a buffer quiet that long may have expired with
 * entries after it) and not older than what was trimmed.
 */
export function resumeFrom(lastEventId: string | null, state: BufferState): ResumePoint {
  const now: [number, number] = [Math.max(0, state.nowMs - 1), 0]
  const last = state.lastId ? parseEventId(state.lastId) : null
  const position = last && compareIds(last, now) > 0 ? last : now
  const point = (entries: BrokerEntry[] | null): ResumePoint => ({ position: `${position[0]}-${position[1]}`, entries })
  if (lastEventId === null) return point([])
  const asked = parseEventId(lastEventId)
  if (!asked || compareIds(asked, position) > 0 || asked[0] < state.nowMs - state.ttlMs) return point(null)
  const trimmed = state.trimmedId ? parseEventId(state.trimmedId) : null
  if (trimmed && compareIds(asked, trimmed) < 0) return point(null)
  return point(state.after)
}

/** Checks an event from outside (a webhook, `notify`); answers what is wrong with it, by field, or null. */
export function eventProblems(event: unknown): Record<string, string> | null {
  const problems: Record<string, string> = {}
  const e = event as Partial<InboxEvent> | null
  if (typeof e !== 'object' || e === null) return { event: 'must be an object' }
  if (!EVENT_TYPES.includes(e.type as InboxEventType)) problems.type = `must be one of ${EVENT_TYPES.join(', ')}`
  const ids = e.messageIds
  if (
    !Array.isArray(ids) ||
    ids.length > MAX_MESSAGE_IDS ||
    !ids.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 256)
  ) {
    problems.messageIds = `must be an array of at most ${MAX_MESSAGE_IDS} non-empty strings of at most 256 characters`
  }
  return Object.keys(problems).length ? problems : null
}

/** Most message ids in one event; a larger change is sent as several. */
const MAX_MESSAGE_IDS = 1000

/** Options of {@link createMemoryBroker}. */
export interface MemoryBrokerOptions {
  /** Events kept per subscriber for `Last-Event-ID` resumes; an older id gets `reset`. @default 50 */
  bufferSize?: number | undefined
  /** How long the buffer of a subscriber with no new event is kept; an id older than this gets `reset`. @default 3600000 */
  ttlMs?: number | undefined
  /**
   * Most subscribers whose buffers are kept; past it, the buffer that went longest without an event is dropped,
   * and a resume from before its last event gets `reset`. About 100 bytes an event. @default 10000
   */
  maxSubscribers?: number | undefined
  /** Most webhook ids remembered for replay protection; past it, the oldest are forgotten. @default 100000 */
  maxClaims?: number | undefined
  /** Clock in ms since the epoch. @default Date.now */
  now?: (() => number) | undefined
}

interface Buffer {
  entries: BrokerEntry[]
  lastId: string
  trimmedId: string | null
  lastAddMs: number
}

/**
 * The {@link InboxEventBroker} of one process: what a single server needs, and the default. Events reach only the
 * streams of this process, so an app that runs several instances needs a shared broker (`inbox-kit/proxy/redis`).
 *
 * @example createInboxProxy({ …, events: { webhookSecret, broker: createMemoryBroker({ bufferSize: 100 }) } })
 */
export function createMemoryBroker(options: MemoryBrokerOptions = {}): InboxEventBroker {
  const bufferSize = positive(options.bufferSize ?? 50, 'bufferSize')
  const ttlMs = positive(options.ttlMs ?? 3_600_000, 'ttlMs')
  const maxSubscribers = positive(options.maxSubscribers ?? 10_000, 'maxSubscribers')
  const maxClaims = positive(options.maxClaims ?? 100_000, 'maxClaims')
  const clock = options.now ?? Date.now
  // In order of their last event (re-inserted on each), so expiry and eviction take from the front.
  const buffers = new Map<string, Buffer>()
  const listeners = new Map<string, Set<(entry: BrokerEntry) => void>>()
  // In order of claiming; every claim of a proxy has the same ttl, so this is also the order of expiry.
  const claims = new Map<string, number>()
  let lastMs = 0
  let seq = 0
  let floorMs = 0

  const nextId = () => {
    const now = Math.max(clock(), lastMs)
    seq = now === lastMs ? seq + 1 : 0
    lastMs = now
    return `${now}-${seq}`
  }
  const sweep = (now: number) => {
    for (const [id, buffer] of buffers) {
      if (buffer.lastAddMs > now - ttlMs && buffers.size <= maxSubscribers) break
      // Dropped before its time: a resume from before its last event cannot know what it missed.
      if (buffer.lastAddMs > now - ttlMs) floorMs = Math.max(floorMs, buffer.lastAddMs + 1)
      buffers.delete(id)
    }
  }

  /* eslint-disable @typescript-eslint/require-await -- in memory, it answers at once behind the interface Redis needs async */
  return {
    async publish(subscriberIds, event) {
      for (const subscriberId of new Set(subscriberIds)) {
        const entry: BrokerEntry = { id: nextId(), event }
        const buffer = buffers.get(subscriberId) ?? { entries: [], lastId: entry.id, trimmedId: null, lastAddMs: 0 }
        buffers.delete(subscriberId)
        buffer.entries.push(entry)
        if (buffer.entries.length > bufferSize) buffer.trimmedId = buffer.entries.shift()!.id
        buffer.lastId = entry.id
        buffer.lastAddMs = lastMs
        buffers.set(subscriberId, buffer)
        for (const listener of listeners.get(subscriberId) ?? []) listener(entry)
      }
      sweep(clock())
    },
    async subscribe(subscriberId, listener) {
      let set = listeners.get(subscriberId)
      if (!set) listeners.set(subscriberId, (set = new Set()))
      // A listener added twice is two listeners.
      const own = (entry: BrokerEntry) => listener(entry)
      set.add(own)
      return () => {
        set.delete(own)
        if (set.size === 0 && listeners.get(subscriberId) === set) listeners.delete(subscriberId)
      }
    },
    async resume(subscriberId, lastEventId) {
      const nowMs = Math.max(clock(), lastMs)
      sweep(nowMs)
      const buffer = buffers.get(subscriberId)
      const asked = lastEventId === null ? null : parseEventId(lastEventId)
      const point = resumeFrom(lastEventId, {
        nowMs,
        lastId: buffer?.lastId ?? null,
        trimmedId: buffer?.trimmedId ?? null,
        after: asked && buffer ? buffer.entries.filter((e) => compareIds(parseEventId(e.id)!, asked) > 0) : [],
        ttlMs,
      })
      if (asked && asked[0] < floorMs) return { position: point.position, entries: null }
      return point
    },
    async claim(key, ttl) {
      const now = clock()
      for (const [k, expires] of claims) {
        if (expires > now && claims.size < maxClaims) break
        claims.delete(k)
      }
      const expires = claims.get(key)
      if (expires !== undefined && expires > now) return false
      claims.delete(key)
      claims.set(key, now + ttl)
      return true
    },
    async release(key) {
      claims.delete(key)
    },
  }
  /* eslint-enable @typescript-eslint/require-await */
}

function positive(value: number, name: string): number {
  if (!(Number.isFinite(value) && value >= 1)) throw new RangeError(`${name} must be a number of at least 1.`)
  return value
}
