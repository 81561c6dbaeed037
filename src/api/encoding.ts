/** A query parameter value; `undefined` and `null` leave the parameter out. */
export type QueryValue = string | number | boolean | null | undefined

/**
 * The feed's `payload` filter: base64 of the object's JSON, taken over its UTF-8 bytes so that any
 * Unicode text survives (plain `btoa` throws on characters above U+00FF).
 */
export const encodePayloadFilter = (payload: object): string =>
  // Byte by byte, not spread as arguments: a large filter would pass the engine's limit on arguments.
  btoa(Array.from(new TextEncoder().encode(JSON.stringify(payload)), (b) => String.fromCharCode(b)).join(''))

/** `?a=1&b=true` from the defined entries of `params`, or `''` when there are none. */
export function queryString(params: Record<string, QueryValue> = {}): string {
  // URLSearchParams turns numbers and booleans into text as `String` does.
  const s = new URLSearchParams(Object.entries(params).filter(([, value]) => value != null) as string[][]).toString()
  return s && `?${s}`
}

/** A path from literal parts and values, each value percent-encoded as one segment. */
export const path = (strings: TemplateStringsArray, ...values: string[]): string =>
  strings.reduce((out, s, i) => out + encodeURIComponent(values[i - 1]!) + s)

/**
 * A random v4 UUID. `crypto.randomUUID` exists only in secure contexts (https, localhost), so a page
 * served over plain http falls back to `getRandomValues`, which exists everywhere.
 */
export function randomKey(): string {
  if (crypto.randomUUID) return crypto.randomUUID()
  const b = crypto.getRandomValues(new Uint8Array(16))
  b[6] = (b[6]! & 15) | 64
  b[8] = (b[8]! & 63) | 128
  return Array.from(b, (x, i) => ([4, 6, 8, 10].includes(i) ? '-' : '') + x.toString(16).padStart(2, '0')).join('')
}
