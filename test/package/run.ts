import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** Where the repository is. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '')

/** What a failure shows of a command's output: its end, where the error is. */
const SHOWN = 30_000

// The test runner's own settings would leak into the builds (NODE_ENV=test turns Next.js and Vite odd),
// and npm's per-script variables name this package, not the consumer.
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (name === 'NODE_ENV' || /^(VITEST|npm_package_|npm_lifecycle_)/.test(name)) continue
    env[name] = value
  }
  return { ...env, ...extra }
}

/**
 * Runs a command to its end. Rejects with the command, where it ran, its exit status and its output
 * (stdout and stderr as they came, the last {@link SHOWN} characters), so a failing build reads as it would in a terminal.
 */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<{ stdout: string; output: string; ms: number }> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: childEnv(options.env ?? {}),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
      output += chunk
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.on('error', reject)
    child.on('close', (code, signal) => {
      const ms = performance.now() - started
      if (code === 0) return resolve({ stdout, output, ms })
      const shown = output.length > SHOWN ? `…${output.slice(-SHOWN)}` : output
      reject(
        new Error(
          `\`${[command, ...args].join(' ')}\` in ${options.cwd} failed (${signal ?? `exit ${code}`}):\n${shown}`,
        ),
      )
    })
  })
}

/** Logs how long a step took, as the other tests report what they measure. */
export function measured(step: string, ms: number): void {
  console.info(`[measure] package: ${step}: ${(ms / 1000).toFixed(1)} s`)
}

/**
 * Starts a server command and resolves once its output matches `ready`; rejects with its output if it exits or
 * `timeout` ms pass first. `stop` ends it.
 */
export function start(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; ready: RegExp; timeout?: number },
): Promise<{ output: () => string; stop: () => void }> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: childEnv(options.env ?? {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const stop = () => void child.kill()
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer)
      stop()
      reject(new Error(`\`${[command, ...args].join(' ')}\` in ${options.cwd} ${why}:\n${output.slice(-SHOWN)}`))
    }
    const timer = setTimeout(() => fail('was not ready in time'), options.timeout ?? 30_000)
    const take = (chunk: string) => {
      output += chunk
      if (options.ready.test(output)) {
        clearTimeout(timer)
        resolve({ output: () => output, stop })
      }
    }
    child.stdout.setEncoding('utf8').on('data', take)
    child.stderr.setEncoding('utf8').on('data', take)
    child.on('error', (error) => fail(`could not start (${error.message})`))
    child.on('exit', (code, signal) => fail(`ended (${signal ?? `exit ${code}`})`))
  })
}
