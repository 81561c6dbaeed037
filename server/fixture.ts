import type {
  Actor,
  Channel,
  DurationUnit,
  JsonObject,
  MessageCta,
  MessageStatus,
  PreferenceChannels,
  Schedule,
  StepFilter,
  Credentials,
} from '../src/api/types'

/** An API key and the organization and environment it selects. */
export interface FixtureApiKey {
  key: string
  organizationId: string
  environmentId: string
  /** Display name of the environment, e.g. "Development". */
  environmentName?: string
}

/** A workflow step: one of the five channels, or `delay`. */
type StepChannel = Channel | 'delay'

/**
 * A step of a workflow. Text fields are templates: `{{payload.path}}`, `{{subscriber.firstName}}`,
 * `{{actor.firstName}}` and `{{tenant.name}}` are filled in at delivery.
 */
export interface FixtureStep {
  channel: StepChannel
  name?: string
  /** @default true */
  active?: boolean
  subject?: string
  content?: string
  /** in_app: the avatar shown when the trigger names no actor (a URL template). */
  avatar?: string
  /** in_app: a redirect URL template and/or action buttons. */
  cta?: { url?: string; buttons?: { type: 'primary' | 'secondary'; content: string; resultContent?: string }[] }
  /** delay: how long the following steps wait. */
  amount?: number
  unit?: DurationUnit
}

export interface FixtureWorkflow {
  /** The trigger identifier (the `name` of a trigger request). */
  identifier: string
  name: string
  /** @default identifier */
  slug?: string
  description?: string
  /** @default the environment of the first API key */
  environmentId?: string
  /** @default true */
  active?: boolean
  /** @default false */
  critical?: boolean
  /** Default channel preferences (missing = true). */
  preferenceSettings?: PreferenceChannels
  tags?: string[]
  steps: FixtureStep[]
  updatedAt?: string
}

interface FixtureSubscriberPreferences {
  /** Global channel choices. */
  channels?: PreferenceChannels
  schedule?: Schedule
  /** Per workflow identifier. */
  workflows?: Record<string, PreferenceChannels>
}

export interface FixtureSubscriber {
  subscriberId: string
  firstName?: string
  lastName?: string
  email?: string
  phone?: string
  avatar?: string
  locale?: string
  timezone?: string
  data?: JsonObject
  environmentId?: string
  createdAt?: string
  preferences?: FixtureSubscriberPreferences
}

export interface FixtureTopic {
  key: string
  name?: string
  environmentId?: string
  /** subscriberIds, subscribed in this order. */
  subscribers?: string[]
}

export interface FixtureIntegration {
  name: string
  identifier: string
  providerId: string
  channel: Channel
  environmentId?: string
  /** @default true */
  active?: boolean
  /** @default false */
  primary?: boolean
  credentials?: Credentials
  conditions?: StepFilter[]
}

export interface FixtureTenant {
  identifier: string
  name?: string
  data?: JsonObject
  environmentId?: string
}

/** A message that already exists (an in_app one shows in the feed). */
export interface FixtureMessage {
  subscriberId: string
  /** Identifier of the workflow it came from. */
  workflow: string
  environmentId?: string
  /** @default 'in_app' */
  channel?: Channel
  createdAt: string
  content: string
  subject?: string
  /** @default false */
  read?: boolean
  /** @default false, or true when read */
  seen?: boolean
  actor?: Actor
  cta?: MessageCta
  payload?: JsonObject
  /** @default 'sent' */
  status?: MessageStatus
  transactionId?: string
}

/** The JSON a service starts from. See server/FIXTURES.md. */
export interface Fixture {
  apiKeys: FixtureApiKey[]
  workflows?: FixtureWorkflow[]
  subscribers?: FixtureSubscriber[]
  topics?: FixtureTopic[]
  integrations?: FixtureIntegration[]
  tenants?: FixtureTenant[]
  messages?: FixtureMessage[]
}

/** A fixture was refused; `message` names the bad field path. */
export class FixtureError extends Error {
  /** Path of the bad field, e.g. `workflows[2].steps[0].channel`. */
  readonly path: string
  constructor(path: string, problem: string) {
    super(`${path}: ${problem}`)
    this.name = 'FixtureError'
    this.path = path
  }
}
