import { createServer, type Server } from 'node:http'
import { bearerTokenAuth, createInboxProxy, toNodeHandler } from '../../../src/proxy'

/**
 * The README's node:http recipe: the proxy at /api/inbox (its event stream and webhook route included), the rest
 * of the app beside it.
 */
export function createAppServer(env: {
  INBOX_API_URL: string
  INBOX_API_KEY: string
  INBOX_TOKEN_SECRET: string
  INBOX_WEBHOOK_SECRET: string
}): Server {
  const inbox = toNodeHandler(
    createInboxProxy({
      upstreamUrl: env.INBOX_API_URL,
      apiKey: env.INBOX_API_KEY,
      basePath: '/api/inbox',
      authenticate: bearerTokenAuth(env.INBOX_TOKEN_SECRET),
      events: { webhookSecret: env.INBOX_WEBHOOK_SECRET },
    }),
  )
  return createServer((req, res) => {
    if (req.url?.startsWith('/api/inbox/')) return void inbox(req, res)
    res.statusCode = 404
    res.end()
  })
}
