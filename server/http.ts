import type { ErrorBody } from '../src/api/types'
import { BodyTooLarge, readBody } from '../src/proxy/body'

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

/** HTTP reason phrase of `status`. */
function reason(status: number): string {
  return REASONS[status] ?? (status >= 500 ? 'Server Error' : 'Error')
}

/** A failure that becomes an error response. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: ErrorBody['errors'],
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

/**
 * How many bad fields one 422 lists. A body of a few kilobytes can hold tens of thousands of bad array items
 * (`"hours": [0, 0, …]`), and an answer naming each would be a hundred times the request: the fields past this
 * many are counted, under the field of the first one left out.
 */
export const MAX_LISTED_ISSUES = 100

/** Collects every bad field of a request; `check()` throws one 422 naming them (the first {@link MAX_LISTED_ISSUES}). */
export class Issues {
  // No prototype, so that a field named `__proto__` or `constructor` is just a field.
  private readonly errors: NonNullable<ErrorBody['errors']> = Object.create(null)
  private listed = 0
  private unlisted: { field: string; count: number } | undefined

  add(path: string, message: string, value?: unknown): void {
    let entry = this.errors[path]
    if (!entry) {
      if (this.listed >= MAX_LISTED_ISSUES) {
        // The top-level field (`schedule`, `messageId`) of the first bad field not listed.
        this.unlisted ??= { field: /^[^.[]*/.exec(path)![0] || path, count: 0 }
        this.unlisted.count++
        return
      }
      this.listed++
      entry = this.errors[path] = { messages: [] }
    }
    entry.messages.push(message)
    if (value !== undefined) entry.value = value
  }

  get empty(): boolean {
    return this.listed === 0
  }

  check(): void {
    if (this.empty) return
    if (this.unlisted) {
      const { field, count } = this.unlisted
      const entry = (this.errors[field] ??= { messages: [] })
      entry.messages.push(
        `${count} more invalid field${count === 1 ? '' : 's'} not listed (a 422 lists ${MAX_LISTED_ISSUES})`,
      )
    }
    throw new HttpError(422, 'Validation Error', this.errors)
  }
}

/** The error body of api-decisions. */
export function errorBody(status: number, message: string, path: string, extra: Partial<ErrorBody> = {}): ErrorBody {
  return { statusCode: status, timestamp: new Date().toISOString(), path, message, error: reason(status), ...extra }
}

/** A JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  })
}

/**
 * How many levels of objects and arrays a request body may nest. Far below what would exhaust the stack when a
 * stored payload is serialized again, and far above what a real payload needs.
 */
export const MAX_JSON_DEPTH = 64

/** Where `value` nests more than `max` levels: the field that holds the deep part, and how deep that field may nest. */
export interface TooDeep {
  path: string
  allowed: number
}

/**
 * Finds a part of `value` nested more than `max` levels deep (an object or array is one level), without recursion.
 * The path names the field a caller would recognise: the top-level key, and through an array one index and key
 * more (`payload`, `events[2].payload`), never the whole way down.
 */
export function findTooDeep(value: unknown, max: number): TooDeep | null {
  if (!isContainer(value)) return null
  // Each entry: a container, the containers above it, its field path, and the depth at which that path was named.
  const stack: [object, number, string, number, boolean][] = [[value, 0, '', 0, false]]
  while (stack.length > 0) {
    const [v, depth, path, named, underArray] = stack.pop()!
    if (depth >= max) return { path: path || 'body', allowed: max - named }
    const array = Array.isArray(v)
    // Named further: the root's fields, an array's items, and the fields of those items.
    const extend = depth === 0 || (depth === 1 && array) || (depth === 2 && underArray && !array)
    const below = extend ? depth + 1 : named
    if (array) {
      for (let i = v.length - 1; i >= 0; i--) {
        const item: unknown = v[i]
        if (isContainer(item)) stack.push([item, depth + 1, extend ? `${path}[${i}]` : path, below, true])
      }
    } else {
      for (const key of Object.keys(v)) {
        const item: unknown = (v as Record<string, unknown>)[key]
        if (isContainer(item))
          stack.push([item, depth + 1, extend ? (path ? `${path}.${key}` : key) : path, below, false])
      }
    }
  }
  return null
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null
}

/** A 422 naming the field that nests too deep. */
export function tooDeepError(found: TooDeep): HttpError {
  const message = `must not nest objects and arrays more than ${found.allowed} levels deep`
  return new HttpError(422, 'Validation Error', { [found.path]: { messages: [message] } })
}

/** Reads the body as JSON within `limit` bytes and `MAX_JSON_DEPTH` levels; `undefined` when empty. */
export async function readJson(request: Request, limit: number): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (declared > limit) throw new HttpError(413, `Request body larger than ${limit} bytes`)
  const type = request.headers.get('content-type')
  const bytes = await readBody(request, limit).catch((error: unknown) => {
    if (error instanceof BodyTooLarge) throw new HttpError(413, `Request body larger than ${limit} bytes`)
    // The client went away or broke the framing mid-body: nothing of it is used.
    throw new HttpError(400, 'Request body could not be read')
  })
  if (bytes === null || bytes.length === 0) return undefined
  if (type !== null && !/[/+]json\b/i.test(type))
    throw new HttpError(415, `Content-Type ${type.split(';')[0]} is not supported: send application/json`)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new HttpError(400, 'Request body is not valid UTF-8')
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON')
  }
  const deep = findTooDeep(value, MAX_JSON_DEPTH)
  if (deep) throw tooDeepError(deep)
  return value
}
