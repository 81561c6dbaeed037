import type {
  Fixture,
  FixtureIntegration,
  FixtureMessage,
  FixtureStep,
  FixtureSubscriber,
  FixtureTopic,
  FixtureWorkflow,
} from '../../server/fixture'

export type {
  Fixture,
  FixtureIntegration,
  FixtureMessage,
  FixtureStep,
  FixtureSubscriber,
  FixtureTopic,
  FixtureWorkflow,
}

/** API key of {@link buildFixture}'s environment. */
export const TEST_API_KEY = 'test-key'
const TEST_ORGANIZATION_ID = 'org-test'
const TEST_ENVIRONMENT_ID = 'env-test'
/** The subscriber {@link buildFixture} always holds. */
export const TEST_SUBSCRIBER_ID = 'user-1'

/**
 * A small fixture: one API key, the subscriber `user-1` and whatever `parts` adds.
 * Lists in `parts` replace the defaults (subscribers are added to `user-1`).
 * @example buildFixture({ workflows: [workflow('welcome', [inApp('Hi {{subscriber.firstName}}')])] })
 */
export function buildFixture(parts: Partial<Fixture> = {}): Fixture {
  const extra = parts.subscribers ?? []
  const subscribers = extra.some((s) => s.subscriberId === TEST_SUBSCRIBER_ID)
    ? extra
    : [subscriber(TEST_SUBSCRIBER_ID, { firstName: 'Ada', lastName: 'Lane' }), ...extra]
  return {
    apiKeys: parts.apiKeys ?? [
      { key: TEST_API_KEY, organizationId: TEST_ORGANIZATION_ID, environmentId: TEST_ENVIRONMENT_ID },
    ],
    workflows: parts.workflows ?? [workflow('test-workflow', [inApp('Hello {{subscriber.firstName}}')])],
    subscribers,
    topics: parts.topics ?? [],
    integrations: parts.integrations ?? [],
    tenants: parts.tenants ?? [],
    messages: parts.messages ?? [],
  }
}

/** A workflow triggered by `identifier`. */
export function workflow(
  identifier: string,
  steps: FixtureStep[],
  extra: Partial<FixtureWorkflow> = {},
): FixtureWorkflow {
  return { identifier, name: extra.name ?? identifier, steps, ...extra }
}

/** An in_app step. */
export function inApp(content: string, extra: Partial<FixtureStep> = {}): FixtureStep {
  return { channel: 'in_app', content, ...extra }
}

/** An email step. */
export function emailStep(subject = 'Subject', content = 'Body', extra: Partial<FixtureStep> = {}): FixtureStep {
  return { channel: 'email', subject, content, ...extra }
}

/** A step of any channel other than in_app and delay. */
export function channelStep(
  channel: 'email' | 'sms' | 'chat' | 'push',
  content = 'Text',
  extra: Partial<FixtureStep> = {},
): FixtureStep {
  return { channel, content, ...extra }
}

/** A delay step; `amount` may be fractional. */
export function delayStep(amount: number, unit: FixtureStep['unit'] = 'seconds'): FixtureStep {
  return { channel: 'delay', amount, unit }
}

/** A subscriber. */
export function subscriber(subscriberId: string, extra: Partial<FixtureSubscriber> = {}): FixtureSubscriber {
  return { subscriberId, ...extra }
}

/** A topic with its subscribers' ids. */
export function topic(key: string, subscribers: string[] = [], extra: Partial<FixtureTopic> = {}): FixtureTopic {
  return { key, subscribers, ...extra }
}

/** An integration (active, not primary unless `extra` says so). */
export function integration(
  channel: FixtureIntegration['channel'],
  identifier: string,
  extra: Partial<FixtureIntegration> = {},
): FixtureIntegration {
  return { channel, identifier, name: identifier, providerId: `${channel}-provider`, ...extra }
}

/**
 * `count` in_app messages for `subscriberId` from `workflowId`, one minute apart, newest first
 * (`content` is "Message 0", "Message 1", …).
 */
export function messages(
  subscriberId: string,
  count: number,
  extra: Partial<FixtureMessage> | ((index: number) => Partial<FixtureMessage>) = {},
  workflowId = 'test-workflow',
): FixtureMessage[] {
  const start = Date.parse('2026-01-01T12:00:00.000Z')
  return Array.from({ length: count }, (_, i) => ({
    subscriberId,
    workflow: workflowId,
    createdAt: new Date(start - i * 60_000).toISOString(),
    content: `Message ${i}`,
    ...(typeof extra === 'function' ? extra(i) : extra),
  }))
}

/** A notification's actions in their two states: "Invite" waits for Accept or Decline, "Answered" was accepted. */
export const ACTION_MESSAGES: Partial<FixtureMessage>[] = [
  {
    subject: 'Invite',
    cta: {
      action: {
        status: 'pending',
        buttons: [
          { type: 'primary', content: 'Accept' },
          { type: 'secondary', content: 'Decline' },
        ],
      },
    },
  },
  {
    subject: 'Answered',
    cta: {
      action: {
        status: 'done',
        buttons: [{ type: 'primary', content: 'Accept', resultContent: 'Accepted' }],
        result: { type: 'primary' },
      },
    },
  },
]
