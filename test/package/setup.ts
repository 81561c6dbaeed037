import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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
 * Builds and packs the library, then installs the tarball as a user would, in a fresh folder under the
 * system's temp dir, beside the pinned dependencies of test/package/consumer/package.json.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const root = mkdtempSync(join(tmpdir(), 'inbox-kit-consumers-'))
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
  const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: root,
  })
  measured('npm install (consumer)', install.ms)

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
