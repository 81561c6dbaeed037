export { InboxProvider } from './InboxProvider'
export type { InboxProviderProps } from './InboxProvider'
export { InboxContext } from './InboxContext'
export type { InboxContextValue, InboxTheme } from './InboxContext'
