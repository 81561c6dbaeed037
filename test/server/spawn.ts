import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Starts the reference service's CLI (server/cli.ts) on a free port, as `npm run server -- ...args` does.
 * `ready` resolves with the base URL and API key it prints; `printed(re)` with the first match of `re` in its output.
 */
export function startCli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', '--port', '0', ...args], {
    cwd: join(import.meta.dirname, '../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  const waiting = new Set<() => void>()
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString()
    for (const check of waiting) check()
  })
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const printed = (re: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = re.exec(out)
        if (!match) return
        waiting.delete(check)
        resolve(match)
      }
      waiting.add(check)
      check()
      void exited.then((code) => reject(new Error(`exited ${code} before printing ${re}: ${err}`)))
    })
  const ready = printed(/listening on (\S+)\nAPI key: (\S+)\n/).then(([, url, apiKey]) => ({
    url: url!,
    apiKey: apiKey!,
  }))
  return {
    child,
    ready,
    printed,
    exited,
    stderr: () => err,
    /** Resident memory of the server process in bytes (Linux). */
    rss: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]) * 1024,
  }
}
