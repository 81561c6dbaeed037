import { createServer, type Server } from 'node:http'
import { bearerTokenAuth, createInboxProxy, toNodeHandler } from '../../../src/proxy'

/** The README's node:http recipe: the proxy at /api/inbox, the rest of the app beside it. */
export function createAppServer(env: { INBOX_API_URL: string; INBOX_API_KEY: string; INBOX_TOKEN_SECRET: string }): Server {
  const inbox = toNodeHandler(
    createInboxProxy({
      upstreamUrl: env.INBOX_API_URL,
      apiKey: env.INBOX_API_KEY,
      basePath: '/api/inbox',
      authenticate: bearerTokenAuth(env.INBOX_TOKEN_SECRET),
    }),
  )
  return createServer((req, res) => {
    if (req.url?.startsWith('/api/inbox/')) return void inbox(req, res)
    res.statusCode = 404
    res.end()
  })
}
