import type { Meta, StoryObj } from '@storybook/react-vite'
import { NotificationItem, useFeed } from '../src'
import type { NotificationItemProps } from '../src'
import { FAILING, LOADING, lookArgTypes, UNSTYLED_PARAMETERS, withService } from './support/decorators'
import type { ScopeLook } from './support/ServiceScope'

type ItemArgs = Omit<NotificationItemProps, 'item'> & { index: number; count?: number }
type Args = ItemArgs & ScopeLook

/** `NotificationItem`s for feed items of the story's own service, so they are what the API really answers. */
function FromService({ index, count = 1, ...props }: ItemArgs) {
  const { items, isLoading, isError } = useFeed({ limit: 20 })
  if (isLoading) return <p>Loading…</p>
  if (isError) return <p role="alert">The items could not be loaded.</p>
  return (
    <div style={{ width: 420, display: 'grid', gap: 1 }}>
      {items.slice(index, index + count).map((item) => (
        <NotificationItem key={item._id} item={item} {...props} />
      ))}
    </div>
  )
}

const meta = {
  title: 'Inbox/NotificationItem',
  component: FromService,
  decorators: [withService],
  render: ({ theme, locale, ...props }) => <FromService {...props} />,
  args: { index: 0, theme: 'light', locale: 'en' },
  argTypes: { ...lookArgTypes, index: { control: { type: 'range', min: 0, max: 19 } } },
} satisfies Meta<Args>

export default meta
type Story = StoryObj<typeof meta>

/** An unread mention with an avatar and a link. */
export const Default: Story = {}
/** With action buttons (a security alert). */
export const WithActions: Story = { args: { index: 2 } }
/** A long digest, clamped. */
export const LongText: Story = { args: { index: 8 } }
export const Read: Story = { args: { index: 12 } }
export const Loading: Story = { parameters: { inbox: { service: { faults: LOADING } } } }
export const Error: Story = { parameters: { inbox: { service: { faults: FAILING } } } }
export const Dark: Story = { args: { theme: 'dark' } }
/** Arabic content and interface. */
export const RTL: Story = { args: { locale: 'ar', index: 5 } }
export const Unstyled: Story = { tags: ['unstyled'], parameters: UNSTYLED_PARAMETERS, args: { unstyled: true } }
export const CustomRender: Story = {
  args: {
    render: (item, { toggleRead }) => (
      <div style={{ display: 'flex', gap: 8, padding: 8 }}>
        <span style={{ flex: 1 }}>{item.content}</span>
        <button type="button" onClick={() => void toggleRead()}>
          Toggle
        </button>
      </div>
    ),
  },
}

/** Twelve different items: unread, unseen, read, with actor, icon, actions done or pending, RTL and CJK text. */
export const States: Story = {
  render: ({ theme, locale, ...props }) => <FromService {...props} index={0} count={12} />,
}
