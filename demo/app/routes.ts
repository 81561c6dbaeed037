import type { JsonObject } from '../../src/client'

// The demo backend's routes and shapes, shared by the page and demo/server (which may import the page's code,
// never the other way round: the dev server serves only this folder, the kit's browser code and node_modules).

/** Where the page reaches the subscriber-scoped proxy. */
export const INBOX_PATH = '/api/inbox'
/** Where the page reaches the demo's stand-in for a host app's own backend; it needs a demo session. */
export const ADMIN_PATH = '/demo-admin'
/** Where the page signs a subscriber in. */
export const SESSION_PATH = '/demo-auth/session'

/** A subscriber the switcher offers. */
export interface DirectorySubscriber {
  subscriberId: string
  name: string
  email: string | null
  avatar: string | null
}

/** A workflow the send panel offers, with a payload that fills every `{{payload.…}}` of its templates. */
interface DirectoryWorkflow {
  identifier: string
  name: string
  description: string
  critical: boolean
  active: boolean
  channels: string[]
  samplePayload: JsonObject
}

/** What `GET /demo-admin/directory` answers. */
export interface Directory {
  subscribers: DirectorySubscriber[]
  workflows: DirectoryWorkflow[]
  topics: { key: string; name: string }[]
  /** Display names of environments by id. */
  environments: Record<string, string>
}

/** What `POST /demo-auth/session` answers. */
export interface DemoSession {
  subscriberId: string
  token: string
  expiresAt: number
}
