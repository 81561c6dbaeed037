import { build } from 'vite'
import react from '@vitejs/plugin-react'
import { gzipSync } from 'node:zlib'
const only = process.argv[2]?.split(',') ?? ['hooks','inbox']
for (const f of only) {
const r: any = await build({ configFile: false, logLevel: 'silent', root: '/work/main/bench/apps', plugins: [react()], define: { 'process.env.NODE_ENV': '"production"' },
  build: { write: false, minify: true, lib: { entry: `/work/main/bench/apps/${f}.tsx`, formats: ['es'], fileName: 'app' }, rollupOptions: { external: [/^react($|\/)/, /^react-dom($|\/)/] } } })
const out = (Array.isArray(r) ? r : [r]).flatMap((o: any) => o.output)
let js = 0, jsz = 0, lazy = 0
const mods: [string, number][] = []
for (const c of out) if (c.type === 'chunk') { const z = gzipSync(c.code, { level: 9 }).length; if (c.isEntry) { js += c.code.length; jsz += z } else lazy += z; for (const [id, m] of Object.entries<any>(c.modules)) mods.push([id.replace('/work/main/', '') + (c.isEntry ? '' : ' (lazy)'), m.renderedLength]) }
mods.sort((a, b) => b[1] - a[1]); console.log('==', f, 'js', js, 'gzip', jsz, 'lazy gzip', lazy)
if (process.argv[3]) for (const [id, n] of mods.filter(([id]) => !id.includes('node_modules'))) console.log(n, id)
}
