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
export function reason(status: number): string {
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

/** Collects every bad field of a request; `check()` throws one 422 naming them all. */
export class Issues {
  // No prototype, so that a field named `__proto__` or `constructor` is just a field.
  private readonly errors: NonNullable<ErrorBody['errors']> = Object.create(null)

  add(path: string, message: string, value?: unknown): void {
    const entry = (this.errors[path] ??= { messages: [] })
    entry.messages.push(message)
    if (value !== undefined) entry.value = value
  }

  get empty(): boolean {
    return Object.keys(this.errors).length === 0
  }

  check(): void {
    if (!this.empty) throw new HttpError(422, 'Validation Error', this.errors)
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

/** Reads the body as JSON within `limit` bytes; `undefined` when empty. */
export async function readJson(request: Request, limit: number): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (declared > limit) throw new HttpError(413, `Request body larger than ${limit} bytes`)
  const type = request.headers.get('content-type')
  const bytes = await readBody(request, limit).catch((error: unknown) => {
    throw error instanceof BodyTooLarge ? new HttpError(413, `Request body larger than ${limit} bytes`) : error
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
  try {
    return JSON.parse(text)
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON')
  }
}

