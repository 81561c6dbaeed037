import type { DirectorySubscriber } from '../routes'
import { useDemoStrings } from '../strings'

function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase()
}

/** "Signs in" as another subscriber of the fixture: the page then gets a token for that one only. */
export function SubscriberSwitcher(props: {
  subscribers: DirectorySubscriber[]
  current: string
  onChange(subscriberId: string): void
}) {
  const t = useDemoStrings()
  const me = props.subscribers.find((s) => s.subscriberId === props.current)
  return (
    <label className="demo-switcher">
      <span className="demo-avatar" aria-hidden="true">
        {initials(me?.name ?? props.current)}
      </span>
      <span className="demo-visually-hidden">{t.signedInAs}</span>
      <select value={props.current} onChange={(e) => props.onChange(e.target.value)}>
        {props.subscribers.length === 0 && <option value={props.current}>{props.current}</option>}
        {props.subscribers.map((s) => (
          <option key={s.subscriberId} value={s.subscriberId}>
            {s.name}
          </option>
        ))}
      </select>
    </label>
  )
}
