import { build } from 'vite'
import react from '@vitejs/plugin-react'
import { gzipSync } from 'node:zlib'
const f = process.argv[2]!
const r: any = await build({ configFile: false, logLevel: 'silent', root: '/work/main/bench/apps', plugins: [react()], define: { 'process.env.NODE_ENV': '"production"' },
  build: { write: false, minify: true, lib: { entry: `/work/main/bench/apps/${f}.tsx`, formats: ['es'], fileName: 'app' }, rollupOptions: { external: [/^react($|\/)/, /^react-dom($|\/)/] } } })
const out = (Array.isArray(r) ? r : [r]).flatMap((o: any) => o.output).filter((c: any) => c.type === 'chunk')
const byName = new Map(out.map((c: any) => [c.fileName, c]))
const initial = new Set<string>(); const visit = (n: string) => { if (initial.has(n)) return; initial.add(n); const ch: any = byName.get(n); if (ch) for (const i of ch.imports) visit(i) }
for (const c of out) if (c.isEntry) visit(c.fileName)
for (const c of out) { const z = gzipSync(c.code, { level: 9 }).length; console.log(initial.has(c.fileName) ? 'INITIAL' : 'lazy   ', c.fileName, c.code.length, z, Object.keys(c.modules).filter((m) => !m.includes('node_modules')).map((m) => m.replace('/work/main/src/', '')).join(' ')) }
