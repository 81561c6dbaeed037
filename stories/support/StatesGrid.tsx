import type { ReactNode } from 'react'
import { ServiceScope } from './ServiceScope'
import type { ScopeLook, ServiceSetup } from './ServiceScope'

/** One cell of a States story: a caption and its own seeded service. */
export interface StateCell {
  name: string
  setup: ServiceSetup
  width?: number
  height?: number
}

/** Every state of a component side by side, each against its own reference service. */
export function StatesGrid({
  cells,
  look,
  render,
}: {
  cells: StateCell[]
  look: ScopeLook
  render: (cell: StateCell) => ReactNode
}) {
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 24, alignItems: 'flex-start' }}>
      {cells.map((cell) => (
        <figure key={cell.name} style={{ margin: 0, width: cell.width ?? 380 }}>
          <figcaption style={{ font: '600 13px system-ui, sans-serif', marginBottom: 8, opacity: 0.8 }}>
            {cell.name}
          </figcaption>
          <div style={{ position: 'relative', minHeight: cell.height ?? 0 }}>
            <ServiceScope setup={cell.setup} look={look}>
              {render(cell)}
            </ServiceScope>
          </div>
        </figure>
      ))}
    </div>
  )
}
