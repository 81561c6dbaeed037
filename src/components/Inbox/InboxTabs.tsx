import type { Part } from '../internal/ui'
import { useRef } from 'react'
import type { KeyboardEvent, ReactElement } from 'react'
import type { FeedFilter } from '../Feed/Feed'

/** A tab of the inbox: a label and the feed filter it shows. */
export interface InboxTab {
  /** Unique id. */
  id: string
  label: string
  filter: FeedFilter
  /** A count shown beside the label ("99+" above 99). */
  count?: string
}

/** Tabs with arrow-key movement (reversed in right-to-left layouts), Home and End. */
export function InboxTabs({
  tabs,
  value,
  onChange,
  label,
  panelId,
  idBase,
  c,
}: {
  tabs: InboxTab[]
  value: string
  onChange: (id: string) => void
  label: string
  panelId: string
  idBase: string
  c: Part
}): ReactElement {
  const listRef = useRef<HTMLDivElement>(null)
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((t) => t.id === value)
    const el = listRef.current
    const rtl = !!el && (el.closest('[dir]')?.getAttribute('dir') === 'rtl' || getComputedStyle(el).direction === 'rtl')
    const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1 }[event.key]
    let next = -1
    if (step !== undefined) next = (index + step + tabs.length) % tabs.length
    else if (event.key === 'Home') next = 0
    else if (event.key === 'End') next = tabs.length - 1
    if (next < 0) return
    event.preventDefault()
    const tab = tabs[next]
    if (!tab) return
    onChange(tab.id)
    listRef.current?.querySelectorAll<HTMLElement>('[role="tab"]')[next]?.focus()
  }
  return (
    // eslint-disable-next-line jsx-a11y/interactive-supports-focus -- focus goes to its tabs (one in the tab order), as the tabs pattern has it
    <div ref={listRef} role="tablist" aria-label={label} {...c('inbox-tabs')} onKeyDown={onKeyDown}>
      {tabs.map((tab) => {
        const selected = tab.id === value
        return (
          <button
            key={tab.id}
            id={tabElementId(idBase, tab.id)}
            type="button"
            role="tab"
            {...c('inbox-tabs__tab')}
            aria-selected={selected}
            aria-controls={panelId}
            tabIndex={selected ? 0 : -1}
            data-state={selected ? 'active' : 'inactive'}
            onClick={() => onChange(tab.id)}
          >
            {tab.label}
            {tab.count && <span {...c('inbox-tabs__count')}>{tab.count}</span>}
          </button>
        )
      })}
    </div>
  )
}

/** The id of a tab's element, for the panel's `aria-labelledby`. */
export function tabElementId(base: string, id: string): string {
  return `${base}-${id}`
}
