import { randomBytes } from 'node:crypto'
import type { Plugin, PreviewServer, ViteDevServer } from 'vite'
import type { ServiceOptions } from '../../server'
import { ADMIN_PATH, INBOX_PATH, SESSION_PATH, createDemo } from './backend'
import { toNodeHandler } from '../../src/proxy'

const OWN_PATHS = [INBOX_PATH + '/', ADMIN_PATH + '/', SESSION_PATH]

/**
 * Embeds the reference service (demo fixture unless told otherwise) in the Vite dev server, behind the demo's
 * sign-in route, the subscriber-scoped proxy (its event stream fed by the service's webhooks) and the admin
 * backend. Everything runs in the dev server's process.
 */
export function inboxDemoService(options: ServiceOptions = {}): Plugin {
  /** Mounts the demo's routes in front of a Vite server's own (the dev server's, or `vite preview`'s). */
  const attach = (server: ViteDevServer | PreviewServer) => {
    const { service, backend } = createDemo({ ...options, secret: randomBytes(32).toString('hex') })
    const handle = toNodeHandler(backend)
    server.middlewares.use((req, res, next) => {
      const path = (req.url ?? '').split('?')[0] ?? ''
      if (!OWN_PATHS.some((own) => path === own || path.startsWith(own))) return next()
      void handle(req, res)
    })
    server.httpServer?.once('listening', () => {
      setTimeout(() => {
        const subscribers = service.state.subscribers().length
        server.config.logger.info(
          `  ➜  inbox-kit demo: reference service embedded (${subscribers} subscribers); the API key stays on this server;` +
            ` new messages are pushed to ${INBOX_PATH}/events through signed webhooks`,
        )
      }, 0)
    })
  }
  return { name: 'inbox-kit-demo-service', configureServer: attach, configurePreviewServer: attach }
}
