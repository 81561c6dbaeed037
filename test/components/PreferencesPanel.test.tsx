// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { PreferencesPanel } from '../../src/components/PreferencesPanel/PreferencesPanel'
import { ar } from '../../src/locales/ar'
import { de } from '../../src/locales/de'
import { en } from '../../src/locales/en'
import { formatClock, to12h, to24h } from '../../src/components/PreferencesPanel/schedule'
import { buildFixture, emailStep, inApp, subscriber, TEST_SUBSCRIBER_ID, workflow } from '../support/fixtures'
import type { FixtureSubscriber } from '../support/fixtures'
import { expectAccessible, renderWithInbox, setupService } from './setup'

function fixture(preferences: FixtureSubscriber['preferences'] = {}) {
  return buildFixture({
    subscribers: [subscriber(TEST_SUBSCRIBER_ID, { firstName: 'Ada', preferences })],
    workflows: [
      workflow('comments', [inApp('New comment'), emailStep()], { name: 'Comments' }),
      workflow('security', [inApp('Sign-in'), emailStep()], { name: 'Security', critical: true }),
    ],
  })
}

const globalSwitch = (name: string) =>
  within(screen.getByRole('region', { name: 'All notifications' })).getByRole('switch', { name }) as HTMLInputElement
const workflowSwitch = (group: string, name: string) =>
  within(screen.getByRole('group', { name: group })).getByRole('switch', { name }) as HTMLInputElement

/** The panel over a service whose subscriber is on Mondays 9 to 5, with the PATCH requests it receives. */
function renderMondayNineToFive() {
  const setup = setupService(
    fixture({
      schedule: {
        isEnabled: true,
        weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] } },
      },
    }),
  )
  const patches: string[] = []
  const fetch = setup.service.fetch.bind(setup.service)
  setup.service.fetch = (request: Request) => {
    if (request.method === 'PATCH') patches.push(request.url)
    return fetch(request)
  }
  return { ...renderWithInbox(<PreferencesPanel />, { setup }), patches }
}

describe('PreferencesPanel', () => {
  it('shows a skeleton, then labelled switches; critical workflows are locked with an explanation', async () => {
    const { container } = renderWithInbox(<PreferencesPanel />, { fixture: fixture(), service: { latency: 40 } })
    expect(screen.getByRole('status').textContent).toContain('Loading')
    await expectAccessible(container)
    await screen.findByRole('region', { name: 'All notifications' })
    // On a page of its own its sections are h2 (under an inbox's heading, h3: Inbox.test.tsx).
    expect(screen.getByRole('heading', { name: 'All notifications' }).tagName).toBe('H2')
    expect(globalSwitch('In-app').checked).toBe(true)
    expect(globalSwitch('Email').checked).toBe(true)
    expect(workflowSwitch('Comments', 'Email').disabled).toBe(false)
    await screen.findByRole('group', { name: 'Security' })
    const locked = workflowSwitch('Security', 'Email')
    expect(locked.disabled).toBe(true)
    expect(locked.getAttribute('aria-describedby')).toBeTruthy()
    expect(document.getElementById(locked.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Required: this notification can’t be turned off.',
    )
    await expectAccessible(container)
  })

  it('names each workflow without the direction marks that would make it read as something else', async () => {
    renderWithInbox(<PreferencesPanel />, {
      fixture: buildFixture({ workflows: [workflow('w', [inApp('Hi')], { name: 'Invoices \u202Efdp.exe' })] }),
    })
    expect(await screen.findByRole('group', { name: 'Invoices fdp.exe' })).toBeTruthy()
  })

  it('changes a switch at once and saves it', async () => {
    const { user, service, client } = renderWithInbox(<PreferencesPanel />, { fixture: fixture() })
    await screen.findByRole('region', { name: 'All notifications' })
    service.faults.add({ method: 'PATCH', latency: 1000 })
    await user.click(workflowSwitch('Comments', 'Email'))
    expect(workflowSwitch('Comments', 'Email').checked).toBe(false)
    const before = await client.getPreferences(TEST_SUBSCRIBER_ID)
    expect(before.workflows.find((w) => w.workflow.identifier === 'comments')?.channels.email).toBe(true)
    await waitFor(async () => {
      const prefs = await client.getPreferences(TEST_SUBSCRIBER_ID)
      expect(prefs.workflows.find((w) => w.workflow.identifier === 'comments')?.channels.email).toBe(false)
    })
    expect(workflowSwitch('Comments', 'Email').checked).toBe(false)
  })

  it('undoes a refused change and says so', async () => {
    const { user, service, client, container } = renderWithInbox(<PreferencesPanel />, { fixture: fixture() })
    await screen.findByRole('region', { name: 'All notifications' })
    service.faults.add({ method: 'PATCH', status: 500 })
    await user.click(globalSwitch('Email'))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Your change couldn’t be saved, so it was undone.')
    await waitFor(() => expect(globalSwitch('Email').checked).toBe(true))
    expect((await client.getPreferences(TEST_SUBSCRIBER_ID)).global.channels.email).toBe(true)
    await expectAccessible(container)
  })

  it('shows a load error with a retry', async () => {
    const { user, service, container } = renderWithInbox(<PreferencesPanel />, {
      fixture: fixture(),
      faults: [{ method: 'GET', path: /preferences$/, status: 500 }],
    })
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Settings couldn’t be loaded')
    await expectAccessible(container)
    service.faults.clear()
    await user.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('region', { name: 'All notifications' })).toBeTruthy()
  })

  it('alone, keeps focus in the panel when what had it goes: Try again, a dismissed banner', async () => {
    const { user, service, container } = renderWithInbox(<PreferencesPanel />, {
      fixture: fixture(),
      faults: [{ method: 'GET', path: /preferences$/, status: 500 }],
    })
    const panel = container.querySelector<HTMLElement>('.inbox-prefs')!
    const alert = await screen.findByRole('alert')
    service.faults.clear()
    within(alert).getByRole('button', { name: 'Try again' }).focus()
    await user.keyboard('{Enter}')
    await screen.findByRole('region', { name: 'All notifications' })
    await waitFor(() => expect(document.activeElement).toBe(panel))

    service.faults.add({ method: 'PATCH', status: 500 })
    globalSwitch('Email').focus()
    await user.keyboard(' ')
    const banner = await screen.findByRole('alert')
    within(banner).getByRole('button', { name: 'Dismiss' }).focus()
    await user.keyboard('{Enter}')
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull())
    await waitFor(() => expect(document.activeElement).toBe(panel))
  })

  it('lays the week out as the locale does: from Sunday in the US, Monday in Germany, Saturday in Egypt', async () => {
    const days = async (locale: string) => {
      const strings = { ...(locale === 'de' ? de : locale === 'ar-EG' ? ar : en), lang: locale }
      const { unmount } = renderWithInbox(<PreferencesPanel />, {
        fixture: fixture({ schedule: { isEnabled: true, weeklySchedule: {} } }),
        provider: { messages: strings },
      })
      const section = await screen.findByRole('region', { name: strings.scheduleTitle })
      const names = within(section)
        .getAllByRole('checkbox')
        .map((b) => b.getAttribute('aria-label') ?? b.closest('label')?.textContent)
      unmount()
      return names
    }
    expect((await days('en-US'))[0]).toBe('Sunday')
    expect((await days('de'))[0]).toBe('Montag')
    expect((await days('ar-EG'))[0]).toBe('السبت')
  })

  it('shows the weekly schedule and saves an edited day', async () => {
    const { user, client } = renderWithInbox(<PreferencesPanel />, {
      fixture: fixture({
        schedule: {
          isEnabled: true,
          weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] } },
        },
      }),
    })
    const section = await screen.findByRole('region', { name: 'Delivery schedule' })
    expect(within(section).getByRole('switch', { name: 'Use a schedule' })).toBeTruthy()
    const from = within(section).getByLabelText('Monday From') as HTMLInputElement
    expect(from.value).toBe('09:00')
    const tuesday = within(section).getByRole('checkbox', { name: 'Tuesday' }) as HTMLInputElement
    expect(tuesday.checked).toBe(false)
    await user.click(tuesday)
    await waitFor(async () => {
      const prefs = await client.getPreferences(TEST_SUBSCRIBER_ID)
      expect(prefs.global.schedule?.weeklySchedule?.tuesday).toEqual({
        isEnabled: true,
        hours: [{ start: '09:00 AM', end: '05:00 PM' }],
      })
    })
    expect((await client.getPreferences(TEST_SUBSCRIBER_ID)).global.schedule?.weeklySchedule?.monday?.hours).toEqual([
      { start: '09:00 AM', end: '05:00 PM' },
    ])
  })

  it('saves a time once per edit, not once per keystroke: on blur, and after a pause in typing', async () => {
    const { client, patches } = renderMondayNineToFive()
    const section = await screen.findByRole('region', { name: 'Delivery schedule' })
    const from = within(section).getByLabelText('Monday From') as HTMLInputElement
    const to = within(section).getByLabelText('Monday To') as HTMLInputElement
    const monday = async () =>
      (await client.getPreferences(TEST_SUBSCRIBER_ID)).global.schedule?.weeklySchedule?.monday?.hours
    // Typing 0830 in a browser's time input passes through 08:00 and 08:03.
    for (const value of ['08:00', '08:03', '08:30']) fireEvent.change(from, { target: { value } })
    expect(from.value).toBe('08:30')
    expect(patches).toEqual([])
    fireEvent.blur(from)
    await waitFor(async () => expect(await monday()).toEqual([{ start: '08:30 AM', end: '05:00 PM' }]))
    expect(patches).toHaveLength(1)
    // Without a blur, the pause saves it; an emptied field is not saved and shows what is.
    fireEvent.change(to, { target: { value: '18:15' } })
    await waitFor(async () => expect(await monday()).toEqual([{ start: '08:30 AM', end: '06:15 PM' }]))
    expect(patches).toHaveLength(2)
    fireEvent.change(to, { target: { value: '' } })
    fireEvent.blur(to)
    expect(to.value).toBe('18:15')
    expect(patches).toHaveLength(2)
  })

  it("keeps a day's other time ranges when its first is edited, and shows them", async () => {
    const hours = [
      { start: '09:00 AM', end: '10:00 AM' },
      { start: '01:00 PM', end: '05:00 PM' },
    ]
    const { client } = renderWithInbox(<PreferencesPanel />, {
      fixture: fixture({ schedule: { isEnabled: true, weeklySchedule: { tuesday: { isEnabled: true, hours } } } }),
    })
    const section = await screen.findByRole('region', { name: 'Delivery schedule' })
    const tuesday = within(section).getByRole('checkbox', { name: 'Tuesday' }).closest('li')!
    expect(tuesday.textContent).toContain('1:00 PM – 5:00 PM')
    const to = within(tuesday).getByLabelText('Tuesday To') as HTMLInputElement
    fireEvent.change(to, { target: { value: '11:00' } })
    fireEvent.blur(to)
    await waitFor(async () =>
      expect((await client.getPreferences(TEST_SUBSCRIBER_ID)).global.schedule?.weeklySchedule?.tuesday?.hours).toEqual(
        [{ start: '09:00 AM', end: '11:00 AM' }, hours[1]],
      ),
    )
    expect(tuesday.textContent).toContain('1:00 PM – 5:00 PM')
  })

  it('refuses hours that end before they start, keeps the time typed, and saves it once the start allows it', async () => {
    const { client, patches } = renderMondayNineToFive()
    const section = await screen.findByRole('region', { name: 'Delivery schedule' })
    const from = within(section).getByLabelText('Monday From') as HTMLInputElement
    const to = within(section).getByLabelText('Monday To') as HTMLInputElement
    expect([from.max, to.min]).toEqual(['17:00', '09:00'])
    fireEvent.change(to, { target: { value: '06:00' } })
    fireEvent.blur(to)
    expect(to.getAttribute('aria-invalid')).toBe('true')
    // In the inbox's own words (the browser's for `min` would be in the browser's language).
    expect(to.validationMessage).toBe('The end can’t be before the start.')
    expect(to.value).toBe('06:00')
    expect(patches).toEqual([])
    // An earlier start makes room for it: both are saved.
    fireEvent.change(from, { target: { value: '05:00' } })
    fireEvent.blur(from)
    await waitFor(async () =>
      expect((await client.getPreferences(TEST_SUBSCRIBER_ID)).global.schedule?.weeklySchedule?.monday?.hours).toEqual([
        { start: '05:00 AM', end: '06:00 AM' },
      ]),
    )
    await waitFor(() => expect(to.getAttribute('aria-invalid')).toBeNull())
    expect(to.validationMessage).toBe('')
    expect(patches).toHaveLength(2)
  })

  it('says a day without hours is on all day, and keeps it so until hours are set', async () => {
    const { client } = renderWithInbox(<PreferencesPanel />, {
      fixture: fixture({ schedule: { isEnabled: true, weeklySchedule: { friday: { isEnabled: true } } } }),
    })
    const section = await screen.findByRole('region', { name: 'Delivery schedule' })
    const friday = within(section).getByRole('checkbox', { name: 'Friday' }).closest('li')!
    // What the service holds, not hours it does not have.
    expect(friday.textContent).toContain('All day')
    const from = within(friday).getByLabelText('Friday From') as HTMLInputElement
    const to = within(friday).getByLabelText('Friday To') as HTMLInputElement
    expect([from.value, to.value]).toEqual(['', ''])
    fireEvent.change(from, { target: { value: '10:30' } })
    fireEvent.blur(from)
    await waitFor(async () =>
      expect((await client.getPreferences(TEST_SUBSCRIBER_ID)).global.schedule?.weeklySchedule?.friday).toEqual({
        isEnabled: true,
        hours: [{ start: '10:30 AM', end: '05:00 PM' }],
      }),
    )
    await waitFor(() => expect(to.value).toBe('17:00'))
    expect(friday.textContent).not.toContain('All day')
  })

  it('turns read-only when the service cannot update preferences', async () => {
    const { user, service } = renderWithInbox(<PreferencesPanel />, { fixture: fixture() })
    await screen.findByRole('region', { name: 'All notifications' })
    service.faults.add({ method: 'PATCH', status: 405 })
    await user.click(globalSwitch('Email'))
    expect(await screen.findByText('These settings can be viewed here but not changed.')).toBeTruthy()
    await waitFor(() => expect(globalSwitch('Email').disabled).toBe(true))
    expect(globalSwitch('Email').checked).toBe(true)
  })

  it("reads the API's 12-hour clock strictly: an hour past 12 or a minute past 59 is unreadable, not sent on", () => {
    expect(['09:30 AM', '12:00 AM', '12:15 PM', '9:05 pm', '00:00 AM'].map(to24h)).toEqual([
      '09:30',
      '00:00',
      '12:15',
      '21:05',
      '00:00',
    ])
    expect(['09:75 AM', '13:00 PM', '9:5 AM', '21:30', ''].map(to24h)).toEqual(['', '', '', '', ''])
    expect(['00:00', '12:15', '21:05'].map(to12h)).toEqual(['12:00 AM', '12:15 PM', '09:05 PM'])
    // Shown as it came when it cannot be read.
    expect(formatClock('09:75 AM', 'en')).toBe('09:75 AM')
  })

  it('shows a schedule whose hours a misbehaving service sent as no list or with holes, editable and read-only, without throwing', async () => {
    const setup = setupService(fixture())
    // The service's own answer, its schedule rewritten as no service should send it.
    const fetch = setup.service.fetch.bind(setup.service)
    setup.service.fetch = async (request: Request) => {
      const response = await fetch(request)
      if (request.method !== 'GET' || !request.url.includes('/preferences')) return response
      const body = (await response.json()) as { global: Record<string, unknown> }
      body.global.schedule = {
        isEnabled: true,
        weeklySchedule: {
          monday: { isEnabled: true, hours: 5 },
          tuesday: { isEnabled: true, hours: { start: '09:00 AM', end: '05:00 PM' } },
          wednesday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }, null, 7] },
          thursday: { isEnabled: true, hours: [null, { start: '10:00 AM', end: '04:00 PM' }] },
        },
      }
      return Response.json(body)
    }
    const { user, service } = renderWithInbox(<PreferencesPanel />, { setup })
    const section = await screen.findByRole('region', { name: 'Delivery schedule' })
    const day = (name: string) => within(section).getByText(name).closest('li')!
    const from = (name: string) => (within(section).getByLabelText(`${name} From`) as HTMLInputElement).value
    for (const name of ['Monday', 'Tuesday']) expect(day(name).textContent).toContain('All day')
    expect([from('Monday'), from('Tuesday'), from('Wednesday'), from('Thursday')]).toEqual(['', '', '09:00', '10:00'])

    service.faults.add({ method: 'PATCH', status: 405 })
    await user.click(globalSwitch('Email'))
    expect(await screen.findByText('These settings can be viewed here but not changed.')).toBeTruthy()
    expect(day('Monday').textContent).toContain('All day')
    expect(day('Wednesday').textContent).toMatch(/^Wednesday9:00\sAM – 5:00\sPM$/)
    expect(day('Thursday').textContent).toMatch(/^Thursday10:00\sAM – 4:00\sPM$/)
  })
})
