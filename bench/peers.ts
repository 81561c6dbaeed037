import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'

/** Where the peers are installed, apart from the kit's own dependencies. */
export const PEERS_DIR = fileURLToPath(new URL('./peers', import.meta.url))

/** A kit inbox-kit is measured against, and how to recognise its bell once rendered. */
export interface Peer {
  /** Key in the results. */
  id: string
  /** npm package as users install it. */
  name: string
  /** The tiny app: renders the kit's full inbox (bell + feed popover). */
  entry: string
  /** The same with the kit's headless layer and plain markup, where the kit has one. */
  hooksEntry?: string
  /** In-page condition: the bell is on screen. */
  bell: string
  /** What to click to open the feed, and the condition that it is shown. */
  open: { click: string; shown: string }
}

const app = (id: string) => join(PEERS_DIR, 'apps', `${id}.tsx`)

/**
 * The peers, in the order the table shows them. A bell is looked for by counting matches, not by taking the
 * element: an element handed to a script gets its JavaScript object then, which would put it in the page's heap
 * when the page itself never made one (an icon the browser parsed from markup).
 */
export const PEERS: Peer[] = [
  {
    id: 'novu',
    name: '@novu/react',
    entry: app('novu'),
    hooksEntry: app('novu-hooks'),
    bell: "return document.querySelectorAll('.nv-bellIcon').length > 0",
    open: {
      click: '.nv-popoverTrigger',
      shown: 'return document.querySelector(\'.nv-popoverContent[data-open="true"]\')',
    },
  },
  {
    id: 'knock',
    name: '@knocklabs/react',
    entry: app('knock'),
    hooksEntry: app('knock-hooks'),
    bell: "return document.querySelectorAll('button.rnf-notification-icon-button svg').length > 0",
    open: {
      click: 'button.rnf-notification-icon-button',
      shown:
        "const p = document.querySelector('.rnf-notification-feed-popover'); return p && p.style.visibility === 'visible'",
    },
  },
  {
    id: 'courier',
    name: '@trycourier/courier-react',
    entry: app('courier'),
    hooksEntry: app('courier-hooks'),
    // Courier renders web components; the bell's svg sits two shadow roots down.
    bell: "const b = document.querySelector('courier-inbox-menu-button courier-icon-button'); const i = b && b.shadowRoot && b.shadowRoot.querySelector('courier-icon'); return !!i && !!i.shadowRoot && i.shadowRoot.querySelectorAll('svg').length > 0",
    open: {
      click: 'courier-inbox-menu-button',
      shown: "return document.querySelector('courier-inbox-popup-menu .popup.visible')",
    },
  },
  {
    id: 'magicbell',
    name: '@magicbell/react',
    entry: app('magicbell'),
    bell: "return document.querySelectorAll('button.magicbell--inbox-button svg').length > 0",
    open: {
      click: 'button.magicbell--inbox-button',
      shown: "return document.querySelector('.magicbell--inbox-header')",
    },
  },
]

/**
 * Installs the peers from their own lock file when they are missing or the lock file changed since.
 * Install scripts are off: none of the peers needs one to be bundled (`npm install-scripts ls` there lists none).
 */
export function ensurePeers(): void {
  const lock = createHash('sha256')
    .update(readFileSync(join(PEERS_DIR, 'package-lock.json')))
    .digest('hex')
  const stamp = join(PEERS_DIR, 'node_modules', '.bench-lock-sha256')
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === lock) return
  console.error('Installing the peers into bench/peers from its lock file…')
  execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--prefix', PEERS_DIR], {
    stdio: ['ignore', 2, 'inherit'],
  })
  writeFileSync(stamp, lock)
}
