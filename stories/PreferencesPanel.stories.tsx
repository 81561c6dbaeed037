import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { PreferencesPanel } from '../src'
import type { PreferencesPanelProps } from '../src'
import { FAILING, LOADING, lookArgTypes, UNSTYLED_PARAMETERS, withService } from './support/decorators'
import type { InboxStoryParameters } from './support/decorators'
import { demoFixture } from '../server'
import type { ScopeLook } from './support/ServiceScope'
import { StatesGrid } from './support/StatesGrid'

type Args = PreferencesPanelProps & ScopeLook

const meta = {
  title: 'Inbox/PreferencesPanel',
  component: PreferencesPanel,
  decorators: [withService],
  render: ({ theme, locale, ...props }) => (
    <div style={{ maxWidth: 440 }}>
      <PreferencesPanel {...props} />
    </div>
  ),
  args: { showCritical: true, showSchedule: true, theme: 'light', locale: 'en' },
  argTypes: lookArgTypes,
} satisfies Meta<Args>

export default meta
type Story = StoryObj<typeof meta>

const service = (setup: InboxStoryParameters['service']) => ({ inbox: { service: setup } })

/** No workflows to configure. */
const noWorkflows = () => ({
  ...demoFixture,
  workflows: [],
  messages: [],
  // Per-workflow choices would name workflows that no longer exist, which the fixture check refuses.
  subscribers: (demoFixture.subscribers ?? []).map(({ preferences: _preferences, ...s }) => s),
})
/** The service has no update route (like an older deployment): the panel is read-only. */
const READ_ONLY = [{ method: 'PATCH', path: /\/preferences$/, status: 405 }]
/** Every change is refused: the switch flips back with a message. */
const SAVE_FAILS = [{ method: 'PATCH', path: /\/preferences$/, status: 500 }]

export const Default: Story = {}
export const Empty: Story = { parameters: service({ fixture: noWorkflows }) }
export const Loading: Story = { parameters: service({ faults: LOADING }) }
export const Error: Story = { parameters: service({ faults: FAILING }) }
/**
 * Flips the global Email switch, as a reader would: the panel learns what the service does with a change only
 * by asking it, so these stories make one.
 */
async function changeEmail(canvasElement: HTMLElement) {
  const canvas = within(canvasElement)
  const email = (await canvas.findAllByRole('switch', {}, { timeout: 5000 }))[1]!
  await userEvent.click(email)
  return canvas
}
export const ReadOnly: Story = {
  parameters: service({ faults: READ_ONLY }),
  play: async ({ canvasElement }) => {
    const canvas = await changeEmail(canvasElement)
    await waitFor(() => expect(canvas.getAllByRole('switch')[1]).toBeDisabled(), { timeout: 5000 })
  },
}
export const SaveFails: Story = {
  parameters: service({ faults: SAVE_FAILS }),
  play: async ({ canvasElement }) => {
    const canvas = await changeEmail(canvasElement)
    await canvas.findByText(/couldn’t be saved/, {}, { timeout: 5000 })
  },
}
export const WithoutSchedule: Story = { args: { showSchedule: false, showCritical: false } }
export const Dark: Story = { args: { theme: 'dark' } }
export const RTL: Story = { args: { locale: 'ar' } }
export const Unstyled: Story = { tags: ['unstyled'], parameters: UNSTYLED_PARAMETERS, args: { unstyled: true } }

/** Every state side by side. */
export const States: Story = {
  render: ({ theme, locale, ...props }) => (
    <StatesGrid
      look={{ theme, locale }}
      cells={[
        { name: 'Default', setup: {}, width: 420 },
        { name: 'Empty', setup: { fixture: noWorkflows }, width: 420 },
        { name: 'Loading', setup: { faults: LOADING }, width: 420 },
        { name: 'Error', setup: { faults: FAILING }, width: 420 },
      ]}
      render={() => <PreferencesPanel {...props} />}
    />
  ),
}
