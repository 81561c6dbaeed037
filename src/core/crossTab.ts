/**
 * Tabs of one subscriber tell each other about changes over a BroadcastChannel, so the other tabs
 * apply the same pure updater to their cache instead of asking the service again.
 */
import type { Criticality, FeedItem, Preferences, UpdatePreferencesBody } from '../api/types'
import type { ItemState } from './optimistic'

/** What one tab tells the others. */
export type CrossTabMessage =
  /** Items got these flags; `items` carries them so lists that lacked them can take them in. */
  | { type: 'states'; states: [string, ItemState][]; items: FeedItem[] }
  /** Everything was marked read (or seen). */
  | { type: 'markAll'; kind: 'read' | 'seen' }
  /** Preferences changed; `data` is the service's answer, which lists `criticality`. */
  | { type: 'preferences'; body: UpdatePreferencesBody; criticality: Criticality; data: Preferences }

interface Envelope {
  source: string
  message: CrossTabMessage
}

/** An open channel; `post` does nothing where BroadcastChannel is missing. */
export interface CrossTab {
  post(message: CrossTabMessage): void
  close(): void
}

/** The channel's name: one per service and subscriber. */
export function crossTabChannelName(baseUrl: string, subscriberId: string): string {
  return `inbox-kit:${baseUrl}:${subscriberId}`
}

/**
 * Opens the channel and calls `onMessage` with what other tabs (or other providers of this page) post.
 * Feature-detected: without BroadcastChannel (older browsers, some workers, the server) it is a no-op.
 */
export function openCrossTab(name: string, onMessage: (message: CrossTabMessage) => void): CrossTab {
  const Channel = (globalThis as { BroadcastChannel?: typeof BroadcastChannel }).BroadcastChannel
  if (typeof Channel !== 'function') return { post() {}, close() {} }
  const source = Math.random().toString(36).slice(2) + Date.now().toString(36)
  let channel: BroadcastChannel
  try {
    channel = new Channel(name)
  } catch {
    return { post() {}, close() {} }
  }
  let closed = false
  channel.onmessage = (event: MessageEvent) => {
    const data = event.data as Partial<Envelope> | null
    if (!data || data.source === source || !data.message || typeof data.message.type !== 'string') return
    onMessage(data.message)
  }
  return {
    post(message) {
      if (closed) return
      try {
        channel.postMessage({ source, message } satisfies Envelope)
      } catch {
        // A message that cannot be cloned is dropped; the other tab catches up on its next poll.
      }
    },
    close() {
      closed = true
      channel.onmessage = null
      channel.close()
    },
  }
}
