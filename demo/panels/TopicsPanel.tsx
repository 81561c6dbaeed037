import { useEffect, useState } from 'react'
import { useSubscriberSubscriptions } from '../../src/hooks/useSubscriberSubscriptions'
import { useTopicSubscriptions } from '../../src/hooks/useTopicSubscriptions'
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

/** The signed-in subscriber's topics, through the subscriber proxy. */
function MyTopics() {
  const list = useSubscriberSubscriptions({ limit: PAGE_SIZE })
  return (
    <div className="demo-group">
      <h3>Your topics</h3>
      {list.error ? (
        <p role="alert" className="demo-field-error">
          {errorText(list.error)}
        </p>
      ) : list.isLoading ? (
        <p className="demo-muted">Loading…</p>
      ) : list.items.length === 0 ? (
        <p className="demo-muted">You follow no topics.</p>
      ) : (
        <ul className="demo-list" aria-label="Your topics">
          {list.items.map((s) => (
            <li key={s._id} className="demo-list-row">
              <div className="demo-list-main">
                <span className="demo-list-title">{s.topic.name ?? s.topic.key}</span>
                <code className="demo-muted">{s.topic.key}</code>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pager label="Your topics pages" {...list} />
    </div>
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

/** Topic subscriptions: the subscriber's own, and the members of a chosen topic. */
export function TopicsPanel({ directory }: { directory: Directory | null }) {
  const [topicKey, setTopicKey] = useState('')
  useEffect(() => {
    if (!topicKey && directory?.topics[0]) setTopicKey(directory.topics[0].key)
  }, [directory, topicKey])
  return (
    <Panel id="topics" title="Topics" description="Subscriptions, a page at a time.">
      <MyTopics />
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
