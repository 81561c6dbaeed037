import { useEffect, useState } from 'react'
import type { ReactNode } from 'react'
import type { Directory } from '../routes'
import { useDemoStrings } from '../strings'

/** A titled card of the demo's main area. */
export function Panel({
  id,
  title,
  description,
  children,
}: {
  id: string
  title: string
  description?: string
  children: ReactNode
}) {
  return (
    <section className="demo-panel" id={id} aria-labelledby={`${id}-title`}>
      <header className="demo-panel-header">
        <h2 id={`${id}-title`}>{title}</h2>
        {description && <p>{description}</p>}
      </header>
      {children}
    </section>
  )
}

/** A short status word in a coloured pill. */
export function Badge({
  tone,
  children,
}: {
  tone: 'ok' | 'warn' | 'error' | 'neutral' | 'accent'
  children: ReactNode
}) {
  return (
    <span className="demo-badge" data-tone={tone}>
      {children}
    </span>
  )
}

/** The message of anything thrown, for an inline error line. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The chosen topic key, starting at the directory's first topic once it has loaded. */
export function useTopicChoice(directory: Directory | null): [string, (key: string) => void] {
  const [topicKey, setTopicKey] = useState('')
  useEffect(() => {
    if (!topicKey && directory?.topics[0]) setTopicKey(directory.topics[0].key)
  }, [directory, topicKey])
  return [topicKey, setTopicKey]
}

/** A labelled select of the directory's topics. */
export function TopicSelect(props: { directory: Directory | null; value: string; onChange(key: string): void }) {
  const t = useDemoStrings()
  return (
    <label className="demo-field">
      <span>{t.topic}</span>
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.directory?.topics.map((topic) => (
          <option key={topic.key} value={topic.key}>
            {topic.name}
          </option>
        ))}
      </select>
    </label>
  )
}
