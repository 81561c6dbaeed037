import type { InboxPanelProps } from './InboxPanel'

/** The props of the panel (the feed and settings views), which every shape passes on to it. */
export const PANEL_KEYS = new Set<string>([
  'markSeenOnOpen',
  'tabs',
  'showPreferences',
  'settings',
  'renderItem',
  'renderBody',
  'renderEmpty',
  'groupBy',
  'onNavigate',
  'onAction',
  'onItemClick',
  'limit',
  'feedInitialRect',
] satisfies (keyof InboxPanelProps)[])

/** Splits a shape's props into the panel's and the rest (for its root element). */
export function splitPanelProps(props: object): [Record<string, unknown>, Record<string, unknown>] {
  const panel: Record<string, unknown> = {}
  const rest: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(props)) (PANEL_KEYS.has(key) ? panel : rest)[key] = value
  return [panel, rest]
}
