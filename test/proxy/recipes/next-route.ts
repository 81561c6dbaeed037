// The README's Next.js recipe, as app/api/inbox/[...path]/route.ts would hold it.
import { bearerTokenAuth, createInboxProxy } from '../../../src/proxy'

const handler = createInboxProxy({
  upstreamUrl: process.env.INBOX_API_URL!,
  apiKey: process.env.INBOX_API_KEY!,
  basePath: '/api/inbox',
  authenticate: bearerTokenAuth(process.env.INBOX_TOKEN_SECRET!),
})

export { handler as GET, handler as POST, handler as PATCH }
