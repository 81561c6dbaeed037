import type { Meta, StoryObj } from '@storybook/react-vite'
import { TopicSubscriptions } from '../src'
import type { TopicSubscriptionsProps } from '../src'
import { FAILING, LOADING, lookArgTypes, UNSTYLED_PARAMETERS, withService } from './support/decorators'
import type { InboxStoryParameters } from './support/decorators'
import { emptyFixture } from './support/fixtures'
import type { ScopeLook } from './support/ServiceScope'
import { StatesGrid } from './support/StatesGrid'

type Args = TopicSubscriptionsProps & ScopeLook

const meta = {
  title: 'Inbox/TopicSubscriptions',
  component: TopicSubscriptions,
  decorators: [withService],
  render: ({ theme, locale, ...props }) => (
    <div style={{ maxWidth: 420 }}>
      <TopicSubscriptions {...props} />
    </div>
  ),
  args: { limit: 3, theme: 'light', locale: 'en' },
  argTypes: { ...lookArgTypes, limit: { control: { type: 'number', min: 1, max: 100 } } },
} satisfies Meta<Args>

export default meta
type Story = StoryObj<typeof meta>

const service = (setup: InboxStoryParameters['service']) => ({ inbox: { service: setup } })

/** Five topics, three a page. */
export const Default: Story = {}
export const Empty: Story = { parameters: service({ fixture: emptyFixture }) }
export const Loading: Story = { parameters: service({ faults: LOADING }) }
export const Error: Story = { parameters: service({ faults: FAILING }) }
/** One topic by key. */
export const OneTopic: Story = { args: { topicKey: 'incident-response' } }
export const Dark: Story = { args: { theme: 'dark' } }
export const RTL: Story = { args: { locale: 'ar' } }
export const Unstyled: Story = { tags: ['unstyled'], parameters: UNSTYLED_PARAMETERS, args: { unstyled: true } }
export const CustomRender: Story = {
  args: {
    renderTopic: (s) => (
      <span>
        #{s.topic.key} <small>since {new Date(s.createdAt).toLocaleDateString('en')}</small>
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
        { name: 'Topics', setup: {} },
        { name: 'Empty', setup: { fixture: emptyFixture } },
        { name: 'Loading', setup: { faults: LOADING } },
        { name: 'Error', setup: { faults: FAILING } },
      ]}
      render={() => <TopicSubscriptions {...props} />}
    />
  ),
}
