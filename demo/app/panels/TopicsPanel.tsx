import { TopicSubscriptions, useTopicSubscriptions } from '../../../src'
import { AdminScope } from '../AdminScope'
import type { Directory } from '../routes'
import { useDemoStrings } from '../strings'
import { Panel, TopicSelect, errorText, useTopicChoice } from './Panel'

const PAGE_SIZE = 3

function Pager(props: {
  label: string
  hasPrevious: boolean
  hasNext: boolean
  previous(): void
  next(): void
  summary?: string
}) {
  const t = useDemoStrings()
  return (
    <nav className="demo-pager" aria-label={props.label}>
      <button type="button" className="demo-button demo-button-small" disabled={!props.hasPrevious} onClick={props.previous}>
        {t.previous}
      </button>
      {props.summary && <span className="demo-muted">{props.summary}</span>}
      <button type="button" className="demo-button demo-button-small" disabled={!props.hasNext} onClick={props.next}>
        {t.next}
      </button>
    </nav>
  )
}

/** Who follows a topic, through the admin backend (the proxy refuses topic lists). */
function TopicMembers({ topicKey }: { topicKey: string }) {
  const t = useDemoStrings()
  const list = useTopicSubscriptions(topicKey, { limit: PAGE_SIZE })
  const total = list.totalCount === undefined ? undefined : t.inAll(`${list.totalCount}${list.totalCountCapped ? '+' : ''}`)
  return (
    <>
      {list.error ? (
        <p role="alert" className="demo-field-error">
          {errorText(list.error)}
        </p>
      ) : list.isLoading ? (
        <p className="demo-muted">{t.loading}</p>
      ) : (
        <ul className="demo-list" aria-label={t.topicSubscribers}>
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
      <Pager label={t.topicSubscribersPages} summary={total} {...list} />
    </>
  )
}

/** Topic subscriptions: the subscriber's own (the kit's component, through the proxy), and a topic's members. */
export function TopicsPanel({ directory }: { directory: Directory | null }) {
  const t = useDemoStrings()
  const [topicKey, setTopicKey] = useTopicChoice(directory)
  return (
    <Panel id="topics" title={t.topicsTitle} description={t.topicsDescription}>
      <div className="demo-group">
        <TopicSubscriptions className="demo-my-topics" limit={PAGE_SIZE} />
      </div>
      <div className="demo-group">
        <h3>{t.members}</h3>
        <TopicSelect directory={directory} value={topicKey} onChange={setTopicKey} />
        {topicKey && (
          <AdminScope>
            <TopicMembers key={topicKey} topicKey={topicKey} />
          </AdminScope>
        )}
      </div>
    </Panel>
  )
}
