import { request } from 'node:http'
import { fileURLToPath } from 'node:url'
import { demoFixture } from '../../server'

/** The repository's absolute path, without a trailing slash. */
const REPO = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '')

/** Every API key of the demo fixture: none may ever appear in anything the dev server answers. */
export const DEMO_KEYS = demoFixture.apiKeys.map((k) => k.key)

/**
 * Requests for server-side files (the Vite config, the demo's server code, the service, its fixture holding
 * both keys, repository files) in the forms that reach them: root-relative, `/@fs/`, `/@id/`, with Vite's
 * `?raw` / `?import` / `?url` / `?inline`, and `..` paths plain, encoded and double-encoded. The Vite config
 * and the demo's server modules come first: requesting them used to open the way to the rest.
 */
export const ATTACK_URLS: readonly string[] = [
  '/vite.config.ts',
  '/demo/vite.config.ts',
  '/server/plugin.ts',
  '/server/backend.ts',
  `/@fs${REPO}/demo/vite.config.ts`,
  `/@fs${REPO}/demo/server/plugin.ts`,
  `/@fs${REPO}/demo/server/backend.ts`,
  `/@fs${REPO}/server/index.ts`,
  `/@fs${REPO}/server/fixtures/demo.ts`,
  `/@fs${REPO}/server/fixtures/demo.ts?raw`,
  `/@fs${REPO}/server/fixtures/demo.ts?import`,
  `/@fs${REPO}/server/fixtures/demo.ts?url`,
  `/@fs${REPO}/server/fixtures/demo.ts?inline`,
  `/@fs${REPO}/server/fixtures/demo.ts?import&raw`,
  '/server/fixtures/demo.ts',
  '/server/fixtures/demo.ts?raw',
  '/server/index.ts?import',
  `${REPO}/server/fixtures/demo.ts`,
  `/@id${REPO}/server/fixtures/demo.ts`,
  `/@id/__x00__${REPO}/server/fixtures/demo.ts`,
  '/@id/../../server/fixtures/demo.ts',
  '/../../server/fixtures/demo.ts',
  '/../vite.config.ts?raw',
  '/%2e%2e/%2e%2e/server/fixtures/demo.ts',
  '/..%2f..%2fserver%2ffixtures%2fdemo.ts',
  '/%252e%252e/%252e%252e/server/fixtures/demo.ts',
  '/panels/../../../server/fixtures/demo.ts?raw',
  `/@fs${REPO}/src/../server/fixtures/demo.ts`,
  `/@fs${REPO}/src/%2e%2e/server/fixtures/demo.ts?raw`,
  `/@fs${REPO}/node_modules/../server/fixtures/demo.ts?import`,
  `/@fs${REPO}/demo/app/../server/backend.ts`,
  `/@fs${REPO}/demo/app/../../server/fixtures/demo.ts?raw`,
  `/@fs/${REPO}/server/fixtures/demo.ts`,
  `/@FS${REPO}/server/fixtures/demo.ts`,
  `http://127.0.0.1/@fs${REPO}/server/fixtures/demo.ts`,
  `/@fs${REPO}/src/proxy/index.ts`,
  `/@fs${REPO}/test/e2e/demo.test.ts`,
  `/@fs${REPO}/package.json`,
  `/@fs${REPO}/.git/config`,
  `/@fs${REPO}/.env`,
  `/__open-in-editor?file=${REPO}/server/fixtures/demo.ts`,
]

/** A request target as sent on the wire (no normalisation of `..` or `%2e`, unlike `fetch`). */
export function get(
  base: string,
  target: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: target, method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}
