import { describe, expect, it } from 'vitest'
import type { FeedItem, FeedPage, Integration, Preferences } from '../../src/api/types'
import { applySetPrimary } from '../../src/admin'
import {
  marked as markAsState,
  matches as matchesFilters,
  matchesPayload,
  itemsOf as feedItems,
  type Flags as ItemState,
} from '../../src/core/items'
import { applyFlags, compare as compareFeedItems, type FeedData } from '../../src/core/lists'
import { applyPreferencesUpdate } from '../../src/core/prefs'
import { feedFilters, inboxKeys } from '../../src/core/queries'

/** Sets the flags of the given items in one list, moving them in or out of it. */
const applyItemStates = (data: FeedData, f: object, states: Map<string, ItemState>, known: Map<string, FeedItem>) =>
  applyFlags(
    data,
    f,
    (i) => states.get(i._id),
    [...states].flatMap(([id, s]) => (known.has(id) ? [{ ...known.get(id)!, ...s }] : [])),
  )

function item(n: number, state: Partial<ItemState> & { payload?: FeedItem['payload'] } = {}): FeedItem {
  return {
    _id: n.toString(16).padStart(24, '0'),
    _templateId: 't',
    _environmentId: 'e',
    _messageTemplateId: 'm',
    _organizationId: 'o',
    _notificationId: 'n',
    _subscriberId: 's',
    _jobId: 'j',
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
    transactionId: 'x',
    content: `#${n}`,
    channel: 'in_app',
    read: state.read ?? false,
    seen: state.seen ?? state.read ?? false,
    cta: {},
    status: 'sent',
    payload: state.payload ?? {},
  }
}

/** A list of pages (newest first) as the service would page it. */
function list(items: FeedItem[], pageSize: number, hasMore = false): FeedData {
  const sorted = [...items].sort(compareFeedItems)
  const pages: FeedPage[] = []
  for (let i = 0; i < Math.max(1, sorted.length); i += pageSize) {
    const data = sorted.slice(i, i + pageSize)
    pages.push({
      data,
      page: pages.length,
      pageSize: data.length,
      totalCount: sorted.length,
      hasMore: i + pageSize < sorted.length || hasMore,
    })
  }
  return { pages, pageParams: pages.map((p) => p.page) }
}

const ids = (data: FeedData) => feedItems(data).map((i) => Number.parseInt(i._id, 16))

describe('markAsState', () => {
  it('follows the service: read and unread also see; seen and unseen leave read alone', () => {
    const s = { read: false, seen: false }
    expect(markAsState(s, 'read')).toEqual({ read: true, seen: true })
    expect(markAsState({ read: true, seen: true }, 'unread')).toEqual({ read: false, seen: true })
    expect(markAsState(s, 'seen')).toEqual({ read: false, seen: true })
    expect(markAsState({ read: true, seen: true }, 'unseen')).toEqual({ read: true, seen: false })
  })
})

describe('filters', () => {
  it('matches payload subsets leaf by leaf', () => {
    expect(matchesPayload({ a: { b: 1, c: 2 }, d: [1, 2] }, { a: { b: 1 } })).toBe(true)
    expect(matchesPayload({ a: { b: 1 } }, { a: { b: 2 } })).toBe(false)
    expect(matchesPayload({ d: [1, 2] }, { d: [1, 2] })).toBe(true)
    expect(matchesPayload({}, { a: { b: 1 } })).toBe(false)
    // A key named like an Object.prototype member matches only a payload that has it.
    expect(matchesPayload({ a: 1 }, JSON.parse('{"__proto__":{}}'))).toBe(false)
    expect(matchesPayload({ a: 1 }, { constructor: {} })).toBe(false)
    expect(matchesPayload(JSON.parse('{"__proto__":{"x":1}}'), JSON.parse('{"__proto__":{"x":1}}'))).toBe(true)
    expect(matchesFilters(item(1, { read: true, payload: { t: 'x' } }), { read: true, payload: { t: 'x' } })).toBe(true)
    expect(matchesFilters(item(1, { read: true }), { seen: false })).toBe(false)
  })

  it('orders newest first, then by id', () => {
    const a = item(5)
    const b = { ...item(6), createdAt: a.createdAt }
    expect([a, b, item(9)].sort(compareFeedItems).map((i) => i.content)).toEqual(['#9', '#6', '#5'])
  })
})

describe('applyItemStates', () => {
  const all = [1, 2, 3, 4, 5, 6].map((n) => item(n, { read: n % 2 === 0 }))
  const known = new Map(all.map((i) => [i._id, i]))

  it('removes an item from a list it no longer matches and inserts it in order into one it now matches', () => {
    const unread = list(
      all.filter((i) => !i.read),
      2,
    )
    const read = list(
      all.filter((i) => i.read),
      10,
    )
    const states = new Map([[all[2]!._id, { read: true, seen: true }]]) // #3 read
    const unread2 = applyItemStates(unread, { read: false }, states, known)
    const read2 = applyItemStates(read, { read: true }, states, known)
    expect(ids(unread2)).toEqual([5, 1])
    expect(ids(read2)).toEqual([6, 4, 3, 2])
    expect(read2.pages[0]!.totalCount).toBe(4)
    expect(unread2.pages[0]!.totalCount).toBe(2)
    expect(feedItems(read2).find((i) => i.content === '#3')).toMatchObject({ read: true, seen: true })
  })

  it('does not insert past the loaded pages while more exist, and returns the same object when nothing changes', () => {
    const partial = list([item(6, { read: true }), item(5, { read: true })], 10, true)
    const states = new Map([[item(1)._id, { read: true, seen: true }]])
    const one = new Map([[item(1)._id, item(1)]])
    expect(applyItemStates(partial, { read: true }, states, one)).toBe(partial)
    const untouched = list(all, 3)
    expect(applyItemStates(untouched, {}, new Map([[all[1]!._id, { read: true, seen: true }]]), known)).toBe(untouched)
  })

  it('updates flags in an unfiltered list without moving anything, keeping untouched pages', () => {
    const data = list(all, 3)
    const next = applyItemStates(data, {}, new Map([[all[0]!._id, { read: true, seen: true }]]), known)
    expect(ids(next)).toEqual(ids(data))
    expect(next.pages[0]).toBe(data.pages[0])
    expect(feedItems(next).find((i) => i.content === '#1')?.read).toBe(true)
  })
})

describe('applyPreferencesUpdate', () => {
  const prefs: Preferences = {
    global: { enabled: true, channels: { in_app: true, email: true } },
    workflows: [
      {
        enabled: true,
        channels: { in_app: true, email: true },
        overrides: [
          { channel: 'in_app', source: 'template' },
          { channel: 'email', source: 'template' },
        ],
        workflow: { slug: 'a', identifier: 'a', name: 'A' },
      },
      {
        enabled: true,
        channels: { email: true },
        overrides: [{ channel: 'email', source: 'subscriber' }],
        workflow: { slug: 'b-slug', identifier: 'b', name: 'B' },
      },
      {
        enabled: true,
        channels: { email: false },
        overrides: [{ channel: 'email', source: 'subscriber' }],
        workflow: { slug: 'c', identifier: 'c', name: 'C' },
      },
    ],
  }
  it('a global change reaches workflows that follow the global value', () => {
    const next = applyPreferencesUpdate(prefs, { channels: { email: false, sms: false } })
    expect(next.global.channels).toEqual({ in_app: true, email: false })
    expect(next.workflows.map((w) => w.channels.email)).toEqual([false, false, false])
    expect(next.workflows[0]!.overrides.find((o) => o.channel === 'email')?.source).toBe('subscriber')
    expect(next.workflows[2]).toBe(prefs.workflows[2])
  })
  it('a workflow change reaches that workflow only (by identifier or slug); critical lists stay', () => {
    const next = applyPreferencesUpdate(prefs, { workflowId: 'b-slug', channels: { email: false } })
    expect(next.workflows.map((w) => w.channels.email)).toEqual([true, false, false])
    expect(next.global).toBe(prefs.global)
    expect(applyPreferencesUpdate(prefs, { channels: { email: false } }, 'critical')).toBe(prefs)
    expect(applyPreferencesUpdate(prefs, { workflowId: 'zzz', channels: { email: false } })).toBe(prefs)
  })
})

describe('applySetPrimary', () => {
  const base = { _organizationId: 'o', name: 'n', providerId: 'p', credentials: {}, active: true, deleted: false }
  const list: Integration[] = [
    { ...base, _id: '1', _environmentId: 'dev', identifier: 'a', channel: 'email', primary: true },
    { ...base, _id: '2', _environmentId: 'dev', identifier: 'b', channel: 'email', primary: false, active: false },
    { ...base, _id: '3', _environmentId: 'prod', identifier: 'c', channel: 'email', primary: true },
    { ...base, _id: '4', _environmentId: 'dev', identifier: 'd', channel: 'sms', primary: true },
    { ...base, _id: '5', _environmentId: 'dev', identifier: 'e', channel: 'chat', primary: false },
  ]
  it('moves primary within the channel and environment only', () => {
    const next = applySetPrimary(list, '2')
    expect(next.map((i) => i.primary)).toEqual([false, true, true, true, false])
    expect(next[1]).toMatchObject({ active: true, conditions: [] })
    expect(next[2]).toBe(list[2])
    expect(applySetPrimary(list, '5')).toBe(list)
    expect(applySetPrimary(list, 'nope')).toBe(list)
  })
})

describe('query keys', () => {
  it('all start with inbox and the subscriber; equal filters give equal keys', () => {
    expect(inboxKeys.feed('u', { read: false, limit: 100 })).toEqual([
      'inbox',
      'u',
      'feed',
      { limit: 100, read: false },
    ])
    expect(inboxKeys.feed('u', {})).toEqual(inboxKeys.feed('u', { limit: 20, payload: {} }))
    for (const key of [
      inboxKeys.feeds('u'),
      inboxKeys.count('u', 'unread'),
      inboxKeys.preferences('u'),
      inboxKeys.subscriptions('u'),
    ])
      expect(key.slice(0, 2)).toEqual(['inbox', 'u'])
    expect(feedFilters({ seen: false })).toEqual({ limit: 20, seen: false })
  })
})
