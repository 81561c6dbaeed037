import type { Meta, StoryObj } from '@storybook/react-vite'
import { Bell } from '../src'
import type { BellProps } from '../src'
import { FAILING, LOADING, lookArgTypes, UNSTYLED_PARAMETERS, withService } from './support/decorators'
import type { InboxStoryParameters } from './support/decorators'
import { emptyFixture, longFeedFixture, unreadFixture } from './support/fixtures'
import type { ScopeLook } from './support/ServiceScope'
import { StatesGrid } from './support/StatesGrid'

type Args = BellProps & ScopeLook

const meta = {
  title: 'Inbox/Bell',
  component: Bell,
  decorators: [withService],
  render: ({ theme, locale, ...props }) => <Bell {...props} />,
  args: { countKind: 'unseen', theme: 'light', locale: 'en' },
  argTypes: { ...lookArgTypes, countKind: { control: 'inline-radio', options: ['unseen', 'unread'] } },
} satisfies Meta<Args>

export default meta
type Story = StoryObj<typeof meta>

const service = (setup: InboxStoryParameters['service']) => ({ inbox: { service: setup } })

export const Default: Story = {}
export const Unread: Story = { args: { countKind: 'unread' }, parameters: service({ fixture: unreadFixture }) }
export const Empty: Story = { parameters: service({ fixture: emptyFixture }) }
export const Loading: Story = { parameters: service({ faults: LOADING }) }
export const Error: Story = { parameters: service({ faults: FAILING }) }
/** Over 99 unread: the badge caps at "99+" and the name says so. */
export const Capped: Story = {
  args: { countKind: 'unread' },
  parameters: service({ fixture: () => longFeedFixture(300) }),
}
export const Dark: Story = { args: { theme: 'dark' } }
export const RTL: Story = { args: { locale: 'ar' } }
export const Unstyled: Story = { tags: ['unstyled'], parameters: UNSTYLED_PARAMETERS, args: { unstyled: true } }
export const CustomRender: Story = {
  args: {
    // The visible text stays part of the bell's accessible name ("Notifications, 17 unseen").
    renderBell: ({ count, label }) => (
      <span style={{ fontWeight: 600 }}>
        <span aria-hidden="true">✉ </span>
        {count > 0 ? label : ''}
      </span>
    ),
  },
}

/** Every state side by side. */
export const States: Story = {
  render: ({ theme, locale, ...props }) => (
    <StatesGrid
      look={{ theme, locale }}
      cells={[
        { name: 'Some unseen', setup: {}, width: 140 },
        { name: 'None', setup: { fixture: emptyFixture }, width: 140 },
        { name: '99+', setup: { fixture: () => longFeedFixture(300) }, width: 140 },
        { name: 'Loading', setup: { faults: LOADING }, width: 140 },
        { name: 'Error', setup: { faults: FAILING }, width: 140 },
      ]}
      render={() => <Bell {...props} />}
    />
  ),
}
