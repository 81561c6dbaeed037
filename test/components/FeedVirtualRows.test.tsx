// @vitest-environment jsdom
/**
 * The feed's virtualizer with 10,000 rows: a row measured near the end adds up again the starts of the rows after
 * it, not of all. Counted (the estimates read for rows not measured), never timed: bench/scale.ts times the feed.
 */
import { act, renderHook } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { useVirtualRows } from '../../src/components/Feed/useVirtualRows'

const N = 10_000
const keys = Array.from({ length: N }, (_, i) => `row-${i}`)

/** A row element at `index` that is `height` px tall. */
function row(index: number, height: number): HTMLElement {
  const el = document.createElement('div')
  el.dataset.index = String(index)
  el.getBoundingClientRect = () => ({ height }) as DOMRect
  return el
}

describe('useVirtualRows with 10,000 rows', () => {
  it('adds up the starts again from a measured row on, the rows before it kept', async () => {
    const estimateSize = vi.fn(() => 50)
    const { result } = renderHook(() => useVirtualRows({ keys, estimateSize }))
    expect(result.current.totalSize).toBe(N * 50)
    estimateSize.mockClear()
    act(() => result.current.measureRef(row(N - 10, 80)))
    await act(() => Promise.resolve())
    expect(result.current.totalSize).toBe(N * 50 + 30)
    expect(estimateSize.mock.calls.length).toBeLessThanOrEqual(10)
    // One near the start: the rows after it, the one measured near the end among them, from its measured size.
    estimateSize.mockClear()
    act(() => result.current.measureRef(row(1, 20)))
    await act(() => Promise.resolve())
    expect(result.current.totalSize).toBe(N * 50 + 30 - 30)
    // (Each row after it but the one measured before, and the measured row's own estimate, read as it was measured.)
    expect(estimateSize.mock.calls.length).toBe(N - 2)
  })
})
