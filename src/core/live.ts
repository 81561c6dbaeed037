/**
 * When to look for news: every `interval` ms while the page is visible and online, at once when it
 * comes back; and the channel through which tabs of one subscriber share what they changed.
 */
import { focusManager, onlineManager } from '@tanstack/react-query'
import type { InboxSync, TabMessage } from './sync'

/** Starts polling and the tab channel of a provider; returns the stop function. */
export function startLive(sync: InboxSync, interval: number): () => void {
  const Channel = globalThis.BroadcastChannel
  let channel: BroadcastChannel | undefined
  try {
    channel = new Channel(`inbox-kit:${sync.client.options?.baseUrl ?? ''}:${sync.subscriberId}`)
    channel.onmessage = (event: MessageEvent<TabMessage>) => {
      if (typeof event.data?.t === 'string') sync.receive(event.data)
    }
  } catch {
    // No BroadcastChannel (old browsers, some workers): tabs catch up on their next poll.
  }
  const disconnect = sync.connect((message) => {
    try {
      channel?.postMessage(message)
    } catch {
      // A message that cannot be cloned is dropped; the other tabs catch up on their next poll.
    }
  })

  let missed = false
  const tick = () => {
    missed = !focusManager.isFocused() || !onlineManager.isOnline()
    if (!missed) sync.refresh().catch(() => {})
  }
  const timer = interval > 0 && interval < 2 ** 31 ? setInterval(tick, interval) : undefined
  const resume = (on: boolean) => on && missed && tick()
  const off = [focusManager.subscribe(resume), onlineManager.subscribe(resume)]
  return () => {
    clearInterval(timer)
    off.forEach((f) => f())
    disconnect()
    channel?.close()
  }
}
