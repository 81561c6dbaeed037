import type { Actor, JsonObject, MessageCta, TriggerResult } from '../src/api/types'
import { HttpError, Issues } from './http'
import { uuid } from './ids'
import { channelEnabled } from './preferences'
import type { Environment, Store, SubscriberFields } from './store'
import type { IntegrationRecord, StepRecord, SubscriberRecord, TenantRecord, WorkflowRecord } from './types'

// `.` and `..` would be made and never read again: every URL that names them is normalised away.
const SUBSCRIBER_ID = /^(?!\.\.?$)[^\s\p{C}]{1,255}$/u
const UNIT_MS: Record<string, number> = {
  seconds: 1_000,
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
  weeks: 604_800_000,
  months: 2_592_000_000,
}

type Obj = Record<string, unknown>

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The longest delay setTimeout keeps (about 24.8 days): a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1

type Job = { dueAt: number; run: () => void; timer: ReturnType<typeof setTimeout> }

/** Runs delayed work on real timers; `runDue()` runs whatever is due now at once. */
export class Scheduler {
  private readonly jobs = new Set<Job>()

  constructor(private readonly clock: () => number) {}

  schedule(delayMs: number, run: () => void): void {
    const job = { dueAt: this.clock() + delayMs, run, timer: undefined as unknown as ReturnType<typeof setTimeout> }
    this.jobs.add(job)
    this.arm(job, delayMs)
  }

  /** Sets the job's timer; a delay longer than one timer holds (a month's delay step) is waited out in parts. */
  private arm(job: Job, delayMs: number): void {
    job.timer = setTimeout(
      () => {
        if (delayMs <= MAX_TIMER_MS) this.fire(job)
        else if (this.jobs.has(job)) this.arm(job, delayMs - MAX_TIMER_MS)
      },
      Math.min(delayMs, MAX_TIMER_MS),
    )
    // A pending delay must not keep a test run or a script alive.
    const timer = job.timer as unknown as { unref?: () => void }
    timer.unref?.()
  }

  private fire(job: Job): void {
    if (!this.jobs.delete(job)) return
    clearTimeout(job.timer)
    job.run()
  }

  /** Runs the jobs due by the clock now; answers how many ran. */
  runDue(): number {
    const now = this.clock()
    const due = [...this.jobs].filter((j) => j.dueAt <= now)
    for (const job of due) this.fire(job)
    return due.length
  }
}

/**
 * Units of delivery work (a recipient created or updated, a message delivered, 64 topic members listed) done
 * before a trigger answers, and in each later slice: small enough that a light request waits a few ms at most.
 */
export const SLICE = 256

/** What is left of the units one request or one slice may spend. */
export interface Budget {
  left: number
}

type Work = Generator<void, void, void>

const nextTurn: (run: () => void) => void =
  typeof setImmediate === 'function' ? (run) => void setImmediate(run) : (run) => void setTimeout(run, 0)

/** Checks the shape of a trigger body; problems go to `issues` under `prefix`. */
export function checkTriggerBody(body: unknown, issues: Issues, prefix = ''): void {
  const at = (key: string) => (prefix ? `${prefix}.${key}` : key)
  if (!isObject(body)) {
    issues.add(prefix || 'body', 'must be an object', body)
    return
  }
  if (typeof body.name !== 'string' || body.name.trim() === '')
    issues.add(at('name'), 'name must be a non-empty string', body.name)
  const to = body.to
  if (to === undefined || to === null) issues.add(at('to'), 'to is required', to)
  else if (typeof to !== 'string' && typeof to !== 'object')
    issues.add(at('to'), 'to must be a string, an object or an array', to)
  else if (Array.isArray(to)) to.forEach((item, i) => checkRecipient(item, issues, at(`to[${i}]`)))
  else checkRecipient(to, issues, at('to'))
  for (const key of ['payload', 'overrides'] as const) {
    if (body[key] !== undefined && !isObject(body[key])) issues.add(at(key), `${key} must be an object`, body[key])
  }
  if (body.transactionId !== undefined && (typeof body.transactionId !== 'string' || body.transactionId === ''))
    issues.add(at('transactionId'), 'transactionId must be a non-empty string', body.transactionId)
  const actor = body.actor
  if (
    actor !== undefined &&
    !(typeof actor === 'string' && SUBSCRIBER_ID.test(actor)) &&
    !(isObject(actor) && typeof actor.subscriberId === 'string' && SUBSCRIBER_ID.test(actor.subscriberId))
  )
    issues.add(at('actor'), 'actor must be a subscriberId or an object with a subscriberId', actor)
  const tenant = body.tenant
  if (
    tenant !== undefined &&
    !(typeof tenant === 'string' && tenant !== '') &&
    !(isObject(tenant) && typeof tenant.identifier === 'string' && tenant.identifier !== '')
  )
    issues.add(at('tenant'), 'tenant must be an identifier or an object with an identifier', tenant)
  if (isObject(actor)) checkSubscriberFields(actor, issues, at('actor'))
  if (isObject(tenant)) {
    if (tenant.name !== undefined && typeof tenant.name !== 'string')
      issues.add(at('tenant.name'), 'must be a string', tenant.name)
    if (tenant.data !== undefined && !isObject(tenant.data))
      issues.add(at('tenant.data'), 'must be an object', tenant.data)
  }
}

const SUBSCRIBER_FIELDS = ['email', 'firstName', 'lastName', 'phone', 'avatar', 'locale', 'timezone'] as const

/**
 * One recipient's JSON types: a subscriberId, a subscriber object or a topic object. Which of them name someone
 * (an id's form, a topic that exists) is the trigger's `invalid_recipients`, not a validation error.
 */
function checkRecipient(item: unknown, issues: Issues, path: string): void {
  if (typeof item === 'string') return
  if (!isObject(item)) {
    issues.add(path, 'must be a subscriberId, a subscriber object or a topic object', item)
    return
  }
  if (item.type === 'Topic') {
    if (typeof item.topicKey !== 'string') issues.add(`${path}.topicKey`, 'must be a string', item.topicKey)
    const exclude = item.exclude
    if (exclude !== undefined && !(Array.isArray(exclude) && exclude.every((x) => typeof x === 'string')))
      issues.add(`${path}.exclude`, 'must be an array of subscriberIds', exclude)
    return
  }
  if (item.subscriberId !== undefined && typeof item.subscriberId !== 'string')
    issues.add(`${path}.subscriberId`, 'must be a string', item.subscriberId)
  checkSubscriberFields(item, issues, path)
}

/**
 * A subscriber object's own fields (spec 2.12): strings (or null, left as they are), `data` an object of strings,
 * and `channels` provider settings. Channels are not kept, but one of the wrong shape is refused rather than dropped
 * without a word, as a device token sent as a number would be.
 */
function checkSubscriberFields(o: Obj, issues: Issues, path: string): void {
  for (const key of SUBSCRIBER_FIELDS)
    if (o[key] != null && typeof o[key] !== 'string') issues.add(`${path}.${key}`, 'must be a string', o[key])
    // An avatar may be a data: URL; the others are names, addresses and codes.
    else if (key !== 'avatar' && typeof o[key] === 'string' && o[key].length > 255)
      issues.add(`${path}.${key}`, `${key} must be at most 255 characters`, `${o[key].slice(0, 32)}…`)
  if (o.data != null) {
    if (!isObject(o.data)) issues.add(`${path}.data`, 'must be an object', o.data)
    else
      for (const [key, value] of Object.entries(o.data))
        if (typeof value !== 'string') issues.add(`${path}.data.${key}`, 'must be a string', value)
  }
  if (o.channels != null) checkChannels(o.channels, issues, `${path}.channels`)
}

function checkChannels(channels: unknown, issues: Issues, path: string): void {
  if (!Array.isArray(channels)) return issues.add(path, 'must be an array', channels)
  channels.forEach((channel: unknown, i) => {
    const at = `${path}[${i}]`
    if (!isObject(channel)) return issues.add(at, 'must be an object', channel)
    if (typeof channel.providerId !== 'string' || channel.providerId === '')
      issues.add(`${at}.providerId`, 'must be a non-empty string', channel.providerId)
    if (channel.integrationIdentifier !== undefined && typeof channel.integrationIdentifier !== 'string')
      issues.add(`${at}.integrationIdentifier`, 'must be a string', channel.integrationIdentifier)
    const credentials = channel.credentials
    if (!isObject(credentials)) return issues.add(`${at}.credentials`, 'must be an object', credentials)
    if (credentials.webhookUrl !== undefined && typeof credentials.webhookUrl !== 'string')
      issues.add(`${at}.credentials.webhookUrl`, 'must be a string', credentials.webhookUrl)
    const tokens = credentials.deviceTokens
    if (tokens !== undefined && !(Array.isArray(tokens) && tokens.every((t) => typeof t === 'string')))
      issues.add(`${at}.credentials.deviceTokens`, 'must be an array of strings', tokens)
  })
}

function subscriberFields(o: Obj): SubscriberFields {
  const fields: SubscriberFields = {}
  for (const key of SUBSCRIBER_FIELDS) {
    if (typeof o[key] === 'string') fields[key] = o[key] as string
  }
  if (isObject(o.data)) fields.data = o.data as JsonObject
  return fields
}

/** Fills `{{root.path}}` variables; unknown ones become empty. */
function render(template: string, scope: Obj): string {
  return template.replace(/\{\{\s*([\w$.-]+)\s*\}\}/g, (_, path: string) => {
    let value: unknown = scope
    // Own fields only, so `{{payload.constructor}}` is unknown rather than a function's source.
    for (const part of path.split('.')) value = isObject(value) && Object.hasOwn(value, part) ? value[part] : undefined
    if (value === undefined || value === null) return ''
    return typeof value === 'object' ? JSON.stringify(value) : String(value)
  })
}

/** Triggers workflows and delivers their steps. */
export class Delivery {
  /** Accepted triggers (and delayed steps now due) not yet delivered, oldest first. */
  private readonly pending: Work[] = []
  private woken = false

  constructor(
    private readonly store: Store,
    private readonly scheduler: Scheduler,
  ) {}

  /**
   * Runs one (already shape-checked) trigger. An unknown workflow throws a 422 when `single`,
   * else it is an error result. Up to `budget` units are delivered before this returns; the rest follows in
   * slices that yield to the event loop, so a trigger to a large topic never stalls other requests for long.
   */
  trigger(env: Environment, body: Obj, single: boolean, budget: Budget = { left: SLICE }): TriggerResult {
    const name = body.name as string
    const workflow = env.workflows.get(name)
    if (!workflow) {
      if (single) {
        throw new HttpError(422, 'workflow_not_found', { name: { messages: ['workflow_not_found'], value: name } })
      }
      return { acknowledged: true, status: 'error', error: ['workflow_not_found'] }
    }
    let tenant: TenantRecord | undefined
    if (body.tenant !== undefined) {
      const t = body.tenant
      const identifier = typeof t === 'string' ? t : ((t as Obj).identifier as string)
      tenant = env.tenants.get(identifier)
      if (!tenant) return { acknowledged: true, status: 'no_tenant_found', error: [`Tenant ${identifier} not found`] }
    }
    if (!workflow.active) return { acknowledged: true, status: 'trigger_not_active' }
    if (workflow.steps.length === 0) return { acknowledged: true, status: 'no_workflow_steps_defined' }
    if (!workflow.steps.some((s) => s.active && s.channel !== 'delay'))
      return { acknowledged: true, status: 'no_workflow_active_steps_defined' }
    if (!this.hasRecipient(env, body.to))
      return { acknowledged: true, status: 'invalid_recipients', error: ['No valid recipients'] }
    const actor = this.actor(env, body.actor)
    // Only a trigger that goes ahead updates its tenant: one refused above changes nothing.
    if (tenant && isObject(body.tenant)) {
      const t = body.tenant
      if (typeof t.name === 'string') tenant.name = t.name
      if (isObject(t.data)) tenant.data = t.data as JsonObject
      tenant.updatedAt = this.store.nowIso()
    }
    const transactionId = typeof body.transactionId === 'string' ? body.transactionId : uuid()
    const run = {
      env,
      workflow,
      payload: (isObject(body.payload) ? body.payload : {}) as JsonObject,
      overrides: (isObject(body.overrides) ? body.overrides : {}) as JsonObject,
      transactionId,
      actor,
      tenant,
    }
    const work = this.deliverAll(run, body.to)
    if (!advance(work, budget)) this.enqueue(work)
    return { acknowledged: true, status: 'processed', transactionId }
  }

  /** Delivers everything accepted so far and every delayed step due by the clock now. */
  async settle(): Promise<void> {
    for (;;) {
      await Promise.resolve()
      while (this.pending.length > 0) this.runSafely(this.pending[0]!, { left: Infinity })
      if (this.scheduler.runDue() === 0 && this.pending.length === 0) return
    }
  }

  private enqueue(work: Work): void {
    this.pending.push(work)
    this.wake()
  }

  private wake(): void {
    if (this.woken || this.pending.length === 0) return
    this.woken = true
    nextTurn(() => {
      this.woken = false
      const budget = { left: SLICE }
      while (budget.left > 0 && this.pending.length > 0) this.runSafely(this.pending[0]!, budget)
      this.wake()
    })
  }

  /** Advances the oldest work within `budget`, dropping it once done or broken (there is no request to fail). */
  private runSafely(work: Work, budget: Budget): void {
    let done = true
    try {
      done = advance(work, budget)
    } catch (error) {
      console.error('[inbox-kit service] delivery failed', error)
    }
    if (done) this.pending.shift()
  }

  /** Whether `to` names at least one recipient, without creating anyone. */
  private hasRecipient(env: Environment, to: unknown): boolean {
    for (const item of Array.isArray(to) ? to : [to]) {
      if (typeof item === 'string') {
        if (SUBSCRIBER_ID.test(item)) return true
      } else if (isObject(item) && item.type === 'Topic') {
        const topic = typeof item.topicKey === 'string' ? this.store.topicState(env, item.topicKey) : undefined
        if (!topic) continue
        const exclude = excluded(item)
        if (topic.subscriptions.some((s) => !exclude.has(s.subscriber.subscriberId))) return true
      } else if (isObject(item) && typeof item.subscriberId === 'string' && SUBSCRIBER_ID.test(item.subscriberId)) {
        return true
      }
    }
    return false
  }

  /** Creates or updates every recipient first (as one step would), then runs the steps for each, once. */
  private *deliverAll(run: Run, to: unknown): Work {
    const { env } = run
    const found = new Map<string, SubscriberRecord>()
    const add = (sub: SubscriberRecord) => {
      if (!found.has(sub.subscriberId)) found.set(sub.subscriberId, sub)
    }
    const items: unknown[] = Array.isArray(to) ? to : [to]
    // A topic is walked once however often `to` names it, else one body repeating a large topic costs a walk of
    // it per repetition (minutes of work for one request) though each member gets one message. A member is left
    // out only when every naming excludes them, so each topic keeps the intersection of its exclusions.
    const topics = new Map<string, Set<unknown>>()
    for (const item of items) {
      if (!isObject(item) || item.type !== 'Topic' || typeof item.topicKey !== 'string') continue
      const exclude = excluded(item)
      const before = topics.get(item.topicKey)
      topics.set(item.topicKey, before ? new Set([...before].filter((id) => exclude.has(id))) : exclude)
    }
    for (const item of items) {
      if (typeof item === 'string') {
        if (!SUBSCRIBER_ID.test(item)) continue
        add(this.store.upsertSubscriber(env, item, {}))
        yield
      } else if (isObject(item) && item.type === 'Topic') {
        if (typeof item.topicKey !== 'string') continue
        const exclude = topics.get(item.topicKey)
        // Walked at its first naming already.
        if (!exclude) continue
        topics.delete(item.topicKey)
        const topic = this.store.topicState(env, item.topicKey)
        if (!topic) continue
        // The members as they were when the trigger was accepted.
        const members = topic.subscriptions.slice()
        for (let i = 0; i < members.length; i++) {
          const sub = members[i]!.subscriber
          if (!exclude.has(sub.subscriberId)) add(sub)
          if (i % 64 === 63) yield
        }
      } else if (isObject(item) && typeof item.subscriberId === 'string' && SUBSCRIBER_ID.test(item.subscriberId)) {
        add(this.store.upsertSubscriber(env, item.subscriberId, subscriberFields(item)))
        yield
      }
    }
    const targets = function* (store: Store) {
      for (const sub of found.values()) yield { sub, notificationId: store.newId() }
    }
    yield* this.deliverTo(run, targets(this.store), 0)
  }

  /**
   * Runs the steps from `from` for each target. Targets that reach a delay step wait for it together, one timer
   * per batch rather than one per recipient.
   */
  private *deliverTo(run: Run, targets: Iterable<Target>, from: number): Work {
    const waiting = new Map<number, Target[]>()
    const wait = (index: number) => {
      const batch = waiting.get(index)
      if (!batch) return
      waiting.delete(index)
      const step = run.workflow.steps[index] as StepRecord
      const ms = (step.amount ?? 0) * (UNIT_MS[step.unit ?? 'seconds'] ?? 1_000)
      this.scheduler.schedule(ms, () => this.enqueue(this.deliverTo(run, batch, index + 1)))
    }
    for (const target of targets) {
      const delay = yield* this.runSteps(run, target, from)
      if (delay !== undefined) {
        let batch = waiting.get(delay)
        if (!batch) waiting.set(delay, (batch = []))
        batch.push(target)
        if (batch.length >= SLICE) wait(delay)
      }
    }
    for (const index of [...waiting.keys()]) wait(index)
  }

  private actor(env: Environment, actor: unknown): SubscriberRecord | undefined {
    if (typeof actor === 'string') return this.store.upsertSubscriber(env, actor, {})
    if (isObject(actor) && typeof actor.subscriberId === 'string')
      return this.store.upsertSubscriber(env, actor.subscriberId, subscriberFields(actor))
    return undefined
  }

  /**
   * Runs the active steps from `from` for one target, one unit of work per message (or one for a target that gets
   * none); stops at a delay step and answers its index.
   */
  private *runSteps(run: Run, target: Target, from: number): Generator<void, number | undefined, void> {
    const steps = run.workflow.steps
    let delivered = 0
    for (let i = from; i < steps.length; i++) {
      const step = steps[i] as StepRecord
      if (!step.active) continue
      if (step.channel === 'delay') {
        if (delivered === 0) yield
        return i
      }
      if (!channelEnabled(run.workflow, target.sub, step.channel)) continue
      this.deliver(run, target.sub, step, target.notificationId)
      delivered++
      yield
    }
    if (delivered === 0) yield
    return undefined
  }

  private deliver(run: Run, sub: SubscriberRecord, step: StepRecord, notificationId: string): void {
    const { env, workflow } = run
    const channel = step.channel as Exclude<StepRecord['channel'], 'delay'>
    const scope: Obj = {
      payload: run.payload,
      subscriber: sub,
      actor: run.actor ?? {},
      tenant: run.tenant ?? {},
    }
    let status: 'sent' | 'error' = 'sent'
    let errorText: string | undefined
    let providerId: string | undefined
    if (channel !== 'in_app') {
      const integration = this.integrationFor(env, channel)
      if (!integration) {
        status = 'error'
        errorText =
          channel === 'email' || channel === 'sms'
            ? `No active primary ${channel} integration in this environment`
            : `No active ${channel} integration in this environment`
      } else {
        providerId = integration.providerId
        if (channel === 'email' && !sub.email) {
          status = 'error'
          errorText = 'Subscriber has no email address'
        } else if (channel === 'sms' && !sub.phone) {
          status = 'error'
          errorText = 'Subscriber has no phone number'
        }
      }
    }
    let actor: Actor = { type: 'none', data: null }
    if (run.actor) actor = { type: 'user', data: run.actor.avatar }
    else if (step.avatar) actor = { type: 'system_custom', data: render(step.avatar, scope) }
    const cta: MessageCta = {}
    if (step.cta?.url) {
      cta.type = 'redirect'
      cta.data = { url: render(step.cta.url, scope) }
    }
    if (step.cta?.buttons?.length) {
      cta.action = {
        status: 'pending',
        buttons: step.cta.buttons.map((b) => ({ ...b, content: render(b.content, scope) })),
      }
    }
    const message = this.store.addMessage(env, sub, {
      workflow,
      stepId: step._id,
      channel,
      content: render(step.content ?? '', scope),
      ...(step.subject !== undefined && { subject: render(step.subject, scope) }),
      actor,
      cta,
      payload: run.payload,
      overrides: run.overrides,
      status,
      ...(errorText !== undefined && { errorText }),
      ...(providerId !== undefined && { providerId }),
      transactionId: run.transactionId,
      notificationId,
      ...(run.tenant && { tenant: run.tenant.identifier }),
    })
    if (channel === 'in_app') this.store.onMessageEvent?.('message.created', message)
  }

  private integrationFor(env: Environment, channel: string): IntegrationRecord | undefined {
    const candidates = this.store.integrationList.filter(
      (i) => i._environmentId === env.id && i.channel === channel && i.active && !i.deleted,
    )
    if (channel === 'email' || channel === 'sms') return candidates.find((i) => i.primary)
    return candidates[0]
  }
}

/** Does units of `work` while `budget` lasts; answers whether it is done. */
function advance(work: Work, budget: Budget): boolean {
  while (budget.left > 0) {
    if (work.next().done) return true
    budget.left -= 1
  }
  return false
}

function excluded(topicItem: Obj): Set<unknown> {
  // Checked by checkRecipient: an array of strings, or absent.
  return new Set((topicItem.exclude as string[] | undefined) ?? [])
}

interface Target {
  sub: SubscriberRecord
  notificationId: string
}

interface Run {
  env: Environment
  workflow: WorkflowRecord
  payload: JsonObject
  overrides: JsonObject
  transactionId: string
  actor: SubscriberRecord | undefined
  tenant: TenantRecord | undefined
}
