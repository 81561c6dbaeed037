import express, { type Express, type Request } from 'express'
import { createInboxProxy, createSubscriberToken, toNodeHandler, type NodeContext } from '../../../src/proxy'

/**
 * The README's Express recipe. `currentUser` stands for the app's own session middleware (say
 * `req.session.userId`); the proxy reads the same session, and a token route serves Bearer-token clients.
 */
export function createApp(
  env: { INBOX_API_URL: string; INBOX_API_KEY: string; INBOX_TOKEN_SECRET: string; INBOX_WEBHOOK_SECRET: string },
  currentUser: (req: Request) => string | null,
): Express {
  const app = express()
  app.use(
    '/api/inbox', // before express.json(), so the proxy reads and limits the body itself
    toNodeHandler(
      createInboxProxy<NodeContext>({
        upstreamUrl: env.INBOX_API_URL,
        apiKey: env.INBOX_API_KEY,
        basePath: '/api/inbox',
        authenticate: (_request, node) => currentUser(node!.req as Request),
        events: { webhookSecret: env.INBOX_WEBHOOK_SECRET },
      }),
    ),
  )
  app.use(express.json())
  app.post('/api/inbox-token', async (req, res) => {
    const user = currentUser(req)
    if (!user) return void res.status(401).end()
    res.json({ token: await createSubscriberToken(user, env.INBOX_TOKEN_SECRET, { expiresIn: 600 }) })
  })
  return app
}
