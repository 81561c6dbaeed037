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

/**
 * The bell's own icon, as {@link icon} draws it, but as markup for the browser's parser: the bell is on every
 * page from the first paint, and an `<svg>` that React makes (`createElementNS`) makes Chromium build the
 * JavaScript side of the SVG interfaces, about 36 kB of the page's heap (a sixth of all the inbox adds to it),
 * for two elements no script reads. Parsed, they have none until a script asks for them. A constant of the
 * kit's own: nothing from a notification or a prop goes through it.
 */
export const BELL_MARKUP = {
  __html: `<svg class="inbox-bell__icon" data-part="bell-icon" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false"><path d="${BELL}"></path></svg>`,
}
