import { DEMO_SUBSCRIBER_ID, demoFixture } from '../../server'
import type { Fixture, FixtureMessage } from '../../server'
import type { MessageButton } from '../../src/client'

/** The subscriber every story is signed in as. */
export const STORY_SUBSCRIBER = DEMO_SUBSCRIBER_ID

const own = (m: FixtureMessage) => m.subscriberId === STORY_SUBSCRIBER

/** The demo fixture: a workspace with 60 messages of every kind, the newest ones unread. */
export function defaultFixture(): Fixture {
  return demoFixture
}

/** Every message of the story subscriber unread and unseen. */
export function unreadFixture(): Fixture {
  return {
    ...demoFixture,
    messages: (demoFixture.messages ?? []).map((m) => (own(m) ? { ...m, read: false, seen: false } : m)),
  }
}

/** The story subscriber has no messages and follows no topics. */
export function emptyFixture(): Fixture {
  return {
    ...demoFixture,
    messages: (demoFixture.messages ?? []).filter((m) => !own(m)),
    topics: (demoFixture.topics ?? []).map((t) => ({
      ...t,
      subscribers: (t.subscribers ?? []).filter((id) => id !== STORY_SUBSCRIBER),
    })),
  }
}

const LONG_SUBJECTS = ['Build finished', 'New comment', 'Invoice paid', 'Deploy finished', 'Reminder']

/** `count` messages (10,000 by default) for the story subscriber, one every few minutes back in time. */
export function longFeedFixture(count = 10_000): Fixture {
  const now = Date.now()
  const messages: FixtureMessage[] = Array.from({ length: count }, (_, i) => ({
    subscriberId: STORY_SUBSCRIBER,
    workflow: 'comment-mention',
    createdAt: new Date(now - i * 7 * 60_000 - 60_000).toISOString(),
    subject: LONG_SUBJECTS[i % LONG_SUBJECTS.length],
    content: `Notification ${count - i} of ${count}: item ${i % 97} changed in project ${i % 13}.`,
    read: i % 3 !== 0,
    cta: { type: 'redirect', data: { url: `/items/${i}` } },
    payload: { index: i },
  }))
  return { ...demoFixture, messages }
}

const THREADED: { subject: string; content: string; pr?: number; buttons?: MessageButton[] }[] = [
  { subject: 'New comment on PR #12', content: '**Ada** asked: can we keep the `retry` flag?', pr: 12 },
  {
    subject: 'Deploy finished',
    content: 'Production is on **v2.4.1**.\n\n- 3 services restarted\n- [See the log](https://ci.example/runs/88)',
    buttons: [
      { type: 'primary', content: 'Keep v2.4.1' },
      { type: 'secondary', content: 'Roll back' },
    ],
  },
  { subject: 'New comment on PR #12', content: '_Sam_ replied: yes, with a limit of 3.', pr: 12 },
  { subject: 'Invoice paid', content: 'Invoice **#2041** was paid: *$1,200.00*.' },
  { subject: 'New comment on PR #12', content: 'Lee approved the changes.', pr: 12 },
  { subject: 'New comment on PR #9', content: 'Noor: the build is green again.', pr: 9 },
  { subject: 'New comment on PR #9', content: 'Kim pushed 2 commits.', pr: 9 },
  { subject: 'Weekly report', content: 'Your **weekly report** is ready:\n1. 14 issues closed\n2. 3 releases' },
]

/**
 * Comments on two pull requests (threads by `payload.pr`) among other notifications, bodies in Markdown; the
 * deploy (the second item, which the page stories open) has action buttons.
 */
export function threadedFixture(): Fixture {
  const now = Date.now()
  const messages: FixtureMessage[] = THREADED.map((m, i) => ({
    subscriberId: STORY_SUBSCRIBER,
    workflow: 'comment-mention',
    createdAt: new Date(now - i * 23 * 60_000 - 60_000).toISOString(),
    subject: m.subject,
    content: m.content,
    read: i >= 4,
    seen: i >= 4,
    cta: {
      type: 'redirect',
      data: { url: `/items/${i}` },
      ...(m.buttons ? { action: { status: 'pending', buttons: m.buttons } } : {}),
    },
    ...(m.pr ? { payload: { pr: m.pr } } : {}),
  }))
  return { ...demoFixture, messages }
}
