// Runs npm scripts at the same time, each one's output held and printed whole when it ends (so that the logs of
// two do not interleave), and fails when any of them fails. `npm test` uses it for steps that leave a core idle
// when run one after the other: `node scripts/together.mjs lint format:check`.
import { spawn } from 'node:child_process'

const scripts = process.argv.slice(2)
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

const results = await Promise.all(
  scripts.map(
    (script) =>
      new Promise((resolve) => {
        const started = Date.now()
        const child = spawn(npm, ['run', '--silent', script], { env: { ...process.env, FORCE_COLOR: '1' } })
        const output = []
        child.stdout.on('data', (chunk) => output.push(chunk))
        child.stderr.on('data', (chunk) => output.push(chunk))
        child.on('close', (code, signal) => {
          process.stdout.write(`\n> ${script} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`)
          process.stdout.write(Buffer.concat(output))
          resolve({ script, code: code ?? (signal ? 1 : 0) })
        })
        child.on('error', (error) => {
          output.push(Buffer.from(`${error.message}\n`))
          resolve({ script, code: 1 })
        })
      }),
  ),
)

const failed = results.filter((r) => r.code !== 0)
for (const { script, code } of failed) process.stderr.write(`${script} failed (exit ${code})\n`)
process.exit(failed.length ? 1 : 0)
