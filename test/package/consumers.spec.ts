import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { dirname, extname, join, normalize, resolve, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest'
import { createService } from '../../server'
import { buildFixture, messages } from '../support/fixtures'
import { launchBrowser } from '../support/browser'
import { SUBSCRIBER_ID, TYPE_CHECKS } from './apps'
import { FAILED_MARK } from './setup'
import { measured, REPO, run, start } from './run'
import { measureBundle } from '../../bench/bundle'
import { BUDGETS } from '../size/budgets'

const { root, tarball, entries } = inject('consumer')
const pkg = join(root, 'node_modules', 'inbox-kit')
const bin = (name: string) => join(root, 'node_modules', '.bin', name)
const repoBin = (name: string) => join(REPO, 'node_modules', '.bin', name)
// The repository's TypeScript 7 is installed under an alias; its `tsc` on the path is TypeScript 6 (CONTRIBUTING.md).
const tsc7 = join(REPO, 'node_modules', 'typescript-7', 'bin', 'tsc')
const jsEntries = entries.filter((e) => e.kind === 'js')

/** Runs a step of a test and logs its time. */
async function step(name: string, command: string, args: string[], cwd: string, env?: Record<string, string>) {
  const result = await run(command, args, { cwd, ...(env ? { env } : {}) })
  measured(name, result.ms)
  return result
}

// A failed test leaves the consumer folder in place for a look.
beforeEach(({ onTestFailed, task }) => onTestFailed(() => writeFileSync(join(root, FAILED_MARK), task.name)))

describe('the packed tarball', () => {
  it('passes publint, warnings counted as errors', async () => {
    await step('publint', repoBin('publint'), ['run', tarball, '--strict'], REPO)
  })

  // Every resolution: node16 and bundler read `exports`, node10 `types` and `typesVersions`. The package is ESM
  // only, so `require` from CommonJS is the one thing not asked of it.
  it('passes arethetypeswrong for node10, node16 and bundler, on every JS entry of exports', async () => {
    expect(jsEntries.length).toBeGreaterThan(0)
    const subpaths = jsEntries.map((e) => e.subpath)
    const args = [
      tarball,
      '--ignore-rules',
      'cjs-resolves-to-esm',
      '--no-definitely-typed',
      '--entrypoints',
      ...subpaths,
    ]
    await step('attw', repoBin('attw'), args, REPO)
  })

  it("marks the React entry 'use client', no React-free entry, and every entry as its source does", () => {
    const rows = jsEntries.map((e) => {
      const built = hasUseClient(readFileSync(join(pkg, e.file), 'utf8'))
      const source = e.types && sourceOf(e.types)
      return {
        entry: e.specifier,
        built,
        react: importsReact(join(pkg, e.file)),
        source: source ? hasUseClient(readFileSync(source, 'utf8')) : 'no source found',
      }
    })
    // The root entry is client-only React; a React-free one never is; any other says so in its source.
    const expected = rows.map((r) =>
      r.entry === 'inbox-kit' ? { ...r, built: true, source: true } : { ...r, built: r.react && r.source === true },
    )
    expect(rows).toEqual(expected)
  })

  // Under pnpm's strict layout an app reaches only the packages named in inbox-kit's package.json: a
  // declaration naming another (React Query's core, say) would turn its types to `any` or fail the build.
  it('names in its code and declarations only itself, Node built-ins and the packages it depends on', () => {
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string>
    >
    const allowed = new Set([
      'inbox-kit',
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ])
    const strays: string[] = []
    for (const file of readdirSync(join(pkg, 'dist'), { recursive: true, encoding: 'utf8' })) {
      if (!/\.(js|d\.ts)$/.test(file)) continue
      const code = readFileSync(join(pkg, 'dist', file), 'utf8')
      for (const [, specifier] of code.matchAll(
        /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["']([^"'.][^"']*)["']/g,
      )) {
        if (specifier!.startsWith('node:')) continue
        const name = specifier!.startsWith('@')
          ? specifier!.split('/').slice(0, 2).join('/')
          : specifier!.split('/')[0]!
        if (!allowed.has(name)) strays.push(`dist/${file}: ${specifier}`)
      }
    }
    expect(strays).toEqual([])
  })
})

describe('the packed tarball, module by module', () => {
  const modules = () =>
    readdirSync(join(pkg, 'dist'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.js'))
      .map((f) => [f, readFileSync(join(pkg, 'dist', f), 'utf8')] as const)

  // esbuild wraps a CommonJS package anew for every module that imports it (src/react.ts says why).
  it("imports 'react' in one module only, and its JSX runtime in one", () => {
    const importers = (specifier: string) =>
      modules()
        .filter(([, code]) => new RegExp(`\\bfrom\\s*["']${specifier}["']`).test(code))
        .map(([f]) => f)
    expect(importers('react')).toEqual(['react.js'])
    expect(importers('react/jsx-runtime')).toEqual(['jsx-runtime.js'])
  })

  // What Node prints of an error names its class: `ApiError: …`, not a minifier's one-letter name.
  it('keeps its error classes named as in the sources', async () => {
    const errors = (await import(pathToFileURL(join(pkg, 'dist', 'api', 'errors.js')).href)) as Record<string, unknown>
    const named = Object.entries(errors).filter(([, value]) => typeof value === 'function')
    expect(named.length).toBeGreaterThanOrEqual(5)
    for (const [name, value] of named) expect((value as { name: string }).name).toBe(name)
  })

  // A bare import of a module without side effects is dropped by bundlers, which say so in a warning.
  it('imports no module of its own for its side effects', () => {
    const bare = modules().flatMap(([f, code]) =>
      [...code.matchAll(/^import\s*["'](\.[^"']*\.js)["']/gm)].map((m) => `${f}: ${m[1]}`),
    )
    expect(bare).toEqual([])
  })
})

describe('the packed tarball in an app, by size (Vite, production, React external, JS gzip)', () => {
  // Apps as the bench has them (bench/apps), importing the installed package instead of the sources: the
  // split the sources have must survive the build and the packing.
  const write = (name: string, lines: string[]) => {
    const file = join(root, 'size', `${name}.tsx`)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, lines.join('\n'))
    return file
  }

  it('<Inbox/>: its first chunk within 26 KiB, the popover and the rest loaded after it', async () => {
    const cost = await measureBundle(
      write('inbox', [
        "import { createRoot } from 'react-dom/client'",
        "import { Inbox } from 'inbox-kit'",
        "import 'inbox-kit/styles.css'",
        'createRoot(document.getElementById(\'root\')!).render(<Inbox subscriberId="u" baseUrl="/api" />)',
      ]),
    )
    expect(cost.js.gzip).toBeLessThanOrEqual(BUDGETS.inbox)
    expect(cost.lazy.gzip).toBeLessThanOrEqual(BUDGETS.inboxLazy)
    expect(cost.css.gzip).toBeLessThanOrEqual(BUDGETS.css)
    console.info(`[measure] package: <Inbox/> from the tarball: ${cost.js.gzip} B first, ${cost.lazy.gzip} B later`)
  })

  it('the headless hooks alone within their budget', async () => {
    const cost = await measureBundle(
      write('hooks', [
        "import { createRoot } from 'react-dom/client'",
        "import { InboxProvider, useCounts, useFeed, useMarkAll, useMarkAs } from 'inbox-kit'",
        'function Feed() {',
        '  const counts = useCounts()',
        '  const feed = useFeed()',
        '  const { markAs } = useMarkAs()',
        "  const { markAll } = useMarkAll('read')",
        '  return (',
        '    <section>',
        '      <button onClick={() => void markAll()}>{counts.unread}</button>',
        "      {feed.items.map((i) => <button key={i._id} onClick={() => void markAs({ ids: i._id, markAs: 'read' })}>{i.content}</button>)}",
        '    </section>',
        '  )',
        '}',
        'createRoot(document.getElementById(\'root\')!).render(<InboxProvider subscriberId="u" baseUrl="/api"><Feed /></InboxProvider>)',
      ]),
    )
    expect(cost.css.min).toBe(0)
    expect(cost.js.gzip).toBeLessThanOrEqual(BUDGETS.hooks)
    console.info(`[measure] package: hooks from the tarball: ${cost.js.gzip} B first`)
  })
})

describe('a Vite + React app', () => {
  const app = join(root, 'vite')

  it('builds with vite build', async () => {
    const { output } = await step('vite build', bin('vite'), ['build'], app)
    // Such as the bundler's notice that it dropped a module-level 'use client'.
    expect(output).not.toMatch(/\bwarn(ing)?\b|\(!\)/i)
    const html = readFileSync(join(app, 'dist', 'index.html'), 'utf8')
    expect(html).toMatch(/<link rel="stylesheet"[^>]+\.css">/)
  })

  describe('in Chromium, through inbox-kit/proxy to the reference service', () => {
    let server: Server
    let url: string
    beforeAll(async () => {
      // The proxy as the tarball ships it, mounted as the README's node:http recipe does.
      const { createInboxProxy, toNodeHandler } = await import(
        pathToFileURL(createRequire(join(root, 'package.json')).resolve('inbox-kit/proxy')).href
      )
      const service = createService({
        fixture: buildFixture({ messages: messages(SUBSCRIBER_ID, 5, (i) => ({ seen: i >= 3 })) }),
      })
      const proxy = toNodeHandler(
        createInboxProxy({
          upstreamUrl: 'http://inbox.test',
          apiKey: service.apiKey,
          basePath: '/api/inbox',
          authenticate: () => SUBSCRIBER_ID,
          fetch: (input: RequestInfo | URL, init?: RequestInit) => service.fetch(new Request(input, init)),
        }),
      )
      server = await listen(serveBuilt(join(app, 'dist'), proxy))
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    })
    afterAll(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())))

    /** The bell with its count, styled, and the feed on click, with no error (nor, under `vite dev`, a warning). */
    async function check(at: string, what: string, warnings = false) {
      const started = performance.now()
      const browser = await launchBrowser()
      try {
        const page = await browser.newPage()
        const problems = await watch(page, warnings)
        await page.goto(at)
        const bell = page.locator('button.inbox-bell')
        await expect.poll(() => bell.getAttribute('data-count'), { timeout: 20_000 }).toBe('3')
        // 40px square only with inbox-kit/styles.css applied.
        expect(await bell.evaluate((b) => getComputedStyle(b).width)).toBe('40px')
        await bell.click()
        await expect.poll(() => page.locator('article').count(), { timeout: 20_000 }).toBe(5)
        expect(problems).toEqual([])
      } finally {
        await browser.close()
      }
      measured(what, performance.now() - started)
    }

    it('shows the bell with the unseen count, styled, and the feed on click, with no error on the page', () =>
      check(url, 'chromium check of the Vite app'))

    it('does the same under `vite dev` (its dependency pre-bundling, React in development, StrictMode), with no warning either', async () => {
      const started = performance.now()
      const vite = (await import(
        pathToFileURL(createRequire(join(root, 'package.json')).resolve('vite')).href
      )) as typeof import('vite')
      const dev = await vite.createServer({
        root: app,
        configFile: join(app, 'vite.config.js'),
        logLevel: 'silent',
        server: { port: 0, host: '127.0.0.1', proxy: { '/api/inbox': url } },
      })
      try {
        await dev.listen()
        measured('vite dev started', performance.now() - started)
        await check(dev.resolvedUrls!.local[0]!, 'chromium check of the Vite app under vite dev', true)
      } finally {
        await dev.close()
      }
    })
  })
})

describe('a Next.js App Router app', () => {
  const app = join(root, 'next')

  it('builds with next build, no secrets set: <Inbox/> in a Server Component, the README’s NavBar and token route, the proxy in a route handler, every entry imported', async () => {
    // Without the proxy's secrets, as a CI or Docker build has them: the route makes its proxy at the first request.
    const { output } = await step('next build', bin('next'), ['build'], app, { NEXT_TELEMETRY_DISABLED: '1' })
    expect(output).not.toMatch(/\bwarn(ing)?\b/i)
    // The page is prerendered at build time: the server rendered the bells, the page's and the layout's NavBar's
    // (the README's Client Component holding `auth`).
    const html = readFileSync(join(app, '.next', 'server', 'app', 'index.html'), 'utf8')
    expect(html.match(/class="inbox-bell"/g)).toHaveLength(2)
    const listed = readFileSync(join(app, '.next', 'server', 'app', 'entries.html'), 'utf8')
    for (const e of jsEntries) expect(listed).toMatch(new RegExp(`data-entry="${e.specifier}">\\w`))
  })

  // Built and started. (`next dev` passed the same check too, in 12 s more than `npm test` has room for; `vite dev`
  // above covers React's development build.)
  it('runs with next start: the page hydrates with no error nor warning, and the README’s NavBar, signed in through its token route and the proxy, shows the count', async () => {
    const started = performance.now()
    // The reference service over HTTP, as the proxy's upstreamUrl.
    const service = createService({
      fixture: buildFixture({ messages: messages(SUBSCRIBER_ID, 5, (i) => ({ seen: i >= 3 })) }),
    })
    const { toNodeHandler } = await import(
      pathToFileURL(createRequire(join(root, 'package.json')).resolve('inbox-kit/proxy')).href
    )
    const upstream = await listen(createServer(toNodeHandler((request: Request) => service.fetch(request))))
    // The README's token route declares `signedInUser` as the app's own; here it is a global the server starts with.
    const signedIn = join(root, 'signed-in.mjs')
    writeFileSync(signedIn, `globalThis.signedInUser = async () => ${JSON.stringify(SUBSCRIBER_ID)}\n`)
    const port = await freePort()
    let next: Awaited<ReturnType<typeof start>> | undefined
    let browser: Browser | undefined
    try {
      next = await start(bin('next'), ['start', '-p', String(port), '-H', '127.0.0.1'], {
        cwd: app,
        ready: /Ready in/,
        env: {
          NEXT_TELEMETRY_DISABLED: '1',
          NODE_OPTIONS: `--import ${pathToFileURL(signedIn).href}`,
          INBOX_API_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
          INBOX_API_KEY: service.apiKey,
          INBOX_TOKEN_SECRET: 'a-secret-of-the-test-app-32-bytes-or-more',
        },
      })
      browser = await launchBrowser()
      const page = await browser.newPage()
      // A hydration mismatch is told as an error (React's #418) or, in development, a warning.
      const problems = await watch(page, true)
      await page.goto(`http://127.0.0.1:${port}/`)
      const navBar = page.locator('header button.inbox-bell')
      await expect.poll(() => navBar.getAttribute('data-count'), { timeout: 30_000 }).toBe('3')
      expect(await navBar.getAttribute('aria-label')).toBe('Notifications, 3 unseen')
      await navBar.click()
      await expect.poll(() => page.locator('article').count(), { timeout: 20_000 }).toBe(5)
      expect(problems).toEqual([])
    } finally {
      await browser?.close()
      next?.stop()
      await new Promise((done) => upstream.close(done))
    }
    measured('next start and its chromium check', performance.now() - started)
  })
})

describe('a strict TypeScript consumer (skipLibCheck: false) importing every typed entry', () => {
  const app = join(root, 'types')
  const check = (compiler: string, tsc: string, resolution: string) => async () => {
    await step(`tsc ${resolution} (${compiler})`, tsc, ['-p', `tsconfig.${resolution}.json`], app)
  }

  // The consumer's own TypeScript 6, the one Next.js type-checks with, on the strictest resolution.
  it('type-checks with TypeScript 6, moduleResolution nodenext', check('TypeScript 6', bin('tsc'), 'nodenext'))
  // And on the oldest, which TypeScript 7 no longer has.
  it('type-checks with TypeScript 6, moduleResolution node10', check('TypeScript 6', bin('tsc'), 'node10'))

  // The repository's TypeScript 7, the native compiler: fast enough for every resolution it has.
  for (const resolution of Object.keys(TYPE_CHECKS).filter((r) => r !== 'node10')) {
    it(`type-checks with TypeScript 7, moduleResolution ${resolution}`, check('TypeScript 7', tsc7, resolution))
  }
})

function hasUseClient(code: string): boolean {
  return /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*(['"])use client\1/.test(code)
}

/** The source of an entry from its declaration file (tsc maps src/ onto dist/). */
function sourceOf(types: string): string | undefined {
  const base = join(REPO, types.replace(/^dist\//, 'src/').replace(/\.d\.ts$/, ''))
  return ['.ts', '.tsx'].map((ext) => base + ext).find((f) => existsSync(f))
}

/** Whether a built file, or a chunk it imports, imports React or a React binding. */
function importsReact(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false
  seen.add(file)
  const code = readFileSync(file, 'utf8')
  for (const [, specifier] of code.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["']([^"']+)["']/g)) {
    if (/^(react|react-dom)(\/|$)|^@tanstack\/react-query$|^zustand$/.test(specifier!)) return true
    if (specifier!.startsWith('.') && importsReact(resolve(dirname(file), specifier!), seen)) return true
  }
  return false
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' }

/** A host of the built app: its files, and the proxy under /api/inbox/. */
function serveBuilt(dir: string, proxy: (req: never, res: never) => Promise<void>) {
  return createServer(async (req, res) => {
    if (req.url?.startsWith('/api/inbox/')) return void proxy(req as never, res as never)
    const path = new URL(req.url ?? '/', 'http://x').pathname
    let file = normalize(join(dir, decodeURIComponent(path)))
    if (!file.startsWith(dir + sep) && file !== dir) return void res.writeHead(403).end()
    if (path === '/') file = join(dir, 'index.html')
    if (!(await stat(file).catch(() => null))?.isFile())
      return void res.writeHead(path === '/favicon.ico' ? 204 : 404).end()
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
    createReadStream(file).pipe(res)
  })
}

/**
 * What goes wrong on `page` from now on: uncaught errors, console errors (and warnings, with `warnings`), and
 * answers of 400 or more. Chromium's own request for a favicon is answered: the apps here name none.
 */
async function watch(page: Page, warnings: boolean): Promise<string[]> {
  await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }))
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
  page.on(
    'console',
    (m) =>
      (m.type() === 'error' || (warnings && m.type() === 'warning')) &&
      problems.push(`console.${m.type()}: ${m.text()}`),
  )
  page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`))
  return problems
}

/** A port free on loopback now, for a server that must be told one. */
function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => done(port))
    })
  })
}

function listen(server: Server): Promise<Server> {
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)))
}
