// The README's Next.js token route, as app/api/inbox-token/route.ts would hold it: the Quick start's token
// route for the App Router, issuing the tokens that the proxy's route (next-route.ts) accepts.
import { createSubscriberToken } from '../../../src/proxy'

// The app's own sign-in; here a `user` cookie stands for its session.
function signedInUser(request: Request): string | null {
  return /(?:^|;\s*)user=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1] ?? null
}

export async function POST(request: Request) {
  const user = signedInUser(request)
  if (!user) return new Response(null, { status: 401 })
  return Response.json({
    token: await createSubscriberToken(user, process.env.INBOX_TOKEN_SECRET!, { expiresIn: 600 }),
  })
}
