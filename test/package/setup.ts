import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { writeNextApp, writeTypesApp, writeViteApp } from './apps'
import { listEntries, type Entry } from './exports'
import { measured, REPO, run } from './run'

/** What the specs get: one install, outside the repository, shared by every app. */
export interface Consumer {
  /** The folder holding node_modules (the packed inbox-kit and every app's dependencies) and the apps. */
  root: string
  /** The packed tarball. */
  tarball: string
  /** The installed package's entries, read from its `exports`. */
  entries: Entry[]
}

declare module 'vitest' {
  export interface ProvidedContext {
    consumer: Consumer
  }
}

/** A spec writes this file into the root when a test fails, so that the folder stays for a look. */
export const FAILED_MARK = '.failed'

/**
 * Where `npm test` has the consumer installed ahead (`npm run test:package:prepare`, beside the checks, so that the
 * install's waits on the registry overlap their work): outside the repository, as every consumer folder here is;
 * one folder per checkout, so that two clones tested at once on one machine keep to their own.
 */
const PREPARED = join(
  tmpdir(),
  `inbox-kit-consumer-prepared-${createHash('sha256').update(REPO).digest('hex').slice(0, 12)}`,
)
const STAMP = 'prepared.json'

/**
 * The state of the working tree: the commit, and every change to it, committed or not. A consumer prepared for
 * another state is not used; without git there is no state, and none is.
 */
function treeState(): string | undefined {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO, maxBuffer: 1 << 28 })
    return createHash('sha256')
      .update(git('rev-parse', 'HEAD'))
      .update(git('status', '--porcelain=v1', '-uall'))
      .update(git('diff', 'HEAD', '--binary'))
      .digest('hex')
  } catch {
    return undefined
  }
}

/**
 * Builds and packs the library, then installs the tarball as a user would into `root`, beside the pinned
 * dependencies of test/package/consumer/package.json. Returns the tarball's file name.
 */
async function install(root: string): Promise<string> {
  const build = await run('npm', ['run', 'build'], { cwd: REPO })
  measured('npm run build', build.ms)

  // Built just above: not again by the package's prepack.
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', root], { cwd: REPO })
  const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }]
  measured('npm pack', pack.ms)

  const manifest = JSON.parse(readFileSync(join(REPO, 'test/package/consumer/package.json'), 'utf8'))
  manifest.dependencies['inbox-kit'] = `file:./${filename}`
  writeFileSync(join(root, 'package.json'), JSON.stringify(manifest, null, 2))
  // The registry is asked only for what npm's cache lacks.
  const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: root,
  })
  measured('npm install (consumer)', installed.ms)
  return filename
}

/** Installs the consumer ahead into {@link PREPARED}, stamped with the tree's state (`npm run test:package:prepare`). */
export async function prepare(): Promise<void> {
  rmSync(PREPARED, { recursive: true, force: true })
  mkdirSync(PREPARED)
  const state = treeState()
  const filename = await install(PREPARED)
  if (state) writeFileSync(join(PREPARED, STAMP), JSON.stringify({ state, filename }))
}

/**
 * The consumer: the one installed ahead when it was made from the tree as it is now (taken, so that it is used
 * once), else a fresh folder under the system's temp dir, built, packed and installed here.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  let root: string
  let filename: string
  const stamp = join(PREPARED, STAMP)
  const ahead = existsSync(stamp)
    ? (JSON.parse(readFileSync(stamp, 'utf8')) as { state: string; filename: string })
    : undefined
  if (ahead && ahead.state === treeState()) {
    root = `${PREPARED}-${process.pid}`
    renameSync(PREPARED, root)
    rmSync(join(root, STAMP))
    filename = ahead.filename
    console.info('[measure] package: the consumer installed ahead, beside the checks')
  } else {
    rmSync(PREPARED, { recursive: true, force: true })
    root = mkdtempSync(join(tmpdir(), 'inbox-kit-consumers-'))
    filename = await install(root)
  }

  const entries = listEntries(join(root, 'node_modules', 'inbox-kit'))
  writeViteApp(join(root, 'vite'))
  writeNextApp(join(root, 'next'), entries)
  writeTypesApp(join(root, 'types'), entries)
  project.provide('consumer', { root, tarball: join(root, filename), entries })

  return () => {
    if (existsSync(join(root, FAILED_MARK)) || process.env.INBOX_KIT_KEEP_CONSUMERS) {
      console.info(`The consumer apps are kept in ${root}`)
    } else {
      rmSync(root, { recursive: true, force: true })
    }
  }
}
