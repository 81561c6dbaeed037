/** Generates 24-hex ids that sort by creation time: 12 hex of ms time, 12 hex of a counter. */
export function createIdGenerator(): (timeMs: number) => string {
  let counter = 0
  return (timeMs) => {
    counter += 1
    return hex(Math.max(0, Math.floor(timeMs)), 12) + hex(counter, 12)
  }
}

function hex(value: number, width: number): string {
  return value.toString(16).padStart(width, '0').slice(-width)
}

const ID = /^[0-9a-f]{24}$/

/** Whether `value` has the shape of an id. */
export function isId(value: string): boolean {
  return ID.test(value)
}

let lastMs = NaN
let lastIso = ''

/** ISO 8601 UTC with milliseconds. */
export function iso(ms: number): string {
  // Bulk inserts stamp many records within one millisecond.
  if (ms !== lastMs) {
    lastMs = ms
    lastIso = new Date(ms).toISOString()
  }
  return lastIso
}

/** A random UUID v4 that also works outside secure contexts. */
export { randomKey as uuid } from '../src/api/encoding'
