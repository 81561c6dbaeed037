import { createContext, useContext } from 'react'
import { createTokenAuth } from '../../src/client'
import type { TokenAuth } from '../../src/client'
import { ADMIN_PATH, SESSION_PATH } from './routes'
import type { DemoSession, Directory } from './routes'

/**
 * Signs the page in as `subscriberId` through the demo's sign-in route. The token it gets speaks only for
 * that subscriber; the proxy checks it on every request, and the API key never leaves the server.
 */
export function signIn(subscriberId: string): TokenAuth {
  return createTokenAuth({
    fetchToken: async () => {
      const response = await fetch(SESSION_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ subscriberId }),
      })
      if (!response.ok) throw new Error(`Sign-in failed (${response.status})`)
      const session = (await response.json()) as DemoSession
      return { token: session.token, expiresAt: session.expiresAt }
    },
  })
}

/** The signed-in session, for the admin backend's requests. */
export const DemoAuthContext = createContext<TokenAuth | null>(null)

export function useDemoAuth(): TokenAuth {
  const auth = useContext(DemoAuthContext)
  if (!auth) throw new Error('useDemoAuth must be used within <DemoAuthContext>')
  return auth
}

/** Subscribers, workflows and topics of the demo's service, from the admin backend. */
export async function fetchDirectory(auth: TokenAuth): Promise<Directory> {
  const response = await fetch(`${ADMIN_PATH}/directory`, { headers: await auth.getHeaders() })
  if (!response.ok) throw new Error(`Directory failed (${response.status})`)
  return (await response.json()) as Directory
}
