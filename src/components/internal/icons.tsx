import type { ReactElement, SVGProps } from 'react'

type IconProps = SVGProps<SVGSVGElement>

function Svg({ children, ...props }: IconProps): ReactElement {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  )
}

export function BellIcon(props: IconProps): ReactElement {
  return (
    <Svg {...props}>
      <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </Svg>
  )
}

export function SettingsIcon(props: IconProps): ReactElement {
  return (
    <Svg {...props}>
      <path d="M4 6h9M17 6h3M4 12h3M11 12h9M4 18h11M19 18h1" />
      <circle cx="15" cy="6" r="2" />
      <circle cx="9" cy="12" r="2" />
      <circle cx="17" cy="18" r="2" />
    </Svg>
  )
}

export function CheckAllIcon(props: IconProps): ReactElement {
  return (
    <Svg {...props}>
      <path d="M2 12.5 6.5 17 15 8" />
      <path d="M11 16l1 1 10-10" />
    </Svg>
  )
}

export function BackIcon(props: IconProps): ReactElement {
  return (
    <Svg data-inbox-flip="" {...props}>
      <path d="M15 18l-6-6 6-6" />
    </Svg>
  )
}

export function ArrowUpIcon(props: IconProps): ReactElement {
  return (
    <Svg {...props}>
      <path d="M12 19V5M5 12l7-7 7 7" />
    </Svg>
  )
}

export function CheckIcon(props: IconProps): ReactElement {
  return (
    <Svg {...props}>
      <path d="M20 6 9 17l-5-5" />
    </Svg>
  )
}

/** A closed envelope with a dot: "mark as unread". */
export function EnvelopeDotIcon(props: IconProps): ReactElement {
  return (
    <Svg {...props}>
      <path d="M20 11v7a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h8" />
      <path d="m4 8 8 5 3.5-2.2" />
      <circle cx="19" cy="6" r="2.5" fill="currentColor" stroke="none" />
    </Svg>
  )
}

export function EnvelopeOpenIcon(props: IconProps): ReactElement {
  return (
    <Svg {...props}>
      <path d="M3 10l9-6 9 6v9a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1z" />
      <path d="M3 10l9 6 9-6" />
    </Svg>
  )
}

export function LockIcon(props: IconProps): ReactElement {
  return (
    <Svg {...props}>
      <rect x="4" y="11" width="16" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </Svg>
  )
}

export function AlertIcon(props: IconProps): ReactElement {
  return (
    <Svg {...props}>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 8v4M12 16h.01" />
    </Svg>
  )
}

export function InboxEmptyIcon(props: IconProps): ReactElement {
  return (
    <Svg strokeWidth="1.5" {...props}>
      <path d="M22 12h-6l-2 3h-4l-2-3H2" />
      <path d="M5.45 5.11 2 12v6a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-6l-3.45-6.89A2 2 0 0 0 16.76 4H7.24a2 2 0 0 0-1.79 1.11z" />
    </Svg>
  )
}

const SYSTEM_ICONS: Record<string, ReactElement> = {
  info: <path d="M12 16v-4M12 8h.01" />,
  warning: <path d="M12 9v4M12 17h.01" />,
  error: <path d="M15 9l-6 6M9 9l6 6" />,
  success: <path d="M8 12.5l2.5 2.5L16 9.5" />,
  up: <path d="M12 16V8M8.5 11.5 12 8l3.5 3.5" />,
  question: <path d="M9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3M12 17h.01" />,
}

/** The icon of a `system_icon` actor; unknown names fall back to "info". */
export function SystemIcon({ icon, ...props }: IconProps & { icon: string | null }): ReactElement {
  return (
    <Svg {...props}>
      <circle cx="12" cy="12" r="9" />
      {SYSTEM_ICONS[icon ?? ''] ?? SYSTEM_ICONS.info}
    </Svg>
  )
}

/** Known system icon names, shown as `data-icon` for styling. */
export function systemIconName(name: string | null): string {
  return name && name in SYSTEM_ICONS ? name : 'info'
}

export function PersonIcon(props: IconProps): ReactElement {
  return (
    <Svg {...props}>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21a8 8 0 0 1 16 0" />
    </Svg>
  )
}

export function ForwardIcon(props: IconProps): ReactElement {
  return (
    <Svg data-inbox-flip="" {...props}>
      <path d="M9 6l6 6-6 6" />
    </Svg>
  )
}

export function CloseIcon(props: IconProps): ReactElement {
  return (
    <Svg {...props}>
      <path d="M18 6 6 18M6 6l12 12" />
    </Svg>
  )
}
