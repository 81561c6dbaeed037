/**
 * The leader election of the live loop where the browser has no Web Locks: over the tabs' BroadcastChannel,
 * the leader beats every second; after three silent seconds the tab with the smallest id takes over.
 */
import type { TabMessage } from './sync'

const BEAT = 1000

/** Makes this tab the leader while it wins the election; returns the stop. */
export function elect(
  post: (m: TabMessage) => void,
  listen: (l: (m: TabMessage) => void) => () => void,
  lead: () => void,
  follow: () => void,
): () => void {
  const id = Math.random().toString(36).slice(2)
  let leader: { id: string; at: number } | null = null
  let mine = false
  const beat = () => {
    if (mine) post({ t: 'lead', id })
    else if (!leader || Date.now() - leader.at > 3 * BEAT) ((mine = true), post({ t: 'lead', id }), lead())
  }
  const unlisten = listen((m) => {
    if (m.t === 'lead' && m.id !== id) {
      if (mine && (m.id as string) < id) ((mine = false), follow())
      if (!mine) leader = { id: m.id as string, at: Date.now() }
    } else if (m.t === 'who' && mine) post({ t: 'lead', id })
    else if (m.t === 'bye' && m.id === leader?.id) leader = null
  })
  const timer = setInterval(beat, BEAT)
  const bye = () => mine && post({ t: 'bye', id })
  if (typeof window === 'object') window.addEventListener('pagehide', bye)
  // A leader answers at once; claim only when none did.
  post({ t: 'who' })
  const first = setTimeout(beat, 50 + Math.random() * 50)
  return () => {
    clearInterval(timer)
    clearTimeout(first)
    bye()
    unlisten()
    if (typeof window === 'object') window.removeEventListener('pagehide', bye)
  }
}
