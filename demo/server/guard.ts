import { realpathSync, statSync } from 'node:fs'
import path from 'node:path'
import type { Plugin } from 'vite'
import { errorBody } from '../../server/http'

/** What the demo's dev server may serve. */
export interface ServedFiles {
  /** The page's folder, the dev server's root: every root-relative URL must name a file in it. */
  root: string
  /** Folders whose files the page loads, the root among them; others are reached through `/@fs/`. */
  allow: string[]
  /** Folders inside those that are never served. */
  deny: string[]
}

/** Vite's own modules that the page loads and that are not files. */
const VIRTUAL = new Set(['/@vite/client', '/@vite/env', '/@react-refresh'])

function inside(dir: string, file: string): boolean {
  return file === dir || file.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep)
}

/** The file's real path (symlinks followed) when it exists, else the path as resolved. */
function realPath(file: string): { file: string; isFile: boolean } {
  try {
    return { file: realpathSync(file), isFile: statSync(file).isFile() }
  } catch {
    return { file, isFile: false }
  }
}

/**
 * Whether the demo's dev server may answer `url` (a request target as sent: path and query). Only the page's
 * own files, the folders it loads from and Vite's client modules pass; anything else (the config, the service,
 * its fixtures, `/@id/`, `/__open-in-editor`, encoded or `..` paths leading out) does not.
 */
function isServable(url: string, files: ServedFiles): boolean {
  if (!url.startsWith('/') || url.startsWith('//')) return false
  let pathname: string
  try {
    pathname = decodeURIComponent(url.split('?')[0]!)
  } catch {
    return false
  }
  // Left after one decoding, `%` means a second one was hoped for; Vite decodes once.
  if (/[\0\\%]/.test(pathname)) return false
  if (pathname === '/' || VIRTUAL.has(pathname)) return true
  const viaFs = pathname.startsWith('/@fs/')
  if (!viaFs && pathname.startsWith('/@')) return false
  const { file, isFile } = realPath(
    path.resolve(viaFs ? pathname.slice('/@fs'.length) : path.join(files.root, pathname)),
  )
  if (files.deny.some((dir) => inside(dir, file)) || !files.allow.some((dir) => inside(dir, file))) return false
  // Pre-bundled dependencies may still be being written when the page asks for them; any other URL names a file.
  return viaFs || (isFile && inside(files.root, file))
}

/**
 * Vite's own checks (`server.fs`) do not hold for modules it transforms: once a module that imports the
 * server's code has been requested, that code and its fixtures are served. This refuses, before Vite sees
 * it, every request that does not name a file the page needs. List it after the plugins that answer their own
 * routes (the demo backend), since it refuses everything else.
 */
export function servePageOnly(given: ServedFiles): Plugin {
  const real = (dir: string) => realPath(path.resolve(dir)).file
  const files = { root: real(given.root), allow: given.allow.map(real), deny: given.deny.map(real) }
  return {
    name: 'inbox-kit-demo-serve-page-only',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = req.url ?? ''
        if (isServable(url, files)) return next()
        res.statusCode = 404
        res.setHeader('content-type', 'application/json; charset=utf-8')
        res.setHeader('cache-control', 'no-store')
        const where = url.startsWith('/') ? url.split('?')[0]! : '/'
        res.end(
          JSON.stringify(errorBody(404, 'Not served by the demo: only the page and the code it loads are', where)),
        )
      })
    },
  }
}
