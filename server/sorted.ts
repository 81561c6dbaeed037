/**
 * Index of the first element of the ascending array `items` for which `compare(item) >= 0`
 * (`compare` is negative while the element is before the sought position).
 */
export function lowerBound<T>(items: readonly T[], compare: (item: T) => number): number {
  let lo = 0
  let hi = items.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (compare(items[mid] as T) < 0) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Inserts `item` into the ascending array at its place; appends in O(1) when it sorts last. */
export function insertSorted<T>(items: T[], item: T, compare: (a: T, b: T) => number): void {
  const last = items[items.length - 1]
  if (last === undefined || compare(last, item) <= 0) {
    items.push(item)
    return
  }
  items.splice(
    lowerBound(items, (x) => compare(x, item)),
    0,
    item,
  )
}

/** Removes `item` (found by binary search) from the ascending array; no-op when absent. */
export function removeSorted<T>(items: T[], item: T, compare: (a: T, b: T) => number): void {
  const index = lowerBound(items, (x) => compare(x, item))
  if (items[index] === item) items.splice(index, 1)
}
