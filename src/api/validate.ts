import { ResponseShapeError } from './errors'

/**
 * Hand-written response guards. Each check throws a ResponseShapeError naming the first bad field.
 * They are strict on the required fields the kit relies on and tolerant of anything else:
 * extra fields pass, optional fields may be missing.
 */
export type Check = (value: unknown, path: string) => void

/**
 * A shape written as data, read like a TypeScript type:
 * - `'string'`, `'boolean'`, `'number'`: that `typeof`; `'string|null'` takes `null` too;
 * - `[item]`: an array whose every item is `item`;
 * - `{ key: spec, 'key?': spec }`: an object whose listed fields are their spec, a `?` field may be absent
 *   (`undefined`); other fields are not looked at, so `{}` is any object.
 *
 * Data rather than nested calls of combinators: an object literal is free of side effects, so a bundler drops
 * the shapes of the operations an app never calls (the back-office ones in the inbox), and it is smaller.
 */
type Spec = 'string' | 'boolean' | 'number' | 'string|null' | [Spec] | { [key: string]: Spec }

/** The type of `x` in the words of a spec: arrays and `null` are not taken for objects. */
const kind = (x: unknown) => (Array.isArray(x) ? 'array' : x === null ? 'null' : typeof x)

/** The check of `spec`. */
const is =
  (spec: Spec): Check =>
  (v, p) => {
    // The types the spec allows; the first one is named in the error.
    const types = typeof spec === 'string' ? spec.split('|') : [kind(spec)]
    if (!types.includes(kind(v))) throw new ResponseShapeError(p, types[0]!, v)
    if (Array.isArray(spec)) (v as unknown[]).forEach((item, i) => is(spec[0])(item, `${p}[${i}]`))
    else if (typeof spec === 'object')
      for (const k in spec) {
        const key = k.replace('?', '')
        const value = (v as Record<string, unknown>)[key]
        if (key === k || value !== undefined) is(spec[k]!)(value, p ? `${p}.${key}` : key)
      }
  }

// §2.1–2.3
const topicSubscription: Spec = {
  _id: 'string',
  topic: { key: 'string', 'name?': 'string' },
  subscriber: {
    subscriberId: 'string',
    'firstName?': 'string|null',
    'lastName?': 'string|null',
    'avatar?': 'string|null',
    'email?': 'string|null',
  },
}

/** §4.6 */
export const cursorPage = /* @__PURE__ */ is({
  data: [topicSubscription],
  next: 'string|null',
  previous: 'string|null',
})

/** §4.1 */
export const countedCursorPage = /* @__PURE__ */ is({
  data: [topicSubscription],
  next: 'string|null',
  previous: 'string|null',
  totalCount: 'number',
  totalCountCapped: 'boolean',
})

// §2.4
const integration: Spec = {
  '_id?': 'string',
  name: 'string',
  identifier: 'string',
  providerId: 'string',
  channel: 'string',
  active: 'boolean',
  primary: 'boolean',
  'credentials?': {},
  'conditions?': [{}],
}

/** §4.5 */
export const integrations = /* @__PURE__ */ is([integration])
/** §4.2 */
export const primaryIntegration = /* @__PURE__ */ is(integration)

// §2.8
const preferenceChannels: Spec = {
  'email?': 'boolean',
  'sms?': 'boolean',
  'in_app?': 'boolean',
  'chat?': 'boolean',
  'push?': 'boolean',
}

/** §4.3 and the preferences PATCH */
export const preferences = /* @__PURE__ */ is({
  global: { enabled: 'boolean', channels: preferenceChannels, 'schedule?': { isEnabled: 'boolean' } },
  workflows: [
    {
      enabled: 'boolean',
      channels: preferenceChannels,
      'overrides?': [{ channel: 'string', source: 'string' }],
      workflow: { identifier: 'string', name: 'string' },
    },
  ],
})

// §2.11
const cta: Spec = {
  'type?': 'string',
  'data?': { 'url?': 'string' },
  'action?': {
    'status?': 'string',
    'buttons?': [{ type: 'string', content: 'string', 'resultContent?': 'string' }],
  },
}

// §2.9
const feedItem: Spec = {
  _id: 'string',
  content: 'string',
  read: 'boolean',
  seen: 'boolean',
  channel: 'string',
  status: 'string',
  cta,
  'createdAt?': 'string|null',
  'subject?': 'string|null',
  'actor?': { data: 'string|null', type: 'string' },
  'subscriber?': {
    subscriberId: 'string',
    'firstName?': 'string|null',
    'lastName?': 'string|null',
    'avatar?': 'string|null',
  },
  'payload?': {},
}

/** §4.4 */
export const feedPage = /* @__PURE__ */ is({
  data: [feedItem],
  hasMore: 'boolean',
  'totalCount?': 'number',
  'pageSize?': 'number',
  'page?': 'number',
})

/** §4.7 */
export const messages = /* @__PURE__ */ is([{ '_id?': 'string', read: 'boolean', seen: 'boolean' }])

// §2.13
const triggerResult: Spec = {
  acknowledged: 'boolean',
  status: 'string',
  'error?': ['string'],
  'transactionId?': 'string',
}

/** §4.8 */
export const trigger = /* @__PURE__ */ is(triggerResult)
/** §4.9 */
export const bulkTrigger = /* @__PURE__ */ is([triggerResult])
