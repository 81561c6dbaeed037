/** A query parameter value; `undefined` and `null` leave the parameter out. */
export type QueryValue = string | number | boolean | null | undefined

/**
 * The feed's `payload` filter: base64 of the object's JSON, taken over its UTF-8 bytes so that any
 * Unicode text survives (plain `btoa` throws on characters above U+00FF).
 */
export function encodePayloadFilter(payload: object): string {
  let binary = ''
  for (const byte of new TextEncoder().encode(JSON.stringify(payload))) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** `?a=1&b=true` from the defined entries of `params`, or `''` when there are none. */
export function queryString(params: Record<string, QueryValue> | undefined): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value != null) search.set(key, String(value))
  }
  const s = search.toString()
  return s && `?${s}`
}

/** A path from literal parts and values, each value percent-encoded as one segment. */
export function path(strings: TemplateStringsArray, ...values: string[]): string {
  return strings.reduce((out, s, i) => out + encodeURIComponent(values[i - 1] ?? '') + s)
}

/**
 * A random v4 UUID. `crypto.randomUUID` exists only in secure contexts (https, localhost), so a page served
 * over plain http falls back to `getRandomValues`, which exists everywhere.
 */
export function randomKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
