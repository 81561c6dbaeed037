import type { ReactNode } from 'react'

/** A titled card of the demo's main area. */
export function Panel({ id, title, description, children }: { id: string; title: string; description?: string; children: ReactNode }) {
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
export function Badge({ tone, children }: { tone: 'ok' | 'warn' | 'error' | 'neutral' | 'accent'; children: ReactNode }) {
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
