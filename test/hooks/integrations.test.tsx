// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { adminKeys, useActiveIntegrations } from '../../src/admin'
import { useSetPrimaryIntegration } from '../../src/admin'
import { buildFixture, integration } from '../support/fixtures'
import { settled, setup } from './harness'

afterEach(cleanup)

const fixture = () =>
  buildFixture({
    integrations: [
      integration('email', 'mail-a', { primary: true }),
      integration('email', 'mail-b'),
      integration('sms', 'sms-a', { primary: true }),
      integration('chat', 'chat-a'),
    ],
  })

function useIntegrations() {
  return { list: useActiveIntegrations(), set: useSetPrimaryIntegration() }
}

const byIdentifier = (list: { identifier: string; primary: boolean }[] | undefined) =>
  Object.fromEntries((list ?? []).map((i) => [i.identifier, i.primary]))

describe('integrations', () => {
  it('sets the primary optimistically: the other primary of that channel and environment loses it', async () => {
    const h = setup({ fixture: fixture() })
    const { result } = renderHook(useIntegrations, { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.list.data).toHaveLength(4))
    await settled(h.queryClient)
    const target = result.current.list.data!.find((i) => i.identifier === 'mail-b')!
    h.service.faults.add({ path: /set-primary$/, latency: 300 })
    let pending!: Promise<unknown>
    act(() => {
      pending = result.current.set.setPrimary(target._id!)
    })
    await waitFor(() => expect(byIdentifier(result.current.list.data)['mail-b']).toBe(true))
    expect(byIdentifier(result.current.list.data)).toEqual({
      'mail-a': false,
      'mail-b': true,
      'sms-a': true,
      'chat-a': false,
    })
    expect(h.service.state.integrations().find((i) => i.identifier === 'mail-b')!.primary).toBe(false)
    const answer = await act(() => pending)
    expect(answer).toMatchObject({ identifier: 'mail-b', primary: true, active: true })
    const held = Object.fromEntries(h.service.state.integrations().map((i) => [i.identifier, i.primary]))
    expect(byIdentifier(result.current.list.data)).toEqual(held)
  })

  it('rolls back exactly on failure and rejects with the error', async () => {
    const h = setup({ fixture: fixture() })
    const { result } = renderHook(useIntegrations, { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.list.data).toHaveLength(4))
    await settled(h.queryClient)
    const snapshot = structuredClone(result.current.list.data)
    h.service.faults.add({ path: /set-primary$/, status: 500, latency: 300 })
    h.service.faults.add({ method: 'GET', path: /integrations\/active$/, latency: 300 })
    const target = result.current.list.data!.find((i) => i.identifier === 'mail-b')!
    let pending!: Promise<unknown>
    act(() => {
      pending = result.current.set.setPrimary(target._id!)
    })
    await waitFor(() => expect(byIdentifier(result.current.list.data)['mail-b']).toBe(true))
    await act(() => expect(pending).rejects.toMatchObject({ status: 500 }))
    // Restored in the cache by the time the call rejects (the refetch that follows is still out: GETs take 300 ms).
    expect(h.queryClient.getQueryData(adminKeys.integrations('user-1'))).toEqual(snapshot)
    await waitFor(() => expect(result.current.list.data).toEqual(snapshot))
    await waitFor(() => expect(result.current.set.error).toMatchObject({ status: 500 }))
  })

  it('leaves the list alone for a channel without primaries, and shows the 400', async () => {
    const h = setup({ fixture: fixture() })
    const { result } = renderHook(useIntegrations, { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.list.data).toHaveLength(4))
    const chat = result.current.list.data!.find((i) => i.identifier === 'chat-a')!
    const before = result.current.list.data
    await act(() => expect(result.current.set.setPrimary(chat._id!)).rejects.toMatchObject({ status: 400 }))
    expect(result.current.list.data).toEqual(before)
  })
})
