import type { ServiceOptions } from '../../server'
import { buildFixture } from '../support/fixtures'
import { BASE_URL, startService } from '../support/service'

/** Options of one raw request. */
export interface CallOptions {
  method?: string
  body?: unknown
  /** Sent as-is instead of JSON of `body`. */
  rawBody?: string
  /** `null` sends no Authorization header. */
  apiKey?: string | null
  headers?: Record<string, string>
}

/** A fresh service (a small {@link buildFixture} unless `options.fixture` is given) and a raw caller. */
export function rawService(options: ServiceOptions = {}) {
  const started = startService({ fixture: buildFixture(), ...options })
  const { service } = started
  const call = async (path: string, opts: CallOptions = {}) => {
    const headers: Record<string, string> = { ...opts.headers }
    const apiKey = opts.apiKey === undefined ? service.apiKey : opts.apiKey
    if (apiKey !== null) headers.authorization = `ApiKey ${apiKey}`
    let body: string | undefined = opts.rawBody
    if (body === undefined && opts.body !== undefined) body = JSON.stringify(opts.body)
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json'
    const response = await service.fetch(
      new Request(BASE_URL + (options.basePath ?? '').replace(/\/+$/, '') + path, {
        method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
        headers,
        ...(body !== undefined && { body }),
      }),
    )
    const text = await response.text()
    let json: any
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: response.status, headers: response.headers, json, text }
  }
  return { ...started, call }
}

/** Base64 of UTF-8 JSON, as the feed's payload filter wants it. */
export function encodePayload(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value))
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary)
}
