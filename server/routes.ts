import { CHANNELS, MARK_AS, WEEKDAYS } from '../src/api/types'
import type { Criticality, MarkAs, Message, OrderDirection, TriggerResult } from '../src/api/types'
import { SLICE, checkTriggerBody, type Delivery } from './delivery'
import { HttpError, Issues, MAX_JSON_DEPTH, findTooDeep, tooDeepError } from './http'
import { isId } from './ids'
import { preferencesOf } from './preferences'
import { indexOfId, type Environment, type KeyScope, type Store } from './store'
import type { SubscriberRecord } from './types'

/** What a route handler gets. */
interface RouteContext {
  store: Store
  delivery: Delivery
  scope: KeyScope
  env: Environment
  params: Record<string, string>
  /** Read through {@link single} only, so that no parameter is taken as the first of several values. */
  query: Query
  body: unknown
  /** Whether feed pages carry `totalCount`. */
  totalCount: boolean
}

/** What a route handler answers. */
export interface RouteResult {
  status: number
  body: unknown
  /** Paginated bodies already carry `data` and are never enveloped. */
  paginated?: boolean
}

export interface Route {
  method: string
  pattern: RegExp
  names: string[]
  /** Body limit in bytes. */
  limit: number
  handle(ctx: RouteContext): RouteResult
}

const KB = 1024
const routes: Route[] = []

function route(method: string, path: string, handle: Route['handle'], limit = 100 * KB): void {
  const names: string[] = []
  const pattern = new RegExp(
    '^' +
      path.replace(/:(\w+)/g, (_, name: string) => {
        names.push(name)
        return '([^/]+)'
      }) +
      '$',
  )
  routes.push({ method, pattern, names, limit, handle })
}

/** The route for `method` and `path`, with its decoded path parameters; null when none matches. */
export function matchRoute(method: string, path: string): { route: Route; params: Record<string, string> } | null {
  for (const r of routes) {
    if (r.method !== method) continue
    const m = r.pattern.exec(path)
    if (!m) continue
    const params: Record<string, string> = {}
    r.names.forEach((name, i) => {
      try {
        params[name] = decodeURIComponent(m[i + 1] as string)
      } catch {
        throw new HttpError(400, `Malformed path parameter ${name}`)
      }
    })
    return { route: r, params }
  }
  return null
}

// ------------------------------------------------------------ parameter helpers

/**
 * The query as handlers see it: every value of a name, never just the first (`get`), so that each read goes
 * through {@link single}. No parameter of the API is a list: the spec gives each one value.
 */
type Query = Pick<URLSearchParams, 'getAll'>

/**
 * The value of query parameter `name`, or null when it is absent. A name given more than once is a bad field
 * (422, with every value given), not its first value, and reads as absent so that nothing else is said of it.
 */
function single(q: Query, name: string, issues: Issues): string | null {
  const values = q.getAll(name)
  if (values.length > 1) {
    issues.add(name, `${name} must be given once, not ${values.length} times`, values)
    return null
  }
  return values[0] ?? null
}

function intParam(q: Query, name: string, issues: Issues, min: number, max: number, fallback: number): number {
  const raw = single(q, name, issues)
  if (raw === null) return fallback
  // Decimal digits only: `Number` would also read `0x10`, `1e1` and padded spaces.
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN
  if (!Number.isInteger(value) || value < min || value > max) {
    issues.add(name, `${name} must be an integer from ${min} to ${max}`, raw)
    return fallback
  }
  return value
}

function boolParam(q: Query, name: string, issues: Issues): boolean | undefined {
  const raw = single(q, name, issues)
  if (raw === null) return undefined
  if (raw === 'true') return true
  if (raw === 'false') return false
  issues.add(name, `${name} must be true or false`, raw)
  return undefined
}

function enumParam<T extends string>(q: Query, name: string, allowed: readonly T[], issues: Issues): T | undefined {
  const raw = single(q, name, issues)
  if (raw === null) return undefined
  if ((allowed as readonly string[]).includes(raw)) return raw as T
  issues.add(name, `${name} must be one of ${allowed.join(', ')}`, raw)
  return undefined
}

function subscriberOr404(env: Environment, id: string): SubscriberRecord {
  const sub = env.subscribers.get(id)
  if (!sub) throw new HttpError(404, `Subscriber ${id} not found`)
  return sub
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined) return {}
  if (!isObject(body)) throw new HttpError(400, 'Request body must be a JSON object')
  return body
}

/** Decodes the feed's `payload` filter: base64 (standard or URL-safe) of UTF-8 JSON of an object. */
function decodePayloadFilter(raw: string): Record<string, unknown> {
  let value: unknown
  try {
    let b64 = raw.replace(/-/g, '+').replace(/_/g, '/').replace(/\s/g, '')
    b64 += '='.repeat((4 - (b64.length % 4)) % 4)
    const binary = atob(b64)
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0))
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    // falls through to the 400 below
  }
  if (!isObject(value)) throw new HttpError(400, 'payload must be base64-encoded JSON of an object')
  // As deep as a trigger's payload may be, so any stored payload can be asked for.
  if (findTooDeep(value, MAX_JSON_DEPTH - 1)) throw tooDeepError({ path: 'payload', allowed: MAX_JSON_DEPTH - 1 })
  return value
}

/** Whether every leaf of `filter` equals the leaf at the same path of `value`. */
function matchesSubset(value: unknown, filter: Record<string, unknown>): boolean {
  if (!isObject(value)) return false
  for (const [key, expected] of Object.entries(filter)) {
    // Own keys only: `__proto__` or `toString` in a filter must not reach the prototype.
    if (!Object.hasOwn(value, key)) return false
    const actual = value[key]
    if (isObject(expected)) {
      if (!matchesSubset(actual, expected)) return false
    } else if (Array.isArray(expected)) {
      if (JSON.stringify(actual) !== JSON.stringify(expected)) return false
    } else if (actual !== expected) return false
  }
  return true
}

// ------------------------------------------------------------ cursor lists

interface CursorQuery {
  after?: string
  before?: string
  limit: number
  direction: OrderDirection
  includeCursor: boolean
}

function cursorQuery(q: Query, issues: Issues): CursorQuery {
  const after = single(q, 'after', issues) ?? undefined
  const before = single(q, 'before', issues) ?? undefined
  if (after !== undefined && before !== undefined) throw new HttpError(400, 'after and before cannot be used together')
  for (const [name, value] of [
    ['after', after],
    ['before', before],
  ] as const) {
    if (value !== undefined && !isId(value)) issues.add(name, `${name} must be a cursor from a previous page`, value)
  }
  const limit = intParam(q, 'limit', issues, 1, 100, 10)
  const direction = enumParam(q, 'orderDirection', ['ASC', 'DESC'] as const, issues) ?? 'DESC'
  enumParam(q, 'orderBy', ['_id'] as const, issues)
  const includeCursor = boolParam(q, 'includeCursor', issues) ?? false
  return {
    ...(after !== undefined && { after }),
    ...(before !== undefined && { before }),
    limit,
    direction,
    includeCursor,
  }
}

/** One page of an ascending-by-_id list, in O(limit + log n). */
function cursorPage<T extends { _id: string }>(
  items: readonly T[],
  q: CursorQuery,
): { data: T[]; next: string | null; previous: string | null } {
  const n = items.length
  const asc = q.direction === 'ASC'
  const at = (j: number) => items[asc ? j : n - 1 - j] as T
  const position = (id: string) => {
    const k = indexOfId(items, id)
    return k < 0 ? -1 : asc ? k : n - 1 - k
  }
  let start = 0
  let end = Math.min(n, q.limit)
  const cursor = q.after ?? q.before
  if (cursor !== undefined) {
    const p = position(cursor)
    if (p < 0) return { data: [], next: null, previous: null }
    if (q.after !== undefined) {
      start = q.includeCursor ? p : p + 1
      end = Math.min(n, start + q.limit)
    } else {
      end = q.includeCursor ? p + 1 : p
      start = Math.max(0, end - q.limit)
    }
  }
  const data: T[] = []
  for (let j = start; j < end; j++) data.push(at(j))
  const first = data[0]
  const last = data[data.length - 1]
  return {
    data,
    next: last && end < n ? last._id : null,
    previous: first && start > 0 ? first._id : null,
  }
}

const COUNT_CAP = 50_000

// ------------------------------------------------------------ 4.1 topic subscriptions

route('GET', '/v2/topics/:topicKey/subscriptions', ({ store, env, params, query }) => {
  const issues = new Issues()
  const cq = cursorQuery(query, issues)
  const subscriberId = single(query, 'subscriberId', issues)
  issues.check()
  const topic = store.topicState(env, params.topicKey as string)
  if (!topic) throw new HttpError(404, `Topic ${params.topicKey} not found`)
  let items = topic.subscriptions
  if (subscriberId !== null) {
    const sub = env.subscribers.get(subscriberId)
    const one = sub && topic.bySubscriber.get(sub._id)
    items = one ? [one] : []
  }
  const page = cursorPage(items, cq)
  // The count is the list's length, capped: never a scan.
  return {
    status: 200,
    paginated: true,
    body: {
      data: page.data.map((s) => store.subscription(s)),
      next: page.next,
      previous: page.previous,
      totalCount: Math.min(items.length, COUNT_CAP),
      totalCountCapped: items.length > COUNT_CAP,
    },
  }
})

// ------------------------------------------------------------ 4.6 subscriber subscriptions

route('GET', '/v2/subscribers/:subscriberId/subscriptions', ({ store, env, params, query }) => {
  const issues = new Issues()
  const cq = cursorQuery(query, issues)
  const key = single(query, 'key', issues)
  issues.check()
  const sub = subscriberOr404(env, params.subscriberId as string)
  let items = env.subscriptions.get(sub._id) ?? []
  if (key !== null) {
    const one = store.topicState(env, key)?.bySubscriber.get(sub._id)
    items = one ? [one] : []
  }
  const page = cursorPage(items, cq)
  return {
    status: 200,
    paginated: true,
    body: { data: page.data.map((s) => store.subscription(s)), next: page.next, previous: page.previous },
  }
})

// ------------------------------------------------------------ 4.2 / 4.5 integrations

route('POST', '/v1/integrations/:integrationId/set-primary', ({ store, scope, params }) => {
  // Spec 4.2: the primary of the current environment; another environment's integration is not found from here.
  const target = store.integrationList.find(
    (i) => i._id === params.integrationId && i._environmentId === scope.environmentId && !i.deleted,
  )
  if (!target) throw new HttpError(404, `Integration ${params.integrationId} not found`)
  if (target.channel !== 'email' && target.channel !== 'sms')
    throw new HttpError(400, `Channel ${target.channel} does not support primary`)
  if (!(target.primary && target.active)) {
    for (const other of store.integrationList) {
      if (other !== target && other._environmentId === target._environmentId && other.channel === target.channel)
        other.primary = false
    }
    target.active = true
    target.primary = true
    target.conditions = []
  }
  return { status: 200, body: store.primaryIntegration(target) }
})

route('GET', '/v1/integrations/active', ({ store, scope }) => ({
  status: 200,
  body: store.integrationList
    .filter((i) => i._organizationId === scope.organizationId && i.active && !i.deleted)
    .map((i) => store.integration(i)),
}))

// ------------------------------------------------------------ 4.3 preferences (+ PATCH)

route('GET', '/v2/subscribers/:subscriberId/preferences', ({ env, params, query }) => {
  const issues = new Issues()
  const criticality =
    enumParam<Criticality>(query, 'criticality', ['critical', 'nonCritical', 'all'], issues) ?? 'nonCritical'
  issues.check()
  const sub = subscriberOr404(env, params.subscriberId as string)
  return { status: 200, body: preferencesOf(env, sub, criticality) }
})

route('PATCH', '/v2/subscribers/:subscriberId/preferences', ({ store, env, params, query, body }) => {
  const b = bodyObject(body)
  const issues = new Issues()
  const criticality =
    enumParam<Criticality>(query, 'criticality', ['critical', 'nonCritical', 'all'], issues) ?? 'nonCritical'
  for (const key of Object.keys(b)) {
    if (!['channels', 'workflowId', 'schedule'].includes(key)) issues.add(key, `${key} is not allowed`, b[key])
  }
  if (b.channels !== undefined) {
    if (!isObject(b.channels)) issues.add('channels', 'channels must be an object', b.channels)
    else
      for (const [channel, value] of Object.entries(b.channels)) {
        if (!(CHANNELS as readonly string[]).includes(channel))
          issues.add(`channels.${channel}`, `channel must be one of ${CHANNELS.join(', ')}`, value)
        else if (typeof value !== 'boolean') issues.add(`channels.${channel}`, 'must be a boolean', value)
      }
  }
  if (b.workflowId !== undefined && (typeof b.workflowId !== 'string' || b.workflowId === ''))
    issues.add('workflowId', 'workflowId must be a non-empty string', b.workflowId)
  if (b.schedule !== undefined) checkSchedule(b.schedule, issues)
  issues.check()
  if (b.schedule !== undefined && b.workflowId !== undefined)
    throw new HttpError(400, 'schedule is global: it cannot be set with workflowId')
  const sub = subscriberOr404(env, params.subscriberId as string)
  const channels = (b.channels ?? {}) as Record<string, boolean>
  if (typeof b.workflowId === 'string') {
    const id = b.workflowId
    const workflow = [...env.workflows.values()].find((w) => w._id === id || w.identifier === id || w.slug === id)
    if (!workflow) throw new HttpError(404, `Workflow ${id} not found`)
    if (workflow.critical)
      throw new HttpError(400, `Workflow ${workflow.identifier} is critical: its preferences cannot be changed`)
    sub.preferences.workflows.set(workflow._id, { ...sub.preferences.workflows.get(workflow._id), ...channels })
  } else {
    sub.preferences.channels = { ...sub.preferences.channels, ...channels }
    if (b.schedule !== undefined) sub.preferences.schedule = structuredClone(b.schedule) as never
  }
  sub.updatedAt = store.nowIso()
  return { status: 200, body: preferencesOf(env, sub, criticality) }
})

const CLOCK = /^(0?[1-9]|1[0-2]):[0-5]\d (AM|PM)$/

/** Keys of `o` outside `allowed` are refused, so that nothing but a schedule is kept. */
function onlyKeys(o: Record<string, unknown>, allowed: readonly string[], path: string, issues: Issues): void {
  for (const key of Object.keys(o))
    if (!allowed.includes(key)) issues.add(`${path}.${key}`, `${key} is not allowed`, o[key])
}

function checkSchedule(value: unknown, issues: Issues): void {
  if (!isObject(value)) return issues.add('schedule', 'schedule must be an object', value)
  onlyKeys(value, ['isEnabled', 'weeklySchedule'], 'schedule', issues)
  if (typeof value.isEnabled !== 'boolean') issues.add('schedule.isEnabled', 'must be a boolean', value.isEnabled)
  const week = value.weeklySchedule
  if (week === undefined) return
  if (!isObject(week)) return issues.add('schedule.weeklySchedule', 'must be an object', week)
  for (const [day, d] of Object.entries(week)) {
    const path = `schedule.weeklySchedule.${day}`
    if (!(WEEKDAYS as readonly string[]).includes(day)) {
      issues.add(path, `day must be one of ${WEEKDAYS.join(', ')}`, d)
      continue
    }
    if (!isObject(d)) {
      issues.add(path, 'must be an object', d)
      continue
    }
    onlyKeys(d, ['isEnabled', 'hours'], path, issues)
    if (typeof d.isEnabled !== 'boolean') issues.add(`${path}.isEnabled`, 'must be a boolean', d.isEnabled)
    if (d.hours === undefined) continue
    if (!Array.isArray(d.hours)) {
      issues.add(`${path}.hours`, 'must be an array', d.hours)
      continue
    }
    d.hours.forEach((range: unknown, i: number) => {
      if (isObject(range)) onlyKeys(range, ['start', 'end'], `${path}.hours[${i}]`, issues)
      for (const end of ['start', 'end'] as const) {
        const time = isObject(range) ? range[end] : undefined
        if (typeof time !== 'string' || !CLOCK.test(time))
          issues.add(`${path}.hours[${i}].${end}`, 'must be a time like 09:00 AM', time)
      }
    })
  }
}

// ------------------------------------------------------------ 4.4 feed

route('GET', '/v1/subscribers/:subscriberId/notifications/feed', ({ store, env, params, query, totalCount }) => {
  const issues = new Issues()
  const page = intParam(query, 'page', issues, 0, Number.MAX_SAFE_INTEGER, 0)
  const limit = intParam(query, 'limit', issues, 1, 100, 10)
  const read = boolParam(query, 'read', issues)
  const seen = boolParam(query, 'seen', issues)
  const rawPayload = single(query, 'payload', issues)
  issues.check()
  const filter = rawPayload === null ? undefined : decodePayloadFilter(rawPayload)
  const sub = subscriberOr404(env, params.subscriberId as string)
  const list = store.feedOf(env, sub).list(read, seen)
  const start = page * limit
  const data = []
  let total: number
  if (filter === undefined || Object.keys(filter).length === 0) {
    total = list.length
    for (let i = list.length - 1 - start; i >= 0 && data.length < limit; i--) data.push(list[i]!)
  } else {
    // A payload filter has no index: it scans this subscriber's (already read/seen-filtered) list.
    total = 0
    for (let i = list.length - 1; i >= 0; i--) {
      const m = list[i]!
      if (!matchesSubset(m.payload, filter)) continue
      if (total >= start && data.length < limit) data.push(m)
      total++
    }
  }
  return {
    status: 200,
    paginated: true,
    body: {
      ...(totalCount && { totalCount: total }),
      hasMore: total > start + limit,
      data: data.map((m) => store.feedItem(m, sub)),
      pageSize: data.length,
      page,
    },
  }
})

// ------------------------------------------------------------ 4.7 mark-as

route('POST', '/v1/subscribers/:subscriberId/messages/mark-as', ({ store, env, params, body }) => {
  const b = bodyObject(body)
  const issues = new Issues()
  let ids: string[] = []
  const raw = b.messageId
  if (typeof raw === 'string')
    ids = raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
  else if (Array.isArray(raw)) {
    raw.forEach((id, i) => {
      if (typeof id !== 'string' || id === '') issues.add(`messageId[${i}]`, 'must be a non-empty string', id)
      else ids.push(id)
    })
  } else if (raw !== undefined) issues.add('messageId', 'messageId must be a string or an array of strings', raw)
  if (ids.length === 0 && issues.empty) issues.add('messageId', 'messageId is required', raw)
  if (!(MARK_AS as readonly unknown[]).includes(b.markAs))
    issues.add('markAs', `markAs must be one of ${MARK_AS.join(', ')}`, b.markAs)
  issues.check()
  const sub = subscriberOr404(env, params.subscriberId as string)
  const markAs = b.markAs as MarkAs
  const now = store.nowIso()
  const feed = store.feedOf(env, sub)
  const out: Message[] = []
  for (const id of new Set(ids)) {
    const m = store.messageById.get(id)
    if (!m || m._subscriberId !== sub._id || m._environmentId !== env.id) continue
    const wasRead = m.read
    const wasSeen = m.seen
    if (markAs === 'read' || markAs === 'unread') {
      m.read = markAs === 'read'
      m.seen = true
      m.lastReadDate = now
    } else m.seen = markAs === 'seen'
    m.lastSeenDate = now
    m.updatedAt = now
    if (m.channel === 'in_app') {
      feed.move(m, wasRead, wasSeen)
      store.onMessageEvent?.('message.updated', m)
    }
    out.push(store.message(m, sub))
  }
  return { status: 201, body: out }
})

// ------------------------------------------------------------ 4.8 / 4.9 triggers

const MB = 1024 * KB

/** Spec 4.9: events per bulk trigger. */
export const MAX_BULK_EVENTS = 100

route(
  'POST',
  '/v1/events/trigger',
  ({ delivery, env, body }) => {
    const b = bodyObject(body)
    const issues = new Issues()
    checkTriggerBody(b, issues)
    issues.check()
    return { status: 201, body: delivery.trigger(env, b, true) }
  },
  MB,
)

route(
  'POST',
  '/v1/events/trigger/bulk',
  ({ delivery, env, body }) => {
    const b = bodyObject(body)
    const issues = new Issues()
    const events = b.events
    if (!Array.isArray(events)) issues.add('events', 'events must be an array', events)
    else if (events.length < 1 || events.length > MAX_BULK_EVENTS)
      issues.add('events', `events must hold 1 to ${MAX_BULK_EVENTS} events, got ${events.length}`, events.length)
    else
      events.forEach((event: unknown, i) => {
        checkTriggerBody(event, issues, `events[${i}]`)
        const context = isObject(event) ? event.context : undefined
        if (context !== undefined && !(isObject(context) && Object.values(context).every((v) => typeof v === 'string')))
          issues.add(`events[${i}].context`, 'context must map strings to strings', context)
      })
    issues.check()
    // One budget for the whole request: what does not fit is delivered after the answer, event by event.
    const budget = { left: SLICE }
    const results: TriggerResult[] = (events as Record<string, unknown>[]).map((event) => {
      try {
        return delivery.trigger(env, event, false, budget)
      } catch (error) {
        if (error instanceof HttpError) return { acknowledged: true, status: 'error', error: [error.message] }
        throw error
      }
    })
    return { status: 201, body: results }
  },
  MB,
)
