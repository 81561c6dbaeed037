/**
 * inbox-kit/proxy/redis: what several instances of an app share through Redis — the event broker (pub/sub, with
 * each subscriber's last events in a Redis stream for resumes) and the rate-limit store. It takes clients the app
 * made with the `redis` package (node-redis 4 or later) and imports nothing itself.
 *
 * The clients stay the app's: it connects them and listens for their `'error'` events (node-redis requires a
 * listener; without one, a dropped connection crashes the process). The kit adds no listener of its own, which
 * would keep an app that forgot its own from ever hearing of its client's errors. While a client is not ready
 * (node-redis's `isReady`: Redis restarting, unreachable), the broker and the store fail at once instead of
 * leaving commands in node-redis's offline queue until Redis is back.
 */
import { parseEventId, resumeFrom } from './events'
import type { BrokerEntry, InboxEvent, InboxEventBroker } from './events'
import type { RateLimitStore } from './rateLimit'

export type { InboxEventBroker, RateLimitStore }

/** What the broker and the store ask of a Redis client: node-redis's `sendCommand` and `isReady`. */
export interface RedisCommandClient {
  sendCommand(args: string[]): Promise<unknown>
  /** False while the connection is down (node-redis reconnects by itself meanwhile): commands then fail at once. */
  readonly isReady?: boolean | undefined
}

/** A connection in subscriber mode: node-redis's `subscribe` and `unsubscribe` with a listener, and `isReady`. */
export interface RedisSubscriberClient {
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>
  unsubscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>
  /** False while the connection is down: a new subscription then fails at once. */
  readonly isReady?: boolean | undefined
}

/**
 * Throws when `client` says its connection is down. node-redis would queue the command until Redis is back, which
 * holds the request that waits for it (and replays a backlog of stale commands on reconnection); failing at once
 * lets the proxy answer now: the request goes through without the rate limit, a stream or a webhook gets 503.
 */
function ready(client: { readonly isReady?: boolean | undefined }): void {
  if (client.isReady === false) throw new Error('Redis cannot be reached: the client is not connected.')
}

/** Options of {@link createRedisBroker}. */
export interface RedisBrokerOptions {
  /** A connected client, for publishing and for the buffers, with the app's `'error'` listener. */
  client: RedisCommandClient
  /**
   * A second connected client (`client.duplicate()`), used only to subscribe (Redis keeps a subscribing connection
   * for that), with an `'error'` listener of its own: a duplicate does not share the first one's listeners.
   */
  subscriber: RedisSubscriberClient
  /** Start of every key and channel name, so that several apps can share one Redis. @default 'inbox-kit' */
  prefix?: string | undefined
  /** Events kept per subscriber for `Last-Event-ID` resumes; an older id gets `reset`. @default 50 */
  bufferSize?: number | undefined
  /** How long a subscriber's buffer outlives its last event; an id older than this gets `reset`. @default 3600000 */
  ttlMs?: number | undefined
}

/** A Lua script, loaded once and then called by its digest. */
interface Script {
  source: string
  sha?: Promise<string> | undefined
}

/** Runs `script`, loading it again when Redis has forgotten it (a restart, SCRIPT FLUSH). */
async function run(client: RedisCommandClient, script: Script, keys: string[], args: string[]): Promise<unknown> {
  ready(client)
  const load = () => (script.sha = client.sendCommand(['SCRIPT', 'LOAD', script.source]) as Promise<string>)
  const sha = await (script.sha ?? load()).catch((error: unknown) => {
    script.sha = undefined
    throw error
  })
  try {
    return await client.sendCommand(['EVALSHA', sha, String(keys.length), ...keys, ...args])
  } catch (error) {
    if (!/NOSCRIPT/.test(String(error))) throw error
    return client.sendCommand(['EVALSHA', await load(), String(keys.length), ...keys, ...args])
  }
}

// Each subscriber's buffer is a Redis stream whose ids are the events' ids; appending, trimming and publishing in
// one script keeps the order of ids and of messages the same for every instance. It holds one entry more than the
// buffer's size: once anything was trimmed, its oldest entry marks where the complete record starts (Redis 7.0 does
// not note the ids that trimming removed), so a resume from that id or later is complete.
const PUBLISH: Script = {
  source: `
for i, key in ipairs(KEYS) do
  local id = redis.call('XADD', key, 'MAXLEN', ARGV[1], '*', 'e', ARGV[3])
  redis.call('PEXPIRE', key, ARGV[2])
  redis.call('PUBLISH', ARGV[3 + i], id .. ' ' .. ARGV[3])
end
return #KEYS`,
}

const RESUME: Script = {
  source: `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local last, trimmed = '', ''
if redis.call('EXISTS', KEYS[1]) == 1 then
  local info = redis.call('XINFO', 'STREAM', KEYS[1])
  local fields = {}
  for i = 1, #info, 2 do fields[info[i]] = info[i + 1] end
  last = fields['last-generated-id']
  if fields['entries-added'] > fields['length'] then trimmed = fields['first-entry'][1] end
end
local entries = {}
if ARGV[1] ~= '' then entries = redis.call('XRANGE', KEYS[1], '(' .. ARGV[1], '+') end
return {tostring(now), last, trimmed, entries}`,
}

/** Subscribers per publishing script, so that a broadcast to many does not hold Redis for long. */
const PUBLISH_BATCH = 500

/**
 * The {@link InboxEventBroker} for several instances: an event published on any instance (a webhook that reached
 * instance B, a `notify` there) reaches the streams of its subscribers on every instance, and a client may resume
 * on any of them. One Redis channel per subscriber with a stream open, so an instance hears only of its own;
 * each subscriber's last `bufferSize` events are kept in a Redis stream that expires `ttlMs` after its last
 * event; webhook ids are remembered with `SET NX PX`. Not for Redis Cluster (the keys of one publish may lie in
 * different slots).
 *
 * While Redis cannot be reached (a client not ready), `subscribe`, `resume`, `publish` and `claim` reject at once,
 * so the proxy answers 503 with `Retry-After`; `release` is left to node-redis's queue, so that a claim is still
 * given back once Redis returns. node-redis reconnects and subscribes again by itself.
 *
 * @example
 * import { createClient } from 'redis'
 * import { createRedisBroker } from 'inbox-kit/proxy/redis'
 *
 * const client = createClient({ url: process.env.REDIS_URL })
 * const subscriber = client.duplicate()
 * // node-redis needs an 'error' listener on each client, or a dropped connection crashes the process.
 * client.on('error', (error) => console.error('Redis:', error))
 * subscriber.on('error', (error) => console.error('Redis (subscriber):', error))
 * await Promise.all([client.connect(), subscriber.connect()])
 * const inboxProxy = createInboxProxy({ …, events: { webhookSecret, broker: createRedisBroker({ client, subscriber }) } })
 * // Events published while the subscribing connection was down are in the buffer: let the clients resume them.
 * subscriber.on('ready', () => inboxProxy.closeStreams())
 */
export function createRedisBroker(options: RedisBrokerOptions): InboxEventBroker {
  const { client, subscriber } = options
  const prefix = options.prefix ?? 'inbox-kit'
  const bufferSize = String(whole(options.bufferSize ?? 50, 'bufferSize') + 1)
  const ttlMs = whole(options.ttlMs ?? 3_600_000, 'ttlMs')
  const bufferKey = (subscriberId: string) => `${prefix}:buffer:${subscriberId}`
  const channelOf = (subscriberId: string) => `${prefix}:events:${subscriberId}`
  interface Channel {
    listeners: Set<(entry: BrokerEntry) => void>
    onMessage: (message: string) => void
    ready: Promise<unknown>
  }
  const channels = new Map<string, Channel>()

  return {
    async publish(subscriberIds, event) {
      const ids = [...new Set(subscriberIds)]
      const data = JSON.stringify({ type: event.type, messageIds: event.messageIds } satisfies InboxEvent)
      for (let at = 0; at < ids.length; at += PUBLISH_BATCH) {
        const batch = ids.slice(at, at + PUBLISH_BATCH)
        await run(client, PUBLISH, batch.map(bufferKey), [bufferSize, String(ttlMs), data, ...batch.map(channelOf)])
      }
    },

    async subscribe(subscriberId, listener) {
      let channel = channels.get(subscriberId)
      if (!channel) {
        // Subscribed now, node-redis would hold the subscription back until Redis returns.
        ready(subscriber)
        const listeners = new Set<(entry: BrokerEntry) => void>()
        const onMessage = (message: string) => {
          const entry = parseMessage(message)
          if (entry) for (const each of [...listeners]) each(entry)
        }
        const created: Channel = {
          listeners,
          onMessage,
          ready: subscriber.subscribe(channelOf(subscriberId), onMessage),
        }
        created.ready.catch(() => {
          if (channels.get(subscriberId) === created) channels.delete(subscriberId)
        })
        channels.set(subscriberId, (channel = created))
      }
      const own = (entry: BrokerEntry) => listener(entry)
      channel.listeners.add(own)
      try {
        await channel.ready
      } catch (error) {
        channel.listeners.delete(own)
        throw error
      }
      const joined = channel
      return () => {
        if (!joined.listeners.delete(own) || joined.listeners.size > 0) return
        if (channels.get(subscriberId) === joined) channels.delete(subscriberId)
        void Promise.resolve(subscriber.unsubscribe(channelOf(subscriberId), joined.onMessage)).catch(() => {})
      }
    },

    async resume(subscriberId, lastEventId) {
      // Only a well-formed id reaches XRANGE; any other gets `reset` below.
      const asked = lastEventId !== null && parseEventId(lastEventId) ? lastEventId : ''
      const [now, last, trimmed, raw] = (await run(client, RESUME, [bufferKey(subscriberId)], [asked])) as [
        string,
        string,
        string,
        [string, string[]][],
      ]
      const after = raw.flatMap(([id, fields]) => {
        const entry = parseMessage(`${id} ${fields[fields.indexOf('e') + 1] ?? ''}`)
        return entry ? [entry] : []
      })
      return resumeFrom(lastEventId, {
        nowMs: Number(now),
        lastId: last || null,
        trimmedId: trimmed && trimmed !== '0-0' ? trimmed : null,
        after,
        ttlMs,
      })
    },

    async claim(key, ttl) {
      ready(client)
      const answer = await client.sendCommand([
        'SET',
        `${prefix}:claim:${key}`,
        '1',
        'NX',
        'PX',
        String(Math.max(1, Math.ceil(ttl))),
      ])
      return answer === 'OK'
    },

    // Not failed early: queued by node-redis while Redis is away, it still frees the claim once Redis is back.
    async release(key) {
      await client.sendCommand(['DEL', `${prefix}:claim:${key}`])
    },
  }
}

/** `<id> <event JSON>` as published, or null for anything else. */
function parseMessage(message: string): BrokerEntry | null {
  const space = message.indexOf(' ')
  const id = message.slice(0, space)
  if (space < 0 || !parseEventId(id)) return null
  try {
    const event = JSON.parse(message.slice(space + 1)) as InboxEvent
    if (typeof event?.type !== 'string' || !Array.isArray(event.messageIds)) return null
    return { id, event: { type: event.type, messageIds: event.messageIds } }
  } catch {
    return null
  }
}

// The bucket is the time at which it is full again (GCRA), as the in-memory store keeps it; one script reads,
// decides and writes, so two instances never both spend the last request. The microsecond of slack is the memory
// store's too.
const TAKE: Script = {
  source: `
local now = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local window = tonumber(ARGV[4])
local stored = tonumber(redis.call('GET', KEYS[1]) or '0')
local from = math.max(stored, now)
local nxt = from + cost * (window / limit)
if nxt - now <= window + 0.001 then
  redis.call('SET', KEYS[1], string.format('%.3f', nxt), 'PX', math.max(1, math.ceil(nxt - now)))
  return {1, '0'}
end
return {0, string.format('%.3f', nxt - now - window)}`,
}

/** Options of {@link createRedisRateLimitStore}. */
export interface RedisRateLimitStoreOptions {
  /** A connected client (it may be the broker's), with the app's `'error'` listener. */
  client: RedisCommandClient
  /** Start of every key name. @default 'inbox-kit' */
  prefix?: string | undefined
}

/**
 * A {@link RateLimitStore} in Redis, so that a subscriber's limit holds across every instance of the app: each
 * `take` is one atomic script (GCRA, a single number per subscriber that expires once the bucket is full again).
 * While the client is not ready, `take` rejects at once, and the proxy lets the request through (it fails open).
 *
 * @example createInboxProxy({ …, rateLimit: { limit: 600, windowMs: 60_000, store: createRedisRateLimitStore({ client }) } })
 */
export function createRedisRateLimitStore(options: RedisRateLimitStoreOptions): RateLimitStore {
  const { client } = options
  const prefix = options.prefix ?? 'inbox-kit'
  return {
    async take(key, cost, now, rule) {
      const [ok, retryAfter] = (await run(
        client,
        TAKE,
        [`${prefix}:rate:${key}`],
        [String(now), String(cost), String(rule.limit), String(rule.windowMs)],
      )) as [number, string]
      return { ok: ok === 1, retryAfterMs: Number(retryAfter) }
    },
  }
}

function whole(value: number, name: string): number {
  if (!(Number.isInteger(value) && value >= 1)) throw new RangeError(`${name} must be a whole number of at least 1.`)
  return value
}
