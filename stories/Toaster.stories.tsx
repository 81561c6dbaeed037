import type { Meta, StoryObj } from '@storybook/react-vite'
import { useContext, useState } from 'react'
import { Inbox } from '../src'
import type { ToasterProps } from '../src'
import { lookArgTypes, withService } from './support/decorators'
import type { InboxStoryParameters } from './support/decorators'
import { ServiceContext, type ScopeLook } from './support/ServiceScope'
import { STORY_SUBSCRIBER } from './support/fixtures'

type Args = ToasterProps & ScopeLook

/** Sends a notification through the story's own service; the inbox finds it on its next look (every second here). */
function Send() {
  const service = useContext(ServiceContext)!
  const [sent, setSent] = useState(0)
  const send = async () => {
    await service.fetch(
      new Request('http://story/v1/events/trigger', {
        method: 'POST',
        headers: { authorization: `ApiKey ${service.apiKey}`, 'content-type': 'application/json' },
        // The payload the workflow's template reads, so the toast says who mentioned you where.
        body: JSON.stringify({
          name: 'comment-mention',
          to: STORY_SUBSCRIBER,
          payload: {
            authorName: 'Mara Lindqvist',
            documentTitle: 'Q3 roadmap',
            documentId: 'q3-roadmap',
            commentId: 200 + sent,
            excerpt: `Comment ${sent + 1}: can you take a look?`,
          },
        }),
      }),
    )
    setSent((n) => n + 1)
  }
  return (
    <button type="button" onClick={() => void send()} style={{ font: 'inherit', padding: '6px 12px' }}>
      Send a notification ({sent} sent)
    </button>
  )
}

const meta = {
  title: 'Inbox/Toaster',
  render: ({ theme, locale, ...toaster }) => (
    <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
      <Send />
      <Inbox toasts={toaster} />
    </div>
  ),
  decorators: [withService],
  parameters: {
    layout: 'fullscreen',
    inbox: { minHeight: 420, service: { pollInterval: 1000 } } satisfies InboxStoryParameters,
  },
  args: { theme: 'light', locale: 'en', position: 'bottom-end', duration: 6000, max: 3 },
  argTypes: {
    ...lookArgTypes,
    position: { control: 'select', options: ['bottom-end', 'bottom-start', 'top-end', 'top-start'] },
  },
} satisfies Meta<Args>

export default meta
type Story = StoryObj<typeof meta>

/**
 * A toast for each notification that arrives while the app is open, in the focused tab only: polite, never
 * taking focus, waiting while hovered or focused, dismissable; its "Open" opens the inbox.
 */
export const Default: Story = {}

export const Dark: Story = { args: { theme: 'dark' } }

/** Arabic, right to left: the toasts come from the left. */
export const RTL: Story = { args: { locale: 'ar', position: 'bottom-start' } }
