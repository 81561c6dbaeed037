import { useSubscriberSubscriptions } from '../../../src'
import { useTopicSubscriptions } from '../../../src/admin'
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
      <button
        type="button"
        className="demo-button demo-button-small"
        disabled={!props.hasPrevious}
        onClick={props.previous}
      >
        {t.previous}
      </button>
      {props.summary && <span className="demo-muted">{props.summary}</span>}
      <button type="button" className="demo-button demo-button-small" disabled={!props.hasNext} onClick={props.next}>
        {t.next}
      </button>
    </nav>
  )
}

/**
 * Why a list could not be loaded, and Try again. Focus goes to the heading of the list's group, for the button
 * goes away once the list loads.
 */
function LoadError({ error, refetch }: { error: Error; refetch: () => Promise<void> }) {
  const t = useDemoStrings()
  return (
    <div className="demo-load-error">
      <p role="alert" className="demo-field-error">
        {errorText(error)}
      </p>
      <button
        type="button"
        className="demo-button demo-button-small"
        onClick={(event) => {
          event.currentTarget.closest('.demo-group')?.querySelector<HTMLElement>('h3')?.focus()
          void refetch()
        }}
      >
        {t.tryAgain}
      </button>
    </div>
  )
}

/** Who follows a topic, through the admin backend (the proxy refuses topic lists). */
function TopicMembers({ topicKey }: { topicKey: string }) {
  const t = useDemoStrings()
  const list = useTopicSubscriptions(topicKey, { limit: PAGE_SIZE })
  const total =
    list.totalCount === undefined ? undefined : t.inAll(`${list.totalCount}${list.totalCountCapped ? '+' : ''}`)
  return (
    <>
      {list.isLoading ? (
        <p className="demo-muted">{t.loading}</p>
      ) : list.items.length === 0 && list.error ? null : (
        <ul className="demo-list" aria-label={t.topicSubscribers}>
          {list.items.map((s) => (
            <li key={s._id} className="demo-list-row">
              <div className="demo-list-main">
                <span className="demo-list-title">
                  {[s.subscriber.firstName, s.subscriber.lastName].filter(Boolean).join(' ') ||
                    s.subscriber.subscriberId}
                </span>
                <span className="demo-muted">{s.subscriber.email ?? s.subscriber.subscriberId}</span>
              </div>
            </li>
          ))}
        </ul>
      )}
      {/* A first page that failed, or a move: the page moved from stays above, with its pager. */}
      {list.error && <LoadError error={list.error} refetch={list.refetch} />}
      <Pager label={t.topicSubscribersPages} summary={total} {...list} />
    </>
  )
}

/** The signed-in subscriber's own topics, through the proxy, listed and paged like the rest of the demo. */
function MyTopics() {
  const t = useDemoStrings()
  const list = useSubscriberSubscriptions({ limit: PAGE_SIZE })
  return (
    <div className="demo-group demo-my-topics">
      <h3 tabIndex={-1}>{t.myTopics}</h3>
      {list.isLoading ? (
        <p className="demo-muted">{t.loading}</p>
      ) : list.items.length === 0 ? (
        !list.error && <p className="demo-muted">{t.noTopics}</p>
      ) : (
        <ul className="demo-list" aria-label={t.myTopics}>
          {list.items.map((s) => (
            <li key={s._id} className="demo-list-row">
              <span className="demo-list-title">{s.topic.name || s.topic.key}</span>
              {s.topic.name && s.topic.name !== s.topic.key && <code className="demo-list-key">{s.topic.key}</code>}
            </li>
          ))}
        </ul>
      )}
      {list.error && <LoadError error={list.error} refetch={list.refetch} />}
      <Pager label={t.myTopicsPages} {...list} />
    </div>
  )
}

/** Topic subscriptions: the subscriber's own (through the proxy), and a topic's members (through the admin backend). */
export function TopicsPanel({ directory }: { directory: Directory | null }) {
  const t = useDemoStrings()
  const [topicKey, setTopicKey] = useTopicChoice(directory)
  return (
    <Panel id="topics" title={t.topicsTitle} description={t.topicsDescription}>
      <MyTopics />
      <div className="demo-group">
        <h3 tabIndex={-1}>{t.members}</h3>
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
