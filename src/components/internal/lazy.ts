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
 * fetching it failed, a function that tries again, and whether it failed for being offline (it tries again by
 * itself once back online).
 */
export function useLoaded<T>(l: Loader<T>): [T | undefined, boolean, () => void, boolean] {
  const [state, setState] = useState<{ module?: T; failed?: boolean; offline?: boolean }>({})
  const module = state.module ?? l.module
  const { failed, offline } = state
  useEffect(() => {
    if (module) return
    if (failed) {
      const again = () => setState({})
      // Refused while offline, and online again before this effect ran: the event has gone by.
      if (offline && navigator.onLine !== false) return again()
      whenOnline(again)
      return () => removeEventListener('online', again)
    }
    let live = true
    // `importOnline` refuses at once while offline; such a failure is tried again once back online.
    const refused = typeof navigator === 'object' && navigator.onLine === false
    l.load().then(
      (m) => live && setState({ module: m }),
      () => live && setState({ failed: true, offline: refused }),
    )
    return () => {
      live = false
    }
  }, [l, module, failed, offline])
  return [module, !!failed, () => setState({}), !!failed && !!offline]
}
