// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { type Loader, loader, useLoaded } from '../../src/components/internal/lazy'

let online = true
Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online })
afterEach(() => {
  cleanup()
  online = true
})

/** Says what `useLoaded` gives for a loader of `{ name: 'part' }`. */
function Part({ l }: { l: Loader<{ name: string }> }) {
  const [module, failed] = useLoaded(l)
  return <p>{module ? module.name : failed ? 'failed' : 'loading'}</p>
}

describe('a part of the kit fetched on demand', () => {
  it('is fetched by itself once the browser is back online after a refusal while offline', async () => {
    online = false
    render(<Part l={loader(async () => ({ name: 'part' }))} />)
    expect(await screen.findByText('failed')).toBeTruthy()
    online = true
    dispatchEvent(new Event('online'))
    expect(await screen.findByText('part')).toBeTruthy()
  })

  it('is fetched when the browser came back online before the refusal was handled (the event has gone by)', async () => {
    online = false
    let asked = 0
    const l = {
      // Asked while offline, the answer comes after the browser is back online.
      load: () =>
        ++asked === 1
          ? new Promise<never>((_, reject) =>
              setTimeout(() => {
                online = true
                dispatchEvent(new Event('online'))
                reject(new Error('The browser is offline.'))
              }, 10),
            )
          : Promise.resolve({ name: 'part' }),
    }
    render(<Part l={l} />)
    expect(await screen.findByText('part')).toBeTruthy()
    expect(asked).toBe(2)
  })

  it('does not try again by itself after a failure while online, until the browser comes back online', async () => {
    let asked = 0
    render(
      <Part
        l={loader(() => {
          asked++
          return Promise.reject(new Error('fetch failed'))
        })}
      />,
    )
    expect(await screen.findByText('failed')).toBeTruthy()
    await new Promise((r) => setTimeout(r, 50))
    expect(asked).toBe(1)
    dispatchEvent(new Event('online'))
    await expect.poll(() => asked).toBe(2)
  })
})
