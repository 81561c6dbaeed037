import { useEffect, useState } from 'react'
import { TopicSubscriptions, useTopicSubscriptions } from '../../src'
import { AdminScope } from '../AdminScope'
import type { Directory } from '../server/backend'
import { Panel, errorText } from './Panel'

const PAGE_SIZE = 3

function Pager(props: {
  label: string
  hasPrevious: boolean
  hasNext: boolean
  previous(): void
  next(): void
  summary?: string
}) {
  return (
    <nav className="demo-pager" aria-label={props.label}>
      <button type="button" className="demo-button demo-button-small" disabled={!props.hasPrevious} onClick={props.previous}>
        Previous
      </button>
      {props.summary && <span className="demo-muted">{props.summary}</span>}
      <button type="button" className="demo-button demo-button-small" disabled={!props.hasNext} onClick={props.next}>
        Next
      </button>
    </nav>
  )
}

/** Who follows a topic, through the admin backend (the proxy refuses topic lists). */
function TopicMembers({ topicKey }: { topicKey: string }) {
  const list = useTopicSubscriptions(topicKey, { limit: PAGE_SIZE })
  const total = list.totalCount === undefined ? undefined : `${list.totalCount}${list.totalCountCapped ? '+' : ''} in all`
  return (
    <>
      {list.error ? (
        <p role="alert" className="demo-field-error">
          {errorText(list.error)}
        </p>
      ) : list.isLoading ? (
        <p className="demo-muted">Loading…</p>
      ) : (
        <ul className="demo-list" aria-label="Topic subscribers">
          {list.items.map((s) => (
            <li key={s._id} className="demo-list-row">
              <div className="demo-list-main">
                <span className="demo-list-title">
                  {[s.subscriber.firstName, s.subscriber.lastName].filter(Boolean).join(' ') || s.subscriber.subscriberId}
                </span>
                <span className="demo-muted">{s.subscriber.email ?? s.subscriber.subscriberId}</span>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pager label="Topic subscribers pages" summary={total} {...list} />
    </>
  )
}

/** Topic subscriptions: the subscriber's own (the kit's component, through the proxy), and a topic's members. */
export function TopicsPanel({ directory }: { directory: Directory | null }) {
  const [topicKey, setTopicKey] = useState('')
  useEffect(() => {
    if (!topicKey && directory?.topics[0]) setTopicKey(directory.topics[0].key)
  }, [directory, topicKey])
  return (
    <Panel id="topics" title="Topic subscriptions" description="Who follows what, a page at a time.">
      <div className="demo-group">
        <TopicSubscriptions className="demo-my-topics" limit={PAGE_SIZE} />
      </div>
      <div className="demo-group">
        <h3>Members of a topic</h3>
        <label className="demo-field">
          <span>Topic</span>
          <select value={topicKey} onChange={(e) => setTopicKey(e.target.value)}>
            {directory?.topics.map((t) => (
              <option key={t.key} value={t.key}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        {topicKey && (
          <AdminScope>
            <TopicMembers key={topicKey} topicKey={topicKey} />
          </AdminScope>
        )}
      </div>
    </Panel>
  )
}
