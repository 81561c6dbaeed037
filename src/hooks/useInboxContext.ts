import { useContext } from 'react'
import { InboxContext, type InboxContextValue } from '../provider/InboxContext'

/**
 * The nearest {@link InboxProvider}'s client, QueryClient, subscriber, UI store, locale and theme.
 * Throws outside a provider, naming the caller so the message points at the component at fault.
 *
 * @param name - the component or hook asking, for the error message. @default 'useInboxContext'
 * @example
 * const { subscriberId } = useInboxContext('Bell')
 * // outside a provider: Error("`Bell` must be used within `<InboxProvider>`")
 */
export function useInboxContext(name = 'useInboxContext'): InboxContextValue {
  const context = useContext(InboxContext)
  if (!context) throw new Error(`\`${name}\` must be used within \`<InboxProvider>\``)
  return context
}
