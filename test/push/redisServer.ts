import { spawn } from 'node:child_process'
import { createServer } from 'node:net'

/** A throwaway redis-server: loopback only, no persistence, stopped by `stop()`. */
export interface RedisServer {
  url: string
  port: number
  stop(): Promise<void>
  /** Kills the process at once (SIGKILL), as a crash would: its clients get no goodbye. */
  kill(): Promise<void>
}

const REDIS = process.env.REDIS_SERVER ?? 'redis-server'

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/**
 * Starts redis-server on a free loopback port; tries again on another port if that one was taken meanwhile. With
 * `port`, on that one (a restart where the clients expect it).
 */
export async function startRedis(port?: number): Promise<RedisServer> {
  if (port !== undefined) return launch(port)
  let lastError: unknown
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort()
    try {
      return await launch(port)
    } catch (error) {
      lastError = error
    }
  }
  throw lastError
}

function launch(port: number): Promise<RedisServer> {
  const child = spawn(
    REDIS,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
      '--loglevel',
      'notice',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => fail(new Error(`redis-server did not start within 10 s:\n${output}`)), 10_000)
    const fail = (error: Error) => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(error)
    }
    child.once('error', (error) => fail(new Error(`redis-server could not be started (${REDIS}): ${error.message}`)))
    const onExit = (code: number | null) => fail(new Error(`redis-server exited with ${code}:\n${output}`))
    child.once('exit', onExit)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (!/Ready to accept connections/.test(output)) return
      clearTimeout(timer)
      child.off('exit', onExit)
      child.stdout.off('data', onData)
      child.stdout.resume()
      child.stderr.resume()
      resolve({
        url: `redis://127.0.0.1:${port}`,
        port,
        async stop() {
          if (child.exitCode === null) child.kill('SIGTERM')
          await exited
        },
        async kill() {
          if (child.exitCode === null) child.kill('SIGKILL')
          await exited
        },
      })
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  })
}
