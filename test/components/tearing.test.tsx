// @vitest-environment jsdom
/**
 * React Query tells its hooks of a change a task later (`setTimeout(0)`), while anything else that renders
 * a part of the inbox in between (a tab clicked, a store the part reads) reads the cache as it is now. Left
 * so, a frame can show the new count in one place and the old one in another: the consistency test caught
 * the bell at 0 beside an Unread tab of 40. Every part that shows a count or a list renders the change in
 * the same commit as the first part that renders it, before the browser paints; with nothing rendering, in
 * React Query's notice, once.
 */
import { screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Bell } from '../../src/components/Bell/Bell'
import { inboxKeys, type CountData } from '../../src/core/keys'
import type { FeedData } from '../../src/core/lists'
import { useCounts } from '../../src/hooks/useCounts'
import { useFeed } from '../../src/hooks/useFeed'
import { buildFixture, messages, TEST_SUBSCRIBER_ID } from '../support/fixtures'
import { renderWithInbox } from './setup'

/** How many times a Panel rendered. */
let panelRenders = 0

/** Shows the unread count and the rows it lists, and renders again on a click, as a tab does. */
function Panel() {
  panelRenders++
  const [clicks, setClicks] = useState(0)
  const { unread } = useCounts()
  const feed = useFeed()
  return (
    <button type="button" data-unread={unread} data-rows={feed.items.length} onClick={() => setClicks(clicks + 1)}>
      Panel {clicks}
    </button>
  )
}

const act = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
beforeEach(() => void (act.IS_REACT_ACT_ENVIRONMENT = false))
afterEach(() => void (act.IS_REACT_ACT_ENVIRONMENT = true))

/** Lets the microtasks run (React renders a store's change there), but no task: no timer, no paint. */
const microtasks = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}

/** A bell and a panel of 3 unread items, both showing them. */
async function loaded() {
  const { queryClient } = renderWithInbox(
    <>
      <Bell countKind="unread" />
      <Panel />
    </>,
    { fixture: buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 3) }) },
  )
  const panel = await screen.findByText(/^Panel/)
  await waitFor(() => expect(panel.dataset.rows).toBe('3'))
  const bell = screen.getByRole('button', { name: /^Notifications/ })
  expect(bell.dataset.count).toBe('3')
  return { queryClient, bell, panel }
}

describe('a change of the cache between two renders', () => {
  it('shows the bell and a part rendered for its own reason alike before the next task', async () => {
    const { queryClient, bell, panel } = await loaded()

    // What a count read again brings: the cache changes, and React Query tells its hooks in a later task.
    queryClient.setQueryData<CountData>(inboxKeys.count(TEST_SUBSCRIBER_ID, 'unread'), (d) => ({ ...d!, count: 7 }))
    panel.click()
    await microtasks()
    expect([bell.dataset.count, panel.dataset.unread]).toEqual(['7', '7'])
  })

  it("with nothing else rendering, shows a count and a list the cache changed in one render, in React Query's notice", async () => {
    const { queryClient, bell, panel } = await loaded()
    await new Promise((r) => setTimeout(r, 50))
    const before = panelRenders
    queryClient.setQueryData<CountData>(inboxKeys.count(TEST_SUBSCRIBER_ID, 'unread'), (d) => ({ ...d!, count: 2 }))
    const [list] = queryClient.getQueryCache().findAll({ queryKey: inboxKeys.feeds(TEST_SUBSCRIBER_ID) })
    queryClient.setQueryData<FeedData>(list!.queryKey, (d) => ({
      ...d!,
      pages: d!.pages.map((p) => ({ ...p, data: p.data.slice(1) })),
    }))
    // Until React Query's notice, nothing renders: what a frame may show is the old state, whole.
    await microtasks()
    expect([bell.dataset.count, panel.dataset.unread, panel.dataset.rows]).toEqual(['3', '3', '3'])
    await waitFor(() => expect([bell.dataset.count, panel.dataset.unread, panel.dataset.rows]).toEqual(['2', '2', '2']))
    await new Promise((r) => setTimeout(r, 50))
    // Both changes in one render, as React Query renders them without the watch: the watch adds no render of its own.
    expect(panelRenders - before).toBe(1)
  })

  it('renders nothing again for a read that brought the same answer', async () => {
    let renders = 0
    function Counted() {
      renders++
      return <span>{useCounts().unread}</span>
    }
    const { queryClient } = renderWithInbox(<Counted />, {
      fixture: buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, 3) }),
    })
    await screen.findByText('3')
    await new Promise((r) => setTimeout(r, 50))
    const before = renders
    // What a count read again with no news brings: React Query keeps the same data, and the hooks have nothing to show.
    await queryClient.refetchQueries({ queryKey: inboxKeys.count(TEST_SUBSCRIBER_ID, 'unread') })
    await new Promise((r) => setTimeout(r, 50))
    expect(renders).toBe(before)
  })
})
