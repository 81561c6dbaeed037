/** The paths of the icons the feed, its items and the settings draw with `icon` (icons.tsx). */

// Circles are drawn as two arcs (`M<x-r> <y>a<r> <r> 0 1 0 <2r> 0a<r> <r> 0 1 0 <-2r> 0`), written out rather than
// computed: a call at the top of the module would make it one with side effects, imported for them.
const RING = 'M3 12a9 9 0 1 0 18 0a9 9 0 1 0-18 0'

export const SETTINGS =
  'M4 6h9M17 6h3M4 12h3M11 12h9M4 18h11M19 18h1M13 6a2 2 0 1 0 4 0a2 2 0 1 0-4 0M7 12a2 2 0 1 0 4 0a2 2 0 1 0-4 0M15 18a2 2 0 1 0 4 0a2 2 0 1 0-4 0'
export const CHECK_ALL = 'M2 12.5 6.5 17 15 8M11 16l1 1 10-10'
/** Back and forward point the other way in right-to-left layouts (`data-inbox-flip`). */
export const BACK = 'M15 18l-6-6 6-6'
export const FORWARD = 'M9 6l6 6-6 6'
export const ARROW_UP = 'M12 19V5M5 12l7-7 7 7'
export const CHECK = 'M20 6 9 17l-5-5'
/** A closed envelope, drawn with a filled dot beside it: "mark as unread". */
export const ENVELOPE = 'M20 11v7a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h8M4 8l8 5 3.5-2.2'
export const ENVELOPE_OPEN = 'M3 10l9-6 9 6v9a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1zM3 10l9 6 9-6'
export const LOCK = 'M6 11h12a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-6a2 2 0 0 1 2-2zM8 11V7a4 4 0 0 1 8 0v4'
export const ALERT = RING + 'M12 8v4M12 16h.01'
export const INBOX_EMPTY =
  'M22 12h-6l-2 3h-4l-2-3H2M5.45 5.11 2 12v6a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-6l-3.45-6.89A2 2 0 0 0 16.76 4H7.24a2 2 0 0 0-1.79 1.11z'
export const PERSON = 'M8 8a4 4 0 1 0 8 0a4 4 0 1 0-8 0M4 21a8 8 0 0 1 16 0'
export const CLOSE = 'M18 6 6 18M6 6l12 12'

const SYSTEM: Record<string, string> = {
  info: 'M12 16v-4M12 8h.01',
  warning: 'M12 9v4M12 17h.01',
  error: 'M15 9l-6 6M9 9l6 6',
  success: 'M8 12.5l2.5 2.5L16 9.5',
  up: 'M12 16V8M8.5 11.5 12 8l3.5 3.5',
  question: 'M9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3M12 17h.01',
}

/** Known system icon names, shown as `data-icon` for styling; unknown ones are "info". */
export const systemIconName = (name: string | null): string => (name && name in SYSTEM ? name : 'info')

/** The path of a `system_icon` actor's icon: a ring around its mark. */
export const systemIcon = (name: string | null): string => RING + SYSTEM[systemIconName(name)]
