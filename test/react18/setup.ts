import { version } from 'react'
import { version as domVersion } from 'react-dom'
import { version as serverVersion } from 'react-dom/server'

// A broken alias would quietly run React 19 again.
for (const [name, v] of Object.entries({
  react: version,
  'react-dom': domVersion,
  'react-dom/server': serverVersion,
})) {
  if (!v.startsWith('18.')) throw new Error(`${name} is ${v} in the React 18 run`)
}
