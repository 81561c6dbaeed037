import type { Meta, StoryObj } from '@storybook/react-vite'
import { Inbox, useCounts, useFeed, useMarkAs } from '../src'
import type { InboxViewProps } from '../src'
import {
  FAILING,
  failingWith,
  LOADING,
  lookArgTypes,
  MALFORMED,
  UNSTYLED_PARAMETERS,
  withService,
} from './support/decorators'
import type { InboxStoryParameters } from './support/decorators'
import { emptyFixture, longFeedFixture, unreadFixture } from './support/fixtures'
import type { ScopeLook } from './support/ServiceScope'
import { StatesGrid } from './support/StatesGrid'

type Args = InboxViewProps & ScopeLook

/** Puts the bell where its popover has room: at the top for `bottom-*`, lower down for `top-*`. */
function Stage({ theme, locale, ...props }: Args) {
  const above = props.placement?.startsWith('top')
  const start = props.placement?.endsWith('start')
  return (
    <div
      style={{
        display: 'flex',
        justifyContent: start ? 'flex-start' : 'flex-end',
        paddingInline: 24,
        paddingBlockStart: above ? 600 : 0,
      }}
    >
      <Inbox {...props} />
    </div>
  )
}

const meta = {
  title: 'Inbox/Inbox',
  component: Inbox,
  render: (args) => <Stage {...args} />,
  decorators: [withService],
  parameters: { layout: 'fullscreen', inbox: { minHeight: 680 } satisfies InboxStoryParameters },
  args: { defaultOpen: true, placement: 'bottom-end', countKind: 'unseen', theme: 'light', locale: 'en' },
  argTypes: {
    ...lookArgTypes,
    placement: { control: 'select', options: ['bottom-end', 'bottom-start', 'top-end', 'top-start'] },
    countKind: { control: 'inline-radio', options: ['unseen', 'unread'] },
  },
} satisfies Meta<Args>

export default meta
type Story = StoryObj<typeof meta>

const service = (setup: InboxStoryParameters['service']) => ({ inbox: { minHeight: 680, service: setup } })

/** The demo workspace: a mix of read and unread notifications of every kind. */
export const Default: Story = {}

/**
 * In an app bar that clips what overflows it (`overflow: hidden`): with `portal`, the popover renders at the end of
 * the body, placed at the bell, and shows whole.
 */
export const Portal: Story = {
  args: { portal: true },
  render: ({ theme, locale, ...props }) => (
    <header
      style={{
        display: 'flex',
        justifyContent: 'space-between',
        alignItems: 'center',
        height: 56,
        overflow: 'hidden',
        paddingInline: 24,
        borderBlockEnd: '1px solid #d4d4d8',
      }}
    >
      <strong>App</strong>
      <Inbox {...props} />
    </header>
  ),
}

/** Everything unread, the badge counting all of it. */
export const Unread: Story = { args: { countKind: 'unread' }, parameters: service({ fixture: unreadFixture }) }

/** No notifications yet. */
export const Empty: Story = { parameters: service({ fixture: emptyFixture }) }

/** The service is slow to answer. */
export const Loading: Story = { parameters: service({ faults: LOADING }) }

/** The service answers 500: the error state offers a retry. */
export const Error: Story = { parameters: service({ faults: FAILING }) }

/** 401: the session ended; the inbox says so and stops looking until a tab is focused again. */
export const SignedOut: Story = { parameters: service({ faults: failingWith(401) }) }

/** 403: this user may not see this inbox. */
export const Forbidden: Story = { parameters: service({ faults: failingWith(403) }) }

/** 404: no such subscriber, or a wrong address. */
export const NotFound: Story = { parameters: service({ faults: failingWith(404) }) }

/** 503: the service is down; the inbox retries with backoff and says when. */
export const Unavailable: Story = { parameters: service({ faults: failingWith(503) }) }

/** An answer the kit cannot read. */
export const Malformed: Story = { parameters: service({ faults: MALFORMED }) }

/** 10,000 notifications; the feed renders only what is in view and loads pages as it scrolls. */
export const LongFeed: Story = { parameters: service({ fixture: () => longFeedFixture(10_000) }) }

export const Dark: Story = { args: { theme: 'dark' } }

/** Arabic: right-to-left layout and strings. */
export const RTL: Story = { args: { locale: 'ar' } }

/** No visual rules at all: only structure, roles and state attributes for an app's own CSS. */
export const Unstyled: Story = { tags: ['unstyled'], parameters: UNSTYLED_PARAMETERS, args: { unstyled: true } }

/** A custom bell and a custom item, through render props. */
export const CustomRender: Story = {
  args: {
    // The visible text stays part of the bell's accessible name ("Notifications, 17 unseen").
    renderBell: ({ count, label }) => (
      <span style={{ display: 'inline-flex', gap: 6, alignItems: 'center', fontWeight: 600 }}>
        <span aria-hidden="true">✉</span> {count > 0 && <span style={{ color: '#b42318' }}>{label}</span>}
      </span>
    ),
    renderItem: (item, { toggleRead }) => (
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', padding: '4px 0' }}>
        <span aria-hidden="true">{item.read ? '○' : '●'}</span>
        <span style={{ flex: 1 }}>{item.content}</span>
        <button type="button" onClick={() => void toggleRead()}>
          {item.read ? 'Unread' : 'Read'}
        </button>
      </div>
    ),
  },
}

function HeadlessInbox() {
  const { items, isLoading, hasMore, fetchNextPage } = useFeed({ limit: 8 })
  const counts = useCounts()
  const { markAs } = useMarkAs()
  return (
    <section aria-labelledby="headless-title" style={{ maxWidth: 480 }}>
      <h2 id="headless-title" style={{ fontSize: 18 }}>
        Activity ({counts.unread} unread)
      </h2>
      {isLoading ? (
        <p>Loading…</p>
      ) : (
        <ul style={{ paddingInlineStart: 18 }}>
          {items.map((item) => (
            <li key={item._id} style={{ marginBottom: 6, fontWeight: item.read ? 400 : 600 }}>
              {item.content}{' '}
              <button
                type="button"
                onClick={() => void markAs({ ids: [item._id], markAs: item.read ? 'unread' : 'read' })}
              >
                {item.read ? 'Mark unread' : 'Mark read'}
              </button>
            </li>
          ))}
        </ul>
      )}
      {hasMore && (
        <button type="button" onClick={() => void fetchNextPage()}>
          Load more
        </button>
      )}
    </section>
  )
}

/** The hooks alone, with markup of the app's own: no kit component at all. */
export const Headless: Story = { render: () => <HeadlessInbox /> }

/** Every state side by side: each popover opens under its bell, inside its own column. */
export const States: Story = {
  parameters: { inbox: {} },
  render: ({ theme, locale, ...props }) => (
    <StatesGrid
      look={{ theme, locale }}
      cells={[
        { name: 'Default', setup: {}, width: 420, height: 660 },
        { name: 'Empty', setup: { fixture: emptyFixture }, width: 420, height: 660 },
        { name: 'Loading', setup: { faults: LOADING }, width: 420, height: 660 },
        { name: 'Error', setup: { faults: FAILING }, width: 420, height: 660 },
      ]}
      render={() => (
        <div style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Inbox {...props} />
        </div>
      )}
    />
  ),
}
