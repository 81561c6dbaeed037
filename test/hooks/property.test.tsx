// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import type { MarkAs } from '../../src/api/types'
import { useCounts } from '../../src/hooks/useCounts'
import { useFeed } from '../../src/hooks/useFeed'
import { useInboxContext } from '../../src/provider/context'
import { useMarkAll } from '../../src/hooks/useMarkAs'
import { useMarkAs } from '../../src/hooks/useMarkAs'
import { marked as markAsState } from '../../src/core/items'
import { feedFixture, settled, setup } from './harness'

afterEach(cleanup)

const SIZE = 10
const fast = { interval: 5 }

type Command =
  | { kind: 'mark'; index: number; markAs: MarkAs; fault: 'none' | 'status' | 'drop'; wait: boolean; slow: boolean }
  | { kind: 'refetch'; wait: boolean }
  | { kind: 'poll' }
  | { kind: 'markAll'; what: 'read' | 'seen'; fail: boolean }

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('mark' as const),
      index: fc.nat(SIZE - 1),
      markAs: fc.constantFrom<MarkAs>('read', 'unread', 'seen', 'unseen'),
      fault: fc.constantFrom('none' as const, 'none' as const, 'status' as const, 'drop' as const),
      wait: fc.boolean(),
      slow: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('refetch' as const), wait: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('poll' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('markAll' as const),
      what: fc.constantFrom('read' as const, 'seen' as const),
      fail: fc.boolean(),
    }),
  },
)

function useInbox() {
  return {
    all: useFeed(),
    unread: useFeed({ read: false }),
    seen: useFeed({ seen: true }),
    counts: useCounts(),
    marks: useMarkAs(),
    markAllRead: useMarkAll('read'),
    markAllSeen: useMarkAll('seen'),
    ctx: useInboxContext(),
  }
}

describe('badge, list and service agree after any sequence', () => {
  it('marks, failures, refetches and polls always end with the counts equal to the lists and to the service', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ read: fc.boolean(), seen: fc.boolean() }), { minLength: SIZE, maxLength: SIZE }),
        fc.array(command, { minLength: 1, maxLength: 8 }),
        async (initial, commands) => {
          const h = setup({
            fixture: feedFixture(SIZE, (i) => ({ read: initial[i]!.read, seen: initial[i]!.read || initial[i]!.seen })),
          })
          const { result, unmount } = renderHook(useInbox, { wrapper: h.wrapper })
          try {
            await waitFor(() => expect(result.current.all.items).toHaveLength(SIZE), fast)
            await waitFor(() => expect(result.current.counts.isLoading).toBe(false), fast)
            const ids = result.current.all.items.map((i) => i._id)
            const running: Promise<unknown>[] = []
            for (const c of commands) {
              await act(async () => {
                let p: Promise<unknown>
                if (c.kind === 'mark') {
                  if (c.fault === 'status') h.service.faults.add({ path: /mark-as$/, status: 500, times: 1 })
                  if (c.fault === 'drop') h.service.faults.add({ path: /mark-as$/, drop: true, times: 1 })
                  if (c.slow) h.service.faults.add({ path: /mark-as$/, latency: 15, times: 1 })
                  p = result.current.marks.markAs({ ids: ids[c.index]!, markAs: c.markAs })
                  if (c.wait) await p
                  else running.push(p)
                } else if (c.kind === 'refetch') {
                  p = h.queryClient.refetchQueries({ queryKey: ['inbox'] })
                  if (c.wait) await p
                  else running.push(p)
                } else if (c.kind === 'poll') {
                  running.push(result.current.ctx.refresh())
                } else {
                  if (c.fail) h.service.faults.add({ path: /mark-as$/, status: 500, times: 1 })
                  running.push(
                    c.what === 'read' ? result.current.markAllRead.markAll() : result.current.markAllSeen.markAll(),
                  )
                }
              })
            }
            await act(() => Promise.all(running).then(() => undefined))
            h.service.faults.clear()
            await settled(h.queryClient)
            const cur = result.current
            const state = h.serviceState()
            const all = cur.all.items
            expect(all.map((i) => i._id).sort()).toEqual([...ids].sort())
            for (const item of all)
              expect({ id: item._id, read: item.read, seen: item.seen }).toEqual({
                id: item._id,
                ...state.byId.get(item._id),
              })
            expect(cur.counts.unread).toBe(all.filter((i) => !i.read).length)
            expect(cur.counts.unseen).toBe(all.filter((i) => !i.seen).length)
            expect(cur.counts.unread).toBe(state.unread)
            expect(cur.counts.unseen).toBe(state.unseen)
            expect(cur.unread.items.map((i) => i._id)).toEqual(all.filter((i) => !i.read).map((i) => i._id))
            expect(cur.seen.items.map((i) => i._id)).toEqual(all.filter((i) => i.seen).map((i) => i._id))
          } finally {
            unmount()
          }
        },
      ),
      { numRuns: 15 },
    )
  }, 60_000)
})

describe('the last intent wins', () => {
  it('concurrent marks with random service latency end, in the service and on screen, as if applied in call order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            index: fc.nat(3),
            markAs: fc.constantFrom<MarkAs>('read', 'unread', 'seen', 'unseen'),
            latency: fc.nat(30),
          }),
          { minLength: 2, maxLength: 6 },
        ),
        async (marks) => {
          const h = setup({ fixture: feedFixture(4) })
          const { result, unmount } = renderHook(useInbox, { wrapper: h.wrapper })
          try {
            await waitFor(() => expect(result.current.all.items).toHaveLength(4), fast)
            await waitFor(() => expect(result.current.counts.isLoading).toBe(false), fast)
            const ids = result.current.all.items.map((i) => i._id)
            const model = new Map(result.current.all.items.map((i) => [i._id, { read: i.read, seen: i.seen }]))
            const calls: Promise<void>[] = []
            act(() => {
              for (const m of marks) {
                h.service.faults.add({ path: /mark-as$/, latency: 30 + m.latency, times: 1 })
                const id = ids[m.index]!
                model.set(id, markAsState(model.get(id)!, m.markAs))
                calls.push(result.current.marks.markAs({ ids: id, markAs: m.markAs }))
              }
            })
            // On screen at once (the service answers 30–60 ms later).
            await waitFor(() => {
              for (const item of result.current.all.items)
                expect({ read: item.read, seen: item.seen }).toEqual(model.get(item._id))
            }, fast)
            await act(() => Promise.all(calls).then(() => undefined))
            await settled(h.queryClient)
            const state = h.serviceState()
            for (const id of ids) expect(state.byId.get(id)).toEqual(model.get(id))
            for (const item of result.current.all.items)
              expect({ read: item.read, seen: item.seen }).toEqual(model.get(item._id))
            expect(result.current.counts.unread).toBe(state.unread)
          } finally {
            unmount()
          }
        },
      ),
      { numRuns: 15 },
    )
  }, 60_000)
})
