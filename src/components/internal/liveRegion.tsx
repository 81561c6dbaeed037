import { useEffect, useRef, useState } from 'react'
import type { ReactElement } from 'react'
import { useStore } from 'zustand'
import { useCount } from '../../hooks/useCounts'
import { plural } from '../../i18n'
import { useUI, visuallyHidden } from './ui'

/**
 * The one polite live region of an inbox: it says how many unseen notifications arrived since the last
 * change (with `counts`), and that a change could not be saved — once per failure, wherever the
 * item is (its row keeps showing the failure until dismissed).
 */
export function LiveRegion({ counts = false }: { counts?: boolean }): ReactElement {
  const { m, locale, sync } = useUI('LiveRegion')
  const seen = useCount('unseen', counts)
  const unseen = counts && !seen.isLoading ? seen.count : undefined
  const told = useStore(sync.store, (s) => s.told)
  const previous = useRef({ unseen, told })
  const [said, setSaid] = useState<{ text: string; n: number } | null>(null)
  useEffect(() => {
    const before = previous.current
    previous.current = { unseen: unseen ?? before.unseen, told }
    let text = ''
    if (told > before.told) text = m.updateError
    else if (unseen !== undefined && before.unseen !== undefined && unseen > before.unseen)
      text = plural(m.newNotifications, unseen - before.unseen, locale)
    if (text) setSaid((s) => ({ text, n: (s?.n ?? 0) + 1 }))
  }, [unseen, told, m, locale])
  return (
    <div role="status" aria-live="polite" aria-atomic="true" style={visuallyHidden}>
      {/* A new node each time, so that the same words are announced again. */}
      {said && <span key={said.n}>{said.text}</span>}
    </div>
  )
}
