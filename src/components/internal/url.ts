/**
 * The URL when it is safe to use as a link or image source: http(s) or relative.
 * Anything else (`javascript:`, `data:`, `vbscript:`, malformed input) gives `null`.
 */
export function safeUrl(value: unknown): string | null {
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
    parsed = new URL(trimmed, 'http://relative.invalid/')
  } catch {
    return null
  }
  // And, independent of the URL parser, the text names no scheme but http(s).
  return /^https?:$/.test(parsed.protocol) && !/^(?!https?:)[a-z][a-z\d+.-]*:/i.test(trimmed) ? trimmed : null
}

/**
 * An image source that is safe to load: http(s), relative, or a `data:image/…` URL
 * (an image cannot run script, even an SVG one). Anything else gives `null`.
 */
export function safeImageUrl(value: unknown): string | null {
  return typeof value === 'string' && /^data:image\/(png|jpeg|gif|webp|avif|svg\+xml)[;,]/i.test(value.trim())
    ? value.trim()
    : safeUrl(value)
}
