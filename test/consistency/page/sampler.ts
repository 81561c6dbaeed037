/**
 * Watches the page in every animation frame (what is about to be painted) and after every DOM commit:
 * the bell's count, the Unread tab's count and the rows of the list shown, the rows that show a
 * failure, what the inbox's live region says, and how soon each click on a row's toggle shows.
 */

/** What one look at the DOM found. */
export interface Snapshot {
  t: number
  bell: number
  /** The count in the bell's accessible name (0 when it names none). */
  bellName: number
  /** The Unread tab's count; `null` while there is no such tab (the popover's code still loading). */
  tab: number | null
  active: 'all' | 'unread'
  /** `loading`: no list yet; `partial`: the list has more than its rows in the DOM; `error`: it failed. */
  list: 'rows' | 'empty' | 'loading' | 'partial' | 'error' | 'none'
  rows: number
  unreadRows: number
  /** Ids of the unread rows, for the report of a disagreement. */
  unreadIds: string[]
}

export interface Disagreement extends Snapshot {
  source: 'frame' | 'commit'
  why: string
}

/** A click on a row's read/unread toggle, and when its row showed the change. */
export interface Click {
  list: 'kit' | 'plain'
  id: string
  /** `performance.now()` at the capturing `pointerdown` and `click` listeners. */
  downAt: number
  clickAt: number
  unreadBefore: boolean
  /** When the row's `data-unread` flipped (or the row left the list), seen by a MutationObserver. */
  flipAt?: number
  /** The first animation frame at or after the flip. */
  frameAt?: number
  /** Animation frames that ran after the click and before the flip (0: shown in the next frame). */
  framesMissed: number
}

const LIVE = '[data-inbox-root] > [role="status"][aria-live="polite"]'

function read(): Snapshot {
  const t = performance.now()
  const bellEl = document.querySelector<HTMLElement>('button[aria-haspopup="dialog"][data-count]')
  const bell = Number(bellEl?.dataset.count ?? NaN)
  const bellName = Number(/\d+/.exec(bellEl?.getAttribute('aria-label') ?? '')?.[0] ?? 0)
  const tabs = [...document.querySelectorAll<HTMLElement>('[role="tab"]')]
  const unreadTab = tabs.find((el) => el.textContent?.startsWith('Unread'))
  const tab = unreadTab ? Number(/\d+/.exec(unreadTab.textContent ?? '')?.[0] ?? 0) : null
  const active = unreadTab?.getAttribute('aria-selected') === 'true' ? 'unread' : 'all'
  const panel = document.querySelector('[role="tabpanel"]')
  const feed = panel?.firstElementChild as HTMLElement | null | undefined
  const snapshot: Snapshot = { t, bell, bellName, tab, active, list: 'none', rows: 0, unreadRows: 0, unreadIds: [] }
  if (!feed) return snapshot
  if (feed.dataset.state === 'loading') return { ...snapshot, list: 'loading' }
  if (feed.querySelector('[data-state="empty"]')) return { ...snapshot, list: 'empty' }
  const rows = [...feed.querySelectorAll<HTMLElement>('article[data-inbox-item]')]
  if (!rows.length) return { ...snapshot, list: feed.querySelector('[data-state="error"]') ? 'error' : 'loading' }
  const size = Number(rows[0]!.getAttribute('aria-setsize'))
  const unread = rows.filter((r) => r.hasAttribute('data-unread'))
  return {
    ...snapshot,
    list: size >= 0 && size === rows.length ? 'rows' : 'partial',
    rows: rows.length,
    unreadRows: unread.length,
    unreadIds: unread.map((r) => r.dataset.id!),
  }
}

/** Why the bell, the tab and the list shown do not agree; `''` when they do. */
function disagreement(s: Snapshot): string {
  const why: string[] = []
  if (Number.isNaN(s.bell)) return ''
  if (s.bell !== s.bellName) why.push(`bell shows ${s.bell}, its name says ${s.bellName}`)
  if (s.tab !== null && s.bell !== s.tab) why.push(`bell ${s.bell} ≠ Unread tab ${s.tab}`)
  if (s.list === 'rows' || s.list === 'empty') {
    if (s.active === 'all' && s.unreadRows !== s.bell)
      why.push(`All list has ${s.unreadRows} unread rows, bell ${s.bell}`)
    if (s.active === 'unread' && s.rows !== s.bell) why.push(`Unread list has ${s.rows} rows, bell ${s.bell}`)
    if (s.active === 'unread' && s.unreadRows !== s.rows) why.push(`Unread list has ${s.rows - s.unreadRows} read rows`)
  }
  return why.join('; ')
}

export function startSampler() {
  const counts = { frames: 0, commits: 0, listFrames: 0, partialFrames: 0, loadingFrames: 0 }
  const disagreements: Disagreement[] = []
  const clicks: Click[] = []
  const announcements: { t: number; text: string }[] = []
  /** Each time a row began to show a failure, and when it stopped (`null`: still showing). */
  const failedSpans: { id: string; from: number; to: number | null }[] = []
  const failing = new Map<string, (typeof failedSpans)[number]>()
  let downAt = NaN

  const check = (source: Disagreement['source']) => {
    const s = read()
    const why = disagreement(s)
    if (why && disagreements.length < 200) disagreements.push({ ...s, source, why })
    return s
  }

  const rowOf = (click: Click) =>
    document.querySelector<HTMLElement>(
      `${click.list === 'kit' ? 'article[data-inbox-item]' : 'article[data-plain-item]'}[data-id="${click.id}"]`,
    )
  const watchClicks = (now: number) => {
    for (const click of clicks) {
      if (click.flipAt !== undefined) continue
      const row = rowOf(click)
      if (!row || row.hasAttribute('data-unread') !== click.unreadBefore) click.flipAt = now
    }
  }

  const observer = new MutationObserver((records) => {
    const now = performance.now()
    // An alert that appears is said at once (a failed "mark all" is told so, not in the live region).
    for (const r of records)
      for (const node of r.addedNodes)
        if (node instanceof HTMLElement && node.getAttribute('role') === 'alert')
          announcements.push({ t: now, text: node.textContent ?? '' })
    watchClicks(now)
    counts.commits++
    check('commit')
  })
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true })

  let live: Element | null = null
  const liveObserver = new MutationObserver((records) => {
    for (const r of records)
      for (const node of r.addedNodes) announcements.push({ t: performance.now(), text: node.textContent ?? '' })
  })

  const frame = () => {
    const now = performance.now()
    counts.frames++
    const s = check('frame')
    if (s.list === 'rows' || s.list === 'empty') counts.listFrames++
    else if (s.list === 'partial') counts.partialFrames++
    else if (s.list === 'loading') counts.loadingFrames++
    for (const click of clicks) {
      if (click.flipAt === undefined) click.framesMissed++
      else click.frameAt ??= now
    }
    const shown = new Set(
      [...document.querySelectorAll<HTMLElement>('article[data-inbox-item][data-failed]')].map((r) => r.dataset.id!),
    )
    for (const id of shown)
      if (!failing.has(id)) {
        const span = { id, from: now, to: null }
        failing.set(id, span)
        failedSpans.push(span)
      }
    for (const [id, span] of failing)
      if (!shown.has(id)) {
        span.to = now
        failing.delete(id)
      }
    const region = document.querySelector(LIVE)
    if (region !== live) {
      liveObserver.disconnect()
      live = region
      if (live) liveObserver.observe(live, { childList: true, subtree: true, characterData: true })
    }
    requestAnimationFrame(frame)
  }
  requestAnimationFrame(frame)

  addEventListener('pointerdown', () => (downAt = performance.now()), { capture: true })
  addEventListener(
    'click',
    (event) => {
      const clickAt = performance.now()
      const button = (event.target as Element | null)?.closest?.('button')
      const row = button?.closest<HTMLElement>('article[data-inbox-item], article[data-plain-item]')
      if (!button || !row || !/^Mark as (un)?read$/.test(button.getAttribute('aria-label') ?? '')) return
      clicks.push({
        list: row.hasAttribute('data-inbox-item') ? 'kit' : 'plain',
        id: row.dataset.id!,
        downAt,
        clickAt,
        unreadBefore: row.hasAttribute('data-unread'),
        framesMissed: 0,
      })
    },
    { capture: true },
  )

  return { counts, disagreements, clicks, announcements, failedSpans, read }
}
