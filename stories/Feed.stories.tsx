import type { Meta, StoryObj } from '@storybook/react-vite'
import { Feed } from '../src'
import type { FeedProps } from '../src'
import { FAILING, LOADING, lookArgTypes, UNSTYLED_PARAMETERS, withService } from './support/decorators'
import type { InboxStoryParameters } from './support/decorators'
import { emptyFixture, longFeedFixture } from './support/fixtures'
import type { ScopeLook } from './support/ServiceScope'
import { StatesGrid } from './support/StatesGrid'

type Args = FeedProps & ScopeLook

function Frame({ children }: { children: React.ReactNode }) {
  return <div style={{ width: 420, height: 560, display: 'flex', flexDirection: 'column' }}>{children}</div>
}

const meta = {
  title: 'Inbox/Feed',
  component: Feed,
  decorators: [withService],
  render: ({ theme, locale, ...props }) => (
    <Frame>
      <Feed {...props} />
    </Frame>
  ),
  args: { theme: 'light', locale: 'en' },
  argTypes: lookArgTypes,
} satisfies Meta<Args>

export default meta
type Story = StoryObj<typeof meta>

const service = (setup: InboxStoryParameters['service']) => ({ inbox: { service: setup } })

export const Default: Story = {}
/** Only unread items, as the Unread tab shows them. */
export const Unread: Story = { args: { filter: { read: false }, emptyVariant: 'unread' } }
export const Empty: Story = { parameters: service({ fixture: emptyFixture }) }
export const Loading: Story = { parameters: service({ faults: LOADING }) }
export const Error: Story = { parameters: service({ faults: FAILING }) }
/** 10,000 items, virtualized. */
export const LongFeed: Story = { parameters: service({ fixture: () => longFeedFixture(10_000) }) }
export const Dark: Story = { args: { theme: 'dark' } }
export const RTL: Story = { args: { locale: 'ar' } }
export const Unstyled: Story = { tags: ['unstyled'], parameters: UNSTYLED_PARAMETERS, args: { unstyled: true } }
export const CustomRender: Story = {
  args: {
    renderItem: (item) => (
      <p style={{ margin: 0, padding: '6px 0' }}>
        <strong>{item.read ? 'Read' : 'New'}:</strong> {item.content}
      </p>
    ),
    renderEmpty: () => <p>Nothing here.</p>,
  },
}

/** Every state side by side. */
export const States: Story = {
  render: ({ theme, locale, ...props }) => (
    <StatesGrid
      look={{ theme, locale }}
      cells={[
        { name: 'Items', setup: {} },
        { name: 'Empty', setup: { fixture: emptyFixture } },
        { name: 'Loading', setup: { faults: LOADING } },
        { name: 'Error', setup: { faults: FAILING } },
      ]}
      render={() => (
        <Frame>
          <Feed {...props} />
        </Frame>
      )}
    />
  ),
}
