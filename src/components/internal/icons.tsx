import type { ReactElement, ReactNode, SVGProps } from 'react'

/** What an icon takes: the props of its `<svg>`. */
export type IconProps = SVGProps<SVGSVGElement>

/**
 * An icon of the kit as an element: a stroked path on a 24-unit grid, hidden from assistive technology. A
 * function rather than a component, so that an icon adds no component to each row that shows one.
 */
export function icon(d: string, props?: IconProps, extra?: ReactNode): ReactElement {
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
      <path d={d} />
      {extra}
    </svg>
  )
}

/** The bell's path (the other icons' are in glyphs.ts). */
export const BELL = 'M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.94 1.94 0 0 0 3.4 0'
