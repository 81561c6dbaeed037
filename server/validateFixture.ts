import { CHANNELS } from '../src/api/types'
import { FixtureError, type Fixture } from './fixture'
import { MAX_JSON_DEPTH, findTooDeep } from './http'

const STEP_CHANNELS = [...CHANNELS, 'delay']
const UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months']
const ACTOR_TYPES = ['none', 'user', 'system_icon', 'system_custom']
const STATUSES = ['sent', 'error', 'warning']
const BUTTON_TYPES = ['primary', 'secondary']
const WEEKDAY_KEYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
const CLOCK = /^(0?[1-9]|1[0-2]):[0-5]\d (AM|PM)$/

type Obj = Record<string, unknown>

function fail(path: string, problem: string): never {
  throw new FixtureError(path, problem)
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return `a ${typeof value}`
}

function object(value: unknown, path: string, keys: readonly string[]): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(path, `expected an object, got ${describe(value)}`)
  for (const key of Object.keys(value)) {
    if (!keys.includes(key)) fail(join(path, key), `unknown field (expected one of ${keys.join(', ')})`)
  }
  return value as Obj
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`
  return path ? `${path}.${key}` : key
}

function string(o: Obj, key: string, path: string, required = false): string | undefined {
  const value = o[key]
  if (value === undefined) {
    if (required) fail(join(path, key), 'required')
    return undefined
  }
  if (typeof value !== 'string') fail(join(path, key), `expected a string, got ${describe(value)}`)
  if (required && value === '') fail(join(path, key), 'must not be empty')
  return value
}

function boolean(o: Obj, key: string, path: string): void {
  const value = o[key]
  if (value !== undefined && typeof value !== 'boolean')
    fail(join(path, key), `expected a boolean, got ${describe(value)}`)
}

function oneOf(o: Obj, key: string, path: string, allowed: readonly string[], required = false): string | undefined {
  const value = o[key]
  if (value === undefined) {
    if (required) fail(join(path, key), `required (one of ${allowed.join(', ')})`)
    return undefined
  }
  if (typeof value !== 'string' || !allowed.includes(value))
    fail(join(path, key), `expected one of ${allowed.join(', ')}`)
  return value
}

function array(o: Obj, key: string, path: string, required = false): unknown[] {
  const value = o[key]
  if (value === undefined) {
    if (required) fail(join(path, key), 'required')
    return []
  }
  if (!Array.isArray(value)) fail(join(path, key), `expected an array, got ${describe(value)}`)
  return value
}

function plainObject(o: Obj, key: string, path: string): void {
  const value = o[key]
  if (value === undefined) return
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(join(path, key), `expected an object, got ${describe(value)}`)
  shallow(o, key, path)
}

/** Free-form JSON may nest as deep as a trigger's payload may, so every page that shows it can be served. */
function shallow(o: Obj, key: string, path: string): void {
  const allowed = MAX_JSON_DEPTH - 1
  if (findTooDeep(o[key], allowed))
    fail(join(path, key), `must not nest objects and arrays more than ${allowed} levels deep`)
}

function timestamp(o: Obj, key: string, path: string, required = false): void {
  const value = string(o, key, path, required)
  if (value !== undefined && Number.isNaN(Date.parse(value))) fail(join(path, key), 'expected an ISO 8601 timestamp')
}

function channels(o: Obj, key: string, path: string): void {
  const value = o[key]
  if (value === undefined) return
  const c = object(value, join(path, key), CHANNELS)
  for (const channel of CHANNELS) boolean(c, channel, join(path, key))
}

function schedule(value: unknown, path: string): void {
  const s = object(value, path, ['isEnabled', 'weeklySchedule'])
  if (typeof s.isEnabled !== 'boolean') fail(join(path, 'isEnabled'), 'expected a boolean')
  if (s.weeklySchedule === undefined) return
  const week = object(s.weeklySchedule, join(path, 'weeklySchedule'), WEEKDAY_KEYS)
  for (const day of WEEKDAY_KEYS) {
    if (week[day] === undefined) continue
    const dayPath = join(join(path, 'weeklySchedule'), day)
    const d = object(week[day], dayPath, ['isEnabled', 'hours'])
    if (typeof d.isEnabled !== 'boolean') fail(join(dayPath, 'isEnabled'), 'expected a boolean')
    array(d, 'hours', dayPath).forEach((range, i) => {
      const rangePath = join(join(dayPath, 'hours'), i)
      const r = object(range, rangePath, ['start', 'end'])
      for (const end of ['start', 'end']) {
        const time = string(r, end, rangePath, true)
        if (!CLOCK.test(time ?? '')) fail(join(rangePath, end), 'expected a time like 09:00 AM')
      }
    })
  }
}

function cta(value: unknown, path: string): void {
  const c = object(value, path, ['type', 'data', 'action'])
  oneOf(c, 'type', path, ['redirect'])
  if (c.data !== undefined) string(object(c.data, join(path, 'data'), ['url']), 'url', join(path, 'data'))
  if (c.action !== undefined) {
    const actionPath = join(path, 'action')
    const a = object(c.action, actionPath, ['status', 'buttons', 'result'])
    oneOf(a, 'status', actionPath, ['pending', 'done'])
    buttons(a, actionPath)
    if (a.result !== undefined) {
      const r = object(a.result, join(actionPath, 'result'), ['payload', 'type'])
      plainObject(r, 'payload', join(actionPath, 'result'))
      oneOf(r, 'type', join(actionPath, 'result'), BUTTON_TYPES)
    }
  }
}

function buttons(o: Obj, path: string): void {
  array(o, 'buttons', path).forEach((button, i) => {
    const buttonPath = join(join(path, 'buttons'), i)
    const b = object(button, buttonPath, ['type', 'content', 'resultContent'])
    oneOf(b, 'type', buttonPath, BUTTON_TYPES, true)
    string(b, 'content', buttonPath, true)
    string(b, 'resultContent', buttonPath)
  })
}

/**
 * Checks `value` against the fixture schema (server/FIXTURES.md), including references between
 * its parts, and returns it typed. Throws {@link FixtureError} naming the first bad field.
 */
export function validateFixture(value: unknown): Fixture {
  const root = object(value, '', [
    'apiKeys',
    'workflows',
    'subscribers',
    'topics',
    'integrations',
    'tenants',
    'messages',
  ])

  const keys = array(root, 'apiKeys', '', true)
  if (keys.length === 0) fail('apiKeys', 'at least one API key is required')
  const environments = new Map<string, string>()
  const seenKeys = new Set<string>()
  keys.forEach((entry, i) => {
    const path = `apiKeys[${i}]`
    const k = object(entry, path, ['key', 'organizationId', 'environmentId', 'environmentName'])
    const key = string(k, 'key', path, true) as string
    const organizationId = string(k, 'organizationId', path, true) as string
    const environmentId = string(k, 'environmentId', path, true) as string
    string(k, 'environmentName', path)
    if (seenKeys.has(key)) fail(join(path, 'key'), `duplicate key ${key}`)
    seenKeys.add(key)
    const owner = environments.get(environmentId)
    if (owner !== undefined && owner !== organizationId)
      fail(join(path, 'environmentId'), `environment ${environmentId} already belongs to organization ${owner}`)
    environments.set(environmentId, organizationId)
  })
  const defaultEnvironment = (keys[0] as Obj).environmentId as string

  const environmentOf = (o: Obj, path: string): string => {
    const env = string(o, 'environmentId', path) ?? defaultEnvironment
    if (!environments.has(env)) fail(join(path, 'environmentId'), `unknown environment ${env} (no API key selects it)`)
    return env
  }

  const workflowIds = new Set<string>()
  array(root, 'workflows', '').forEach((entry, i) => {
    const path = `workflows[${i}]`
    const w = object(entry, path, [
      'identifier',
      'name',
      'slug',
      'description',
      'environmentId',
      'active',
      'critical',
      'preferenceSettings',
      'tags',
      'steps',
      'updatedAt',
    ])
    const identifier = string(w, 'identifier', path, true) as string
    string(w, 'name', path, true)
    string(w, 'slug', path)
    string(w, 'description', path)
    const env = environmentOf(w, path)
    boolean(w, 'active', path)
    boolean(w, 'critical', path)
    channels(w, 'preferenceSettings', path)
    array(w, 'tags', path).forEach((tag, t) => {
      if (typeof tag !== 'string') fail(`${path}.tags[${t}]`, 'expected a string')
    })
    timestamp(w, 'updatedAt', path)
    if (workflowIds.has(`${env}/${identifier}`)) fail(join(path, 'identifier'), `duplicate workflow ${identifier}`)
    workflowIds.add(`${env}/${identifier}`)
    array(w, 'steps', path, true).forEach((step, s) => {
      const stepPath = `${path}.steps[${s}]`
      const st = object(step, stepPath, [
        'channel',
        'name',
        'active',
        'subject',
        'content',
        'avatar',
        'cta',
        'amount',
        'unit',
      ])
      const channel = oneOf(st, 'channel', stepPath, STEP_CHANNELS, true)
      string(st, 'name', stepPath)
      boolean(st, 'active', stepPath)
      string(st, 'subject', stepPath)
      string(st, 'content', stepPath)
      string(st, 'avatar', stepPath)
      if (st.cta !== undefined) {
        const c = object(st.cta, join(stepPath, 'cta'), ['url', 'buttons'])
        string(c, 'url', join(stepPath, 'cta'))
        buttons(c, join(stepPath, 'cta'))
      }
      if (channel === 'delay') {
        if (typeof st.amount !== 'number' || !(st.amount >= 0))
          fail(join(stepPath, 'amount'), 'a delay step needs a number >= 0')
        oneOf(st, 'unit', stepPath, UNITS, true)
      } else if (st.amount !== undefined || st.unit !== undefined) {
        fail(join(stepPath, st.amount !== undefined ? 'amount' : 'unit'), 'only delay steps take amount and unit')
      }
      if (channel !== 'delay' && channel !== 'in_app' && (st.cta !== undefined || st.avatar !== undefined))
        fail(join(stepPath, st.cta !== undefined ? 'cta' : 'avatar'), 'only in_app steps take cta and avatar')
    })
  })

  const subscriberIds = new Set<string>()
  array(root, 'subscribers', '').forEach((entry, i) => {
    const path = `subscribers[${i}]`
    const s = object(entry, path, [
      'subscriberId',
      'firstName',
      'lastName',
      'email',
      'phone',
      'avatar',
      'locale',
      'timezone',
      'data',
      'environmentId',
      'createdAt',
      'preferences',
    ])
    const id = string(s, 'subscriberId', path, true) as string
    if (!/^[\x21-\x7e]{1,255}$/.test(id))
      fail(join(path, 'subscriberId'), 'expected 1-255 printable characters without spaces')
    for (const key of ['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone']) string(s, key, path)
    plainObject(s, 'data', path)
    timestamp(s, 'createdAt', path)
    const env = environmentOf(s, path)
    if (subscriberIds.has(`${env}/${id}`)) fail(join(path, 'subscriberId'), `duplicate subscriber ${id}`)
    subscriberIds.add(`${env}/${id}`)
    if (s.preferences !== undefined) {
      const prefPath = join(path, 'preferences')
      const p = object(s.preferences, prefPath, ['channels', 'schedule', 'workflows'])
      channels(p, 'channels', prefPath)
      if (p.schedule !== undefined) schedule(p.schedule, join(prefPath, 'schedule'))
      if (p.workflows !== undefined) {
        const byWorkflow = object(p.workflows, join(prefPath, 'workflows'), Object.keys(p.workflows as Obj))
        for (const workflowId of Object.keys(byWorkflow)) {
          if (!workflowIds.has(`${env}/${workflowId}`))
            fail(join(join(prefPath, 'workflows'), workflowId), `unknown workflow ${workflowId}`)
          channels(byWorkflow, workflowId, join(prefPath, 'workflows'))
        }
      }
    }
  })

  const topicKeys = new Set<string>()
  array(root, 'topics', '').forEach((entry, i) => {
    const path = `topics[${i}]`
    const t = object(entry, path, ['key', 'name', 'environmentId', 'subscribers'])
    const key = string(t, 'key', path, true) as string
    string(t, 'name', path)
    const env = environmentOf(t, path)
    if (topicKeys.has(`${env}/${key}`)) fail(join(path, 'key'), `duplicate topic ${key}`)
    topicKeys.add(`${env}/${key}`)
    const members = new Set<string>()
    array(t, 'subscribers', path).forEach((id, s) => {
      const memberPath = `${path}.subscribers[${s}]`
      if (typeof id !== 'string') fail(memberPath, 'expected a subscriberId string')
      if (!subscriberIds.has(`${env}/${id}`)) fail(memberPath, `unknown subscriber ${id}`)
      if (members.has(id)) fail(memberPath, `duplicate subscriber ${id}`)
      members.add(id)
    })
  })

  const integrationIds = new Set<string>()
  array(root, 'integrations', '').forEach((entry, i) => {
    const path = `integrations[${i}]`
    const it = object(entry, path, [
      'name',
      'identifier',
      'providerId',
      'channel',
      'environmentId',
      'active',
      'primary',
      'credentials',
      'conditions',
    ])
    string(it, 'name', path, true)
    const identifier = string(it, 'identifier', path, true) as string
    string(it, 'providerId', path, true)
    const channel = oneOf(it, 'channel', path, CHANNELS, true)
    environmentOf(it, path)
    boolean(it, 'active', path)
    boolean(it, 'primary', path)
    if (it.primary === true && channel !== 'email' && channel !== 'sms')
      fail(join(path, 'primary'), `channel ${channel} does not support primary`)
    plainObject(it, 'credentials', path)
    array(it, 'conditions', path)
    shallow(it, 'conditions', path)
    if (integrationIds.has(identifier)) fail(join(path, 'identifier'), `duplicate integration ${identifier}`)
    integrationIds.add(identifier)
  })

  const tenantIds = new Set<string>()
  array(root, 'tenants', '').forEach((entry, i) => {
    const path = `tenants[${i}]`
    const t = object(entry, path, ['identifier', 'name', 'data', 'environmentId'])
    const identifier = string(t, 'identifier', path, true) as string
    string(t, 'name', path)
    plainObject(t, 'data', path)
    const env = environmentOf(t, path)
    if (tenantIds.has(`${env}/${identifier}`)) fail(join(path, 'identifier'), `duplicate tenant ${identifier}`)
    tenantIds.add(`${env}/${identifier}`)
  })

  array(root, 'messages', '').forEach((entry, i) => {
    const path = `messages[${i}]`
    const m = object(entry, path, [
      'subscriberId',
      'workflow',
      'environmentId',
      'channel',
      'createdAt',
      'content',
      'subject',
      'read',
      'seen',
      'actor',
      'cta',
      'payload',
      'status',
      'transactionId',
    ])
    const env = environmentOf(m, path)
    const subscriberId = string(m, 'subscriberId', path, true) as string
    if (!subscriberIds.has(`${env}/${subscriberId}`))
      fail(join(path, 'subscriberId'), `unknown subscriber ${subscriberId}`)
    const workflowId = string(m, 'workflow', path, true) as string
    if (!workflowIds.has(`${env}/${workflowId}`)) fail(join(path, 'workflow'), `unknown workflow ${workflowId}`)
    oneOf(m, 'channel', path, CHANNELS)
    timestamp(m, 'createdAt', path, true)
    string(m, 'content', path, true)
    string(m, 'subject', path)
    boolean(m, 'read', path)
    boolean(m, 'seen', path)
    if (m.actor !== undefined) {
      const a = object(m.actor, join(path, 'actor'), ['type', 'data'])
      oneOf(a, 'type', join(path, 'actor'), ACTOR_TYPES, true)
      if (a.data !== null && typeof a.data !== 'string') fail(join(path, 'actor.data'), 'expected a string or null')
    }
    if (m.cta !== undefined) {
      shallow(m, 'cta', path)
      cta(m.cta, join(path, 'cta'))
    }
    plainObject(m, 'payload', path)
    oneOf(m, 'status', path, STATUSES)
    string(m, 'transactionId', path)
  })

  return value as Fixture
}
