/** The body passed the limit it was read with. */
export class BodyTooLarge extends Error {}

/** Reads the body, giving up as soon as it passes `limit` bytes, whatever Content-Length claimed. */
export async function readBody(request: Request, limit: number): Promise<Uint8Array | null> {
  if (!request.body) return null
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      throw new BodyTooLarge()
    }
    chunks.push(value)
  }
  const body = new Uint8Array(size)
  chunks.reduce((offset, chunk) => (body.set(chunk, offset), offset + chunk.byteLength), 0)
  return body
}
