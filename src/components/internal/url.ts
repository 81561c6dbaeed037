/**
 * The URL when it is safe to use as a link: http(s), or relative within the page's origin.
 * Anything else (`javascript:`, `data:`, `vbscript:`, `//host`, malformed input) gives `null`.
 */
export function safeUrl(value: unknown): string | null {
  const url = webUrl(value)
  // A URL without a scheme reads as a path of the app's own, but one that names a host ("//evil.example",
  // "/\evil.example", which browsers read alike) leaves the origin: an app whose router takes the relative
  // URLs it is given, and the browser the others, would send the reader off-site from within the app.
  return url && (url.scheme || url.parsed.host === BASE_HOST) ? url.text : null
}

const BASE_HOST = 'relative.invalid'

/** The text of an http(s) or relative URL, as parsed, and whether it names its scheme; else `null`. */
function webUrl(value: unknown): { text: string; parsed: URL; scheme: boolean } | null {
  if (typeof value !== 'string') return null
  const trimmed = value.trim()
  if (
    !trimmed ||
    // Control characters (tabs and newlines, which browsers drop inside a scheme, among them), and a lone
    // surrogate: it makes the browser's own URL parser fail where `new URL` below does not.
    // eslint-disable-next-line no-control-regex -- control characters are what it refuses
    /[\u0000-\u001f\u007f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(trimmed)
  )
    return null
  let parsed: URL
  try {
    // The parser strips what browsers strip ("java\tscript:"), so its scheme is the one a browser would use.
    parsed = new URL(trimmed, `http://${BASE_HOST}/`)
  } catch {
    return null
  }
  // And, independent of the URL parser, the text names no scheme but http(s).
  const scheme = /^[a-z][a-z\d+.-]*:/i.exec(trimmed)?.[0]
  return /^https?:$/.test(parsed.protocol) && (!scheme || /^https?:$/i.test(scheme))
    ? { text: trimmed, parsed, scheme: !!scheme }
    : null
}

/**
 * An image source that is safe to load: http(s), relative (on any host: an image takes the reader nowhere), or
 * a `data:image/…` URL (an image cannot run script, even an SVG one). Anything else gives `null`.
 */
export function safeImageUrl(value: unknown): string | null {
  return typeof value === 'string' && /^data:image\/(png|jpeg|gif|webp|avif|svg\+xml)[;,]/i.test(value.trim())
    ? value.trim()
    : (webUrl(value)?.text ?? null)
}
