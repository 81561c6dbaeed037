// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { usePreferences } from '../../src/hooks/usePreferences'
import { useUpdatePreferences } from '../../src/hooks/usePreferences'
import { buildFixture, emailStep, inApp, channelStep, workflow } from '../support/fixtures'
import { settled, setup, sleep } from './harness'

afterEach(cleanup)

const fixture = () =>
  buildFixture({
    workflows: [
      workflow('comments', [inApp('New comment'), emailStep()]),
      workflow('billing', [inApp('Invoice'), emailStep(), channelStep('sms')], { preferenceSettings: { sms: false } }),
      workflow('security', [emailStep()], { critical: true }),
    ],
  })

function usePrefs(criticality?: 'nonCritical' | 'all' | 'critical') {
  return { prefs: usePreferences(criticality ? { criticality } : {}), update: useUpdatePreferences() }
}

describe('usePreferences and useUpdatePreferences', () => {
  it('lists preferences by criticality', async () => {
    const h = setup({ fixture: fixture() })
    const { result } = renderHook(
      () => ({ non: usePreferences(), critical: usePreferences({ criticality: 'critical' }) }),
      {
        wrapper: h.wrapper,
      },
    )
    await waitFor(() => expect(result.current.critical.data).toBeDefined())
    expect(result.current.non.data!.workflows.map((w) => w.workflow.identifier)).toEqual(['comments', 'billing'])
    expect(result.current.critical.data!.workflows.map((w) => w.workflow.identifier)).toEqual(['security'])
    expect(result.current.non.readOnly).toBe(false)
  })

  it('shows an update before the answer, then holds what the service holds, for one request', async () => {
    const h = setup({ fixture: fixture() })
    const { result } = renderHook(() => usePrefs(), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.prefs.data).toBeDefined())
    await settled(h.queryClient)
    const before = h.requests.length
    h.service.faults.add({ method: 'PATCH', latency: 300 })
    let pending!: Promise<void>
    act(() => {
      pending = result.current.update.update({ channels: { email: false } })
    })
    await waitFor(() => expect(result.current.prefs.data!.global.channels.email).toBe(false))
    expect(result.current.update.isPending).toBe(true)
    const comments = () => result.current.prefs.data!.workflows.find((w) => w.workflow.identifier === 'comments')!
    expect(comments().channels.email).toBe(false)
    expect(h.service.state.subscriber('user-1')!.preferences.channels.email).toBeUndefined()
    await act(() => pending)
    await settled(h.queryClient)
    expect(h.service.state.subscriber('user-1')!.preferences.channels.email).toBe(false)
    expect(comments().overrides.find((o) => o.channel === 'email')?.source).toBe('subscriber')
    expect(h.requests.length - before).toBe(1)
    // A workflow's own choice.
    await act(() => result.current.update.update({ workflowId: 'billing', channels: { sms: true } }))
    const billing = result.current.prefs.data!.workflows.find((w) => w.workflow.identifier === 'billing')!
    expect(billing.channels.sms).toBe(true)
  })

  it('keeps the critical workflows of the list of all as the service holds them: a global change does not reach them', async () => {
    const h = setup({ fixture: fixture() })
    const { result } = renderHook(
      () => ({ ...usePrefs('all'), critical: usePreferences({ criticality: 'critical' }) }),
      {
        wrapper: h.wrapper,
      },
    )
    await waitFor(() => expect(result.current.prefs.data).toBeDefined())
    await waitFor(() => expect(result.current.critical.data).toBeDefined())
    await act(() => result.current.update.update({ channels: { email: false } }))
    await act(() => result.current.update.update({ workflowId: 'billing', channels: { sms: true } }))
    await settled(h.queryClient)
    expect(result.current.prefs.data).toEqual(await h.started.client.getPreferences('user-1', { criticality: 'all' }))
    expect(result.current.critical.data).toEqual(
      await h.started.client.getPreferences('user-1', { criticality: 'critical' }),
    )
    const security = result.current.prefs.data!.workflows.find((w) => w.workflow.identifier === 'security')!
    expect(security.channels.email).toBe(true)
  })

  it('rolls back exactly on failure and exposes the error', async () => {
    const h = setup({ fixture: fixture() })
    const { result } = renderHook(() => ({ ...usePrefs(), all: usePreferences({ criticality: 'all' }) }), {
      wrapper: h.wrapper,
    })
    await waitFor(() => expect(result.current.all.data).toBeDefined())
    await waitFor(() => expect(result.current.prefs.data).toBeDefined())
    await settled(h.queryClient)
    const snapshot = structuredClone([result.current.prefs.data, result.current.all.data])
    h.service.faults.add({ method: 'PATCH', status: 500, latency: 300 })
    h.service.faults.add({ method: 'GET', path: /preferences$/, latency: 300 })
    let pending!: Promise<void>
    act(() => {
      pending = result.current.update.update({ channels: { in_app: false } })
    })
    await waitFor(() => expect(result.current.prefs.data!.global.channels.in_app).toBe(false))
    await act(() => pending)
    await waitFor(() => expect(result.current.update.error).toMatchObject({ status: 500 }))
    expect([result.current.prefs.data, result.current.all.data]).toEqual(snapshot)
    expect(result.current.update.readOnly).toBe(false)
  })

  it('becomes read-only when the update route answers 404, for every hook under that provider', async () => {
    const h = setup({ fixture: fixture() })
    const { result } = renderHook(() => ({ ...usePrefs(), other: useUpdatePreferences() }), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.prefs.data).toBeDefined())
    h.service.faults.add({ method: 'PATCH', status: 404 })
    await act(() => result.current.update.update({ channels: { email: false } }))
    await waitFor(() => expect(result.current.prefs.readOnly).toBe(true))
    expect(result.current.update.readOnly).toBe(true)
    expect(result.current.prefs.data!.global.channels.email).toBe(true)
    expect(result.current.other.readOnly).toBe(true)
    const before = h.requests.length
    await act(() => result.current.other.update({ channels: { email: false } }))
    expect(h.requests.length).toBe(before)
  })

  it('stays writable when a 404 names an unknown workflow, and 405 makes it read-only', async () => {
    const h = setup({ fixture: fixture() })
    const { result } = renderHook(() => usePrefs(), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.prefs.data).toBeDefined())
    await act(() => result.current.update.update({ workflowId: 'nope', channels: { email: false } }))
    await waitFor(() => expect(result.current.update.error).toMatchObject({ status: 404 }))
    expect(result.current.update.readOnly).toBe(false)
    h.service.faults.add({ method: 'PATCH', status: 405 })
    await act(() => result.current.update.update({ channels: { email: false } }))
    await waitFor(() => expect(result.current.update.readOnly).toBe(true))
  })

  it('quick toggles end in the state of the last one', async () => {
    const h = setup({ fixture: fixture() })
    const { result } = renderHook(() => usePrefs(), { wrapper: h.wrapper })
    await waitFor(() => expect(result.current.prefs.data).toBeDefined())
    h.service.faults.add({ method: 'PATCH', latency: 80, times: 1 })
    const calls: Promise<void>[] = []
    act(() => {
      calls.push(result.current.update.update({ channels: { email: false } }))
      calls.push(result.current.update.update({ channels: { in_app: false } }))
      calls.push(result.current.update.update({ channels: { email: true } }))
    })
    await act(() => sleep(20))
    expect(result.current.prefs.data!.global.channels).toMatchObject({ email: true, in_app: false })
    await act(() => Promise.all(calls).then(() => undefined))
    await settled(h.queryClient)
    expect(h.service.state.subscriber('user-1')!.preferences.channels).toMatchObject({ email: true, in_app: false })
    expect(result.current.prefs.data!.global.channels).toMatchObject({ email: true, in_app: false })
  })
})
