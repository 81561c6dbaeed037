// The README's Next.js recipe, as app/api/inbox/[...path]/route.ts would hold it: one handler for the API routes,
// the event stream (GET /api/inbox/events) and the service's webhooks (POST /api/inbox/webhooks/messages).
import { bearerTokenAuth, createInboxProxy, type InboxProxyHandler } from '../../../src/proxy'

// One proxy for the process, made at the first request: `next build` loads this module without the secrets.
let proxy: InboxProxyHandler | undefined
function handler(request: Request) {
  proxy ??= createInboxProxy({
    upstreamUrl: process.env.INBOX_API_URL!,
    apiKey: process.env.INBOX_API_KEY!,
    basePath: '/api/inbox',
    authenticate: bearerTokenAuth(process.env.INBOX_TOKEN_SECRET!),
    events: { webhookSecret: process.env.INBOX_WEBHOOK_SECRET! },
  })
  return proxy(request)
}

// Streams live in this process: run on Node, never prerendered or cached.
export const runtime = 'nodejs'
export const dynamic = 'force-dynamic'
// PUT and DELETE too: the proxy answers a method a path does not take with 405 and its `Allow` (Next's has none).
export { handler as GET, handler as POST, handler as PATCH, handler as PUT, handler as DELETE }
