import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Entry } from './exports'
import { REPO } from './run'

/** The subscriber every app shows. */
export const SUBSCRIBER_ID = 'user-1'

function write(root: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true })
    writeFileSync(join(root, name), text.trimStart())
  }
}

/** A module that imports every JS entry as a namespace: `e0`, `e1` … in the order of `entries`. */
function importEvery(entries: Entry[], as: 'import' | 'export'): string {
  return entries
    .filter((e) => e.kind === 'js')
    .map((e, i) => `${as} * as e${i} from '${e.specifier}'`)
    .join('\n')
}

/** The README's code block that starts by naming `file` (`// app/NavBar.tsx`), as a user copies it. */
function fromReadme(file: string): string {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8')
  const block = new RegExp(`^\`\`\`tsx?\n(// ${file.replace(/[.[\]]/g, '\\$&')}\n[\\s\\S]*?)^\`\`\`$`, 'm').exec(
    readme,
  )?.[1]
  if (!block) throw new Error(`The README has no code block for ${file}`)
  return block
}

/** A Vite + React app as `npm create vite` makes it: the inbox in `main.tsx`, the kit's stylesheet imported. */
export function writeViteApp(dir: string): void {
  write(dir, {
    'index.html': `
<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>inbox-kit in a Vite app</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/main.tsx"></script>
  </body>
</html>
`,
    'main.tsx': `
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { Inbox } from 'inbox-kit'
import 'inbox-kit/styles.css'

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Inbox subscriberId="${SUBSCRIBER_ID}" baseUrl="/api/inbox" />
  </StrictMode>,
)
`,
    'vite.config.js': `
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({ plugins: [react()] })
`,
  })
}

/**
 * A Next.js App Router app: the page is a Server Component that renders `<Inbox/>` itself (no wrapper
 * file of the app's own marks it client-side), a route handler mounts the proxy, and `/entries` is a
 * Server Component that imports every JS entry of the package. The layout renders the README's
 * `app/NavBar.tsx` (the Client Component holding `auth`) beside the README's token route, both as written there.
 */
export function writeNextApp(dir: string, entries: Entry[]): void {
  const js = entries.filter((e) => e.kind === 'js')
  write(dir, {
    'next.config.mjs': `
import { fileURLToPath } from 'node:url'

// The dependencies are installed one folder up, shared with the other apps.
const root = fileURLToPath(new URL('..', import.meta.url))
export default { turbopack: { root }, outputFileTracingRoot: root }
`,
    'tsconfig.json': JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          lib: ['dom', 'dom.iterable', 'esnext'],
          allowJs: true,
          skipLibCheck: true,
          strict: true,
          noEmit: true,
          esModuleInterop: true,
          module: 'esnext',
          moduleResolution: 'bundler',
          resolveJsonModule: true,
          isolatedModules: true,
          jsx: 'react-jsx',
          incremental: true,
          plugins: [{ name: 'next' }],
        },
        include: ['next-env.d.ts', '**/*.ts', '**/*.tsx', '.next/types/**/*.ts', '.next/dev/types/**/*.ts'],
        exclude: ['node_modules'],
      },
      null,
      2,
    ),
    'app/layout.tsx': `
import type { ReactNode } from 'react'
import 'inbox-kit/styles.css'
import { NavBar } from './NavBar'

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header>
          <NavBar userId="${SUBSCRIBER_ID}" />
        </header>
        {children}
      </body>
    </html>
  )
}
`,
    'app/NavBar.tsx': fromReadme('app/NavBar.tsx'),
    'app/api/inbox-token/route.ts': fromReadme('app/api/inbox-token/route.ts'),
    'app/page.tsx': `
import { Inbox } from 'inbox-kit'

export default function Page() {
  return (
    <main>
      <Inbox subscriberId="${SUBSCRIBER_ID}" baseUrl="/api/inbox" />
    </main>
  )
}
`,
    'app/api/inbox/[...path]/route.ts': `
import { bearerTokenAuth, createInboxProxy, type InboxProxyHandler } from 'inbox-kit/proxy'

// As the README has it: made at the first request, so that next build needs none of the secrets.
let proxy: InboxProxyHandler | undefined
function handler(request: Request) {
  proxy ??= createInboxProxy({
    upstreamUrl: process.env.INBOX_API_URL!,
    apiKey: process.env.INBOX_API_KEY!,
    basePath: '/api/inbox',
    authenticate: bearerTokenAuth(process.env.INBOX_TOKEN_SECRET!),
  })
  return proxy(request)
}

// PUT and DELETE too: the proxy answers a method a path does not take with 405 and its \`Allow\` (Next's has none).
export { handler as GET, handler as POST, handler as PATCH, handler as PUT, handler as DELETE }
`,
    'app/entries/page.tsx': `
${importEvery(entries, 'import')}

const entries = { ${js.map((e, i) => `'${e.specifier}': e${i}`).join(', ')} }

export default function Entries() {
  return (
    <ul>
      {Object.entries(entries).map(([name, module]) => (
        <li key={name} data-entry={name}>
          {Object.keys(module).join(' ')}
        </li>
      ))}
    </ul>
  )
}
`,
  })
}

/** Settings of the strict TypeScript consumer, per `moduleResolution`. */
export const TYPE_CHECKS = {
  bundler: { module: 'esnext', moduleResolution: 'bundler' },
  node16: { module: 'node16', moduleResolution: 'node16' },
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
  // The resolution of older projects, which reads no `exports`: the subpaths' types come from `typesVersions`.
  // TypeScript 6 warns that it is deprecated; TypeScript 7 no longer has it.
  node10: { module: 'esnext', moduleResolution: 'node10', ignoreDeprecations: '6.0' },
} as const

/**
 * A strict TypeScript project (ESM, `skipLibCheck: false`) that imports every typed entry and the
 * stylesheet, and uses the main ones as the README does; one tsconfig per `moduleResolution`.
 */
export function writeTypesApp(dir: string, entries: Entry[]): void {
  const tsconfigs = Object.fromEntries(
    Object.entries(TYPE_CHECKS).map(([name, { module, moduleResolution, ...rest }]) => [
      `tsconfig.${name}.json`,
      JSON.stringify(
        {
          compilerOptions: {
            target: 'ES2022',
            lib: ['ES2023', 'DOM', 'DOM.Iterable'],
            module,
            moduleResolution,
            ...rest,
            jsx: 'react-jsx',
            strict: true,
            // Stricter than strict: an optional prop given undefined must say it takes it.
            exactOptionalPropertyTypes: true,
            skipLibCheck: false,
            noEmit: true,
            types: ['node'],
          },
          files: ['entries.ts', 'usage.tsx'],
        },
        null,
        2,
      ),
    ]),
  )
  write(dir, {
    'package.json': JSON.stringify({ type: 'module' }),
    ...tsconfigs,
    'entries.ts': `${importEvery(entries, 'export')}\n`,
    'usage.tsx': `
import { Inbox, InboxProvider, useCounts } from 'inbox-kit'
// Without a bundler's types for stylesheets: TypeScript 6 checks that a side-effect import resolves.
import 'inbox-kit/styles.css'
import { createInboxClient, type Criticality, type FeedItem, type MessageCta, type StepMetadata, type SubscriberRecipient } from 'inbox-kit/client'
import { createInboxProxy } from 'inbox-kit/proxy'

export function Count() {
  const { unread } = useCounts()
  return <span>{unread}</span>
}

export const app = (
  <InboxProvider subscriberId="${SUBSCRIBER_ID}" baseUrl="/api/inbox">
    <Inbox />
    <Count />
  </InboxProvider>
)

// Values that may be undefined, passed as they are (under exactOptionalPropertyTypes).
declare const maybe: { key?: string; open?: boolean; onOpenChange?: (open: boolean) => void }
export const loose = (
  <Inbox subscriberId="${SUBSCRIBER_ID}" apiKey={maybe.key} open={maybe.open} onOpenChange={maybe.onOpenChange} messages={undefined} />
)

const client = createInboxClient({ baseUrl: 'https://api.example.com', apiKey: process.env.INBOX_API_KEY })
declare const criticality: Criticality | undefined
declare const webhookUrl: string | undefined
export const prefs = client.getPreferences('${SUBSCRIBER_ID}', { criticality })
export const to: SubscriberRecipient = {
  subscriberId: '${SUBSCRIBER_ID}',
  channels: [{ providerId: 'slack', credentials: { webhookUrl, deviceTokens: undefined } }],
}
export const cta: MessageCta = { data: { url: webhookUrl }, action: { result: { payload: undefined, type: undefined } } }
export const step: StepMetadata = { type: 'timed', amount: undefined, unit: undefined, timed: { ordinalValue: undefined } }
export const first: Promise<FeedItem | undefined> = client.getFeed('${SUBSCRIBER_ID}').then((page) => page.data[0])
export const proxy: (request: Request) => Promise<Response> = createInboxProxy({
  upstreamUrl: 'https://api.example.com',
  apiKey: 'key',
  authenticate: () => '${SUBSCRIBER_ID}',
})
`,
  })
}
