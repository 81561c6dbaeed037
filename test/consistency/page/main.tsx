/**
 * The page of the consistency test and bench: the real `<Inbox>` (unread count on the bell, one page of
 * 50, open) over the reference service in this page, behind a forwarder that delays and fails writes,
 * and a plain React list of 40 rows beside it. Query string: `seed`, `latency` (ms per mark-as),
 * `fail` (share of writes failing for good), `read` (ms per read), `countRead` (ms per
 * read of a count), `items`, `layout` (`tall`, the default, holds all 40 rows in view; `popover` keeps its size).
 */
import { createRoot } from 'react-dom/client'
import { createService } from '../../../server'
import { Inbox } from '../../../src'
import '../../../src/styles/index.css'
import { buildFixture, messages, TEST_SUBSCRIBER_ID } from '../../support/fixtures'
import { createForwarder } from './forwarder'
import { PlainList } from './PlainList'
import { startSampler } from './sampler'
import './page.css'

const params = new URLSearchParams(location.search)
const number = (name: string, fallback: number) => (params.has(name) ? Number(params.get(name)) : fallback)
const items = number('items', 40)
const BASE = 'http://inbox.test'
document.documentElement.dataset.layout = params.get('layout') ?? 'tall'

const service = createService({
  fixture: buildFixture({ messages: messages(TEST_SUBSCRIBER_ID, items, (i) => ({ subject: `Notification ${i}` })) }),
})
const forwarder = createForwarder(service, BASE, {
  seed: number('seed', 1),
  latency: number('latency', 300),
  readLatency: number('read', 30),
  countLatency: number('countRead', 30),
  failRate: number('fail', 0.25),
})
const sampler = startSampler()

/** Every item's flags as the service holds them, read past the forwarder. */
async function held(): Promise<{ id: string; read: boolean; seen: boolean }[]> {
  const url = `${BASE}/v1/subscribers/${TEST_SUBSCRIBER_ID}/notifications/feed?limit=100`
  const response = await service.fetch(new Request(url, { headers: { authorization: `ApiKey ${service.apiKey}` } }))
  const page = (await response.json()) as { data: { _id: string; read: boolean; seen: boolean }[] }
  return page.data.map((i) => ({ id: i._id, read: i.read, seen: i.seen }))
}

Object.assign(window, { __consistency: { sampler, forwarder, held } })

createRoot(document.getElementById('root')!).render(
  <div id="app">
    <div id="inbox">
      <Inbox
        subscriberId={TEST_SUBSCRIBER_ID}
        baseUrl={BASE}
        apiKey={service.apiKey}
        fetch={forwarder.fetch}
        countKind="unread"
        limit={50}
        placement="bottom-start"
        open
        onOpenChange={() => {}}
      />
    </div>
    <PlainList count={items} />
  </div>,
)
