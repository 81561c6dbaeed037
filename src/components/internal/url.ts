const SCHEME = /^[a-z][a-z\d+.-]*:/i

/**
 * The URL when it is safe to use as a link or image source: http(s) or relative.
 * Anything else (`javascript:`, `data:`, `vbscript:`, malformed input) gives `null`.
 */
export function safeUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const trimmed = value.trim()
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  if (trimmed === '' || /[\u0000-\u001f\u007f]/.test(trimmed)) return null
  // A lone surrogate makes the browser's own URL parser fail where `new URL` below does not.
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(trimmed)) return null
  let parsed: URL
  try {
    // The parser strips what browsers strip ("java\tscript:"), so its scheme is the one a browser would use.
    parsed = new URL(trimmed, 'http://relative.invalid/')
  } catch {
    return null
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null
  // Independent of the URL parser: what is left once browsers drop tabs and newlines names no other scheme.
  const squeezed = trimmed.replace(/[\t\n\r]/g, '')
  if (SCHEME.test(squeezed) && !/^https?:/i.test(squeezed)) return null
  return trimmed
}

const IMAGE_DATA_URL = /^data:image\/(png|jpeg|gif|webp|avif|svg\+xml)[;,]/i

/**
 * An image source that is safe to load: http(s), relative, or a `data:image/…` URL
 * (an image cannot run script, even an SVG one). Anything else gives `null`.
 */
export function safeImageUrl(value: unknown): string | null {
  if (typeof value === 'string' && IMAGE_DATA_URL.test(value.trim())) return value.trim()
  return safeUrl(value)
}
