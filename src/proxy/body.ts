/** The body passed the limit it was read with. */
export class BodyTooLarge extends Error {}

/**
 * Reads the body, giving up as soon as it passes `limit` bytes, whatever Content-Length claimed. An abort of
 * `signal` stops the reading and rejects with the signal's reason.
 */
export async function readBody(
  request: Pick<Request, 'body'>,
  limit: number,
  signal?: AbortSignal,
): Promise<Uint8Array | null> {
  if (!request.body) return null
  const reader = request.body.getReader()
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => {})
  signal?.addEventListener('abort', onAbort)
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      signal?.throwIfAborted()
      const { done, value } = await reader.read()
      signal?.throwIfAborted()
      if (done) break
      size += value.byteLength
      if (size > limit) {
        await reader.cancel().catch(() => {})
        throw new BodyTooLarge()
      }
      chunks.push(value)
    }
  } catch (error) {
    if (signal?.aborted) onAbort()
    throw error
  } finally {
    signal?.removeEventListener('abort', onAbort)
  }
  const body = new Uint8Array(size)
  chunks.reduce((offset, chunk) => (body.set(chunk, offset), offset + chunk.byteLength), 0)
  return body
}
