/** A fresh idempotency key: one per user action, reused by every retry of its request. */
export function createIdempotencyKey(): string {
  const c = (globalThis as { crypto?: Crypto }).crypto
  // randomUUID exists only in secure contexts; elsewhere random bits from getRandomValues (or Math.random) do.
  if (typeof c?.randomUUID === 'function') return c.randomUUID()
  const bytes = new Uint8Array(16)
  if (typeof c?.getRandomValues === 'function') c.getRandomValues(bytes)
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}
