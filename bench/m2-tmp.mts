import { measureBundle } from './bundle'
for (const f of process.argv[2]!.split(',')) { const c = await measureBundle(`/work/main/bench/apps/${f}.tsx`); console.log(f, 'js gzip', c.js.gzip, 'css gzip', c.css.gzip, 'lazy gzip', c.lazy.gzip) }
