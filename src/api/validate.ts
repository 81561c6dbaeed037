import { ResponseShapeError } from './errors'

/**
 * Hand-written response guards. Each check throws a ResponseShapeError naming the first bad field.
 * They are strict on the required fields the kit relies on and tolerant of anything else:
 * extra fields pass, optional fields may be missing.
 */
export type Check = (value: unknown, path: string) => void

const fail = (path: string, expected: string, value: unknown): never => {
  throw new ResponseShapeError(path, expected, value)
}

const typed =
  (type: 'string' | 'boolean' | 'number'): Check =>
  (v, p) => {
    if (typeof v !== type) fail(p, type, v)
  }

const str = typed('string')
const bool = typed('boolean')
const num = typed('number')

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Any JSON object. */
const obj: Check = (v, p) => {
  if (!isObject(v)) fail(p, 'object', v)
}

/** `check` or absent (`undefined`). */
const opt =
  (check: Check): Check =>
  (v, p) => {
    if (v !== undefined) check(v, p)
  }

/** `check` or `null`. */
const nullable =
  (check: Check): Check =>
  (v, p) => {
    if (v !== null) check(v, p)
  }

/** An array whose every item passes `check`. */
const arr =
  (check: Check): Check =>
  (v, p) => {
    if (!Array.isArray(v)) return fail(p, 'array', v)
    v.forEach((item, i) => check(item, `${p}[${i}]`))
  }

/** An object whose listed fields pass their checks; other fields are not looked at. */
const shape =
  (fields: Record<string, Check>): Check =>
  (v, p) => {
    if (!isObject(v)) return fail(p, 'object', v)
    for (const key in fields) fields[key]!(v[key], p ? `${p}.${key}` : key)
  }

const optStr = /* @__PURE__ */ opt(nullable(str))

// §2.1–2.3
const topicSubscription = /* @__PURE__ */ shape({
  _id: str,
  topic: shape({ key: str, name: opt(str) }),
  subscriber: shape({ subscriberId: str, firstName: optStr, lastName: optStr, avatar: optStr, email: optStr }),
})

/** §4.6 */
export const cursorPage = /* @__PURE__ */ shape({
  data: arr(topicSubscription),
  next: nullable(str),
  previous: nullable(str),
})

/** §4.1 */
export const countedCursorPage: Check = (v, p) => {
  cursorPage(v, p)
  shape({ totalCount: num, totalCountCapped: bool })(v, p)
}

// §2.4
const integration = /* @__PURE__ */ shape({
  _id: opt(str),
  name: str,
  identifier: str,
  providerId: str,
  channel: str,
  active: bool,
  primary: bool,
  credentials: opt(obj),
  conditions: opt(arr(obj)),
})

/** §4.5 */
export const integrations = /* @__PURE__ */ arr(integration)
/** §4.2 */
export const primaryIntegration = integration

// §2.8
const preferenceChannels = /* @__PURE__ */ shape({
  email: opt(bool),
  sms: opt(bool),
  in_app: opt(bool),
  chat: opt(bool),
  push: opt(bool),
})

/** §4.3 and the preferences PATCH */
export const preferences = /* @__PURE__ */ shape({
  global: shape({ enabled: bool, channels: preferenceChannels, schedule: opt(shape({ isEnabled: bool })) }),
  workflows: arr(
    shape({
      enabled: bool,
      channels: preferenceChannels,
      overrides: opt(arr(shape({ channel: str, source: str }))),
      workflow: shape({ identifier: str, name: str }),
    }),
  ),
})

// §2.11
const cta = /* @__PURE__ */ shape({
  type: opt(str),
  data: opt(shape({ url: opt(str) })),
  action: opt(
    shape({
      status: opt(str),
      buttons: opt(arr(shape({ type: str, content: str, resultContent: opt(str) }))),
    }),
  ),
})

// §2.9
const feedItem = /* @__PURE__ */ shape({
  _id: str,
  content: str,
  read: bool,
  seen: bool,
  channel: str,
  status: str,
  cta,
  createdAt: optStr,
  subject: optStr,
  actor: opt(shape({ data: nullable(str), type: str })),
  subscriber: opt(shape({ subscriberId: str, firstName: optStr, lastName: optStr, avatar: optStr })),
  payload: opt(obj),
})

/** §4.4 */
export const feedPage = /* @__PURE__ */ shape({
  data: arr(feedItem),
  hasMore: bool,
  totalCount: opt(num),
  pageSize: opt(num),
  page: opt(num),
})

/** §4.7 */
export const messages = /* @__PURE__ */ arr(shape({ _id: opt(str), read: bool, seen: bool }))

// §2.13
const triggerResult = /* @__PURE__ */ shape({
  acknowledged: bool,
  status: str,
  error: opt(arr(str)),
  transactionId: opt(str),
})

/** §4.8 */
export const trigger = triggerResult
/** §4.9 */
export const bulkTrigger = /* @__PURE__ */ arr(triggerResult)
