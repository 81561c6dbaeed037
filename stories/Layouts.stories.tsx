import type { Meta, StoryObj } from '@storybook/react-vite'
import { useEffect, useRef, useState } from 'react'
import type { RefObject } from 'react'
import {
  Feed,
  Inbox,
  InboxClose,
  InboxContent,
  InboxFooter,
  InboxHeader,
  InboxInline,
  InboxPage,
  InboxRoot,
  InboxTrigger,
  TopicSubscriptions,
} from '../src'
import { markdownBody } from '../src/markdown'
import { lookArgTypes, withService } from './support/decorators'
import type { InboxStoryParameters } from './support/decorators'
import { threadedFixture } from './support/fixtures'
import type { ScopeLook } from './support/ServiceScope'

const meta = {
  title: 'Inbox/Layouts',
  decorators: [withService],
  parameters: { layout: 'fullscreen', inbox: { minHeight: 680 } satisfies InboxStoryParameters },
  args: { theme: 'light', locale: 'en' },
  argTypes: lookArgTypes,
} satisfies Meta<ScopeLook>

export default meta
type Story = StoryObj<typeof meta>

const threads = { inbox: { minHeight: 680, service: { fixture: threadedFixture } } satisfies InboxStoryParameters }

/** A popover made of parts: the app's own trigger (named with the count), header, footer, in a portal. */
export const PopoverFromParts: Story = {
  render: () => (
    <div style={{ display: 'flex', justifyContent: 'flex-end', paddingInline: 24 }}>
      <InboxRoot defaultOpen>
        <InboxTrigger asChild>
          <button
            type="button"
            style={{
              padding: '8px 14px',
              borderRadius: 8,
              border: '1px solid #c9cbd6',
              background: '#fff',
              font: 'inherit',
              cursor: 'pointer',
            }}
          >
            Inbox
          </button>
        </InboxTrigger>
        <InboxContent portal>
          <InboxHeader title="Updates">
            <InboxClose />
          </InboxHeader>
          <Feed markSeenOnView={false} style={{ flex: 1 }} />
          <InboxFooter>
            <a href="#all">See all notifications</a>
          </InboxFooter>
        </InboxContent>
      </InboxRoot>
    </div>
  ),
}

/** The inbox in a sidebar, beside the app's content. */
export const InlineSidebar: Story = {
  render: () => (
    <div style={{ display: 'grid', gridTemplateColumns: '1fr 380px', gap: 24, height: 620 }}>
      <main style={{ padding: 8 }}>
        <h1 style={{ marginTop: 0, fontSize: 22 }}>Dashboard</h1>
        <p>The app's own content.</p>
      </main>
      <InboxInline markSeenOnOpen={false} settings={<TopicSubscriptions />} />
    </div>
  ),
}

/** Calls `run` once with the first element matching `selector` inside `ref` when it appears. */
function useOnAppear(ref: RefObject<HTMLElement | null>, selector: string, run: (el: HTMLElement) => void) {
  useEffect(() => {
    const root = ref.current
    if (!root) return
    const check = () => {
      const el = root.querySelector<HTMLElement>(selector)
      if (!el) return false
      observer.disconnect()
      run(el)
      return true
    }
    const observer = new MutationObserver(check)
    if (!check()) observer.observe(root, { childList: true, subtree: true })
    return () => observer.disconnect()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per mount
  }, [])
}

function PageInbox({ pick }: { pick?: boolean }) {
  const [selected, setSelected] = useState<string | null>(null)
  const ref = useRef<HTMLDivElement>(null)
  // Opens the second item, as a URL naming it would.
  useOnAppear(ref, 'article:nth-of-type(1)', () => {
    const second = ref.current?.querySelectorAll<HTMLElement>('article')[1]
    if (pick && second) setSelected(second.dataset.id ?? null)
  })
  return (
    <div ref={ref} style={{ height: 640 }}>
      <InboxPage
        selectedId={selected}
        onSelect={setSelected}
        markSeenOnOpen={false}
        renderBody={markdownBody}
        groupBy="pr"
      />
    </div>
  )
}

/** A full page: the list beside the selected notification's detail, with its action buttons. */
export const PageWide: Story = { parameters: threads, render: () => <PageInbox pick /> }

/** Under 640 px the page shows one pane at a time; the detail has a back button. */
export const PageNarrow: Story = {
  parameters: threads,
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  render: () => (
    <div style={{ maxWidth: 400 }}>
      <PageInbox pick />
    </div>
  ),
}

/** Comments on one pull request gathered into a thread (`groupBy="pr"`), collapsed. */
export const ThreadsCollapsed: Story = {
  parameters: threads,
  render: () => <Inbox defaultOpen markSeenOnOpen={false} groupBy="pr" renderBody={markdownBody} />,
}

function Expanded() {
  const ref = useRef<HTMLDivElement>(null)
  useOnAppear(ref, 'button[aria-expanded="false"]', (button) => button.click())
  return (
    <div ref={ref} style={{ height: 620, maxWidth: 420 }}>
      <InboxInline markSeenOnOpen={false} groupBy="pr" renderBody={markdownBody} />
    </div>
  )
}

/** A thread expanded in place: its other items under the newest, "Mark 2 as read" for all of it. */
export const ThreadsExpanded: Story = { parameters: threads, render: () => <Expanded /> }

/** Bodies in Markdown through `inbox-kit/markdown`: bold, italic, code, lists and safe links as elements. */
export const Markdown: Story = {
  parameters: threads,
  render: () => <Inbox defaultOpen markSeenOnOpen={false} renderBody={markdownBody} />,
}
