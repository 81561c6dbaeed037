import { useEffect, useState } from 'react'
import { importOnline, whenOnline } from '../../core/sync'

/** A module fetched on demand; `module` is set once it is there. */
export interface Loader<T> {
  load: () => Promise<T>
  module?: T | undefined
}

/** A module fetched on demand, never while the browser is offline (see `importOnline`). */
export function loader<T>(load: () => Promise<T>): Loader<T> {
  const l: Loader<T> = { load: () => importOnline(load).then((m) => (l.module = m)) }
  return l
}

/**
 * The module, at once when it is already there; else fetched, rendering again when it comes. Also whether
 * fetching it failed, and a function that tries again; a failure while offline tries again once back online.
 */
export function useLoaded<T>(l: Loader<T>): [T | undefined, boolean, () => void] {
  const [state, setState] = useState<{ module?: T; failed?: boolean }>({})
  const module = state.module ?? l.module
  const { failed } = state
  useEffect(() => {
    if (module) return
    if (failed) {
      const again = () => setState({})
      whenOnline(again)
      return () => removeEventListener('online', again)
    }
    let live = true
    l.load().then(
      (m) => live && setState({ module: m }),
      () => live && setState({ failed: true }),
    )
    return () => {
      live = false
    }
  }, [l, module, failed])
  return [module, !!failed, () => setState({})]
}
