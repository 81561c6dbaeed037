import { prepare } from './setup'

// `npm run test:package:prepare`: the consumer of `npm run test:package`, installed ahead (see `prepare`).
await prepare()
