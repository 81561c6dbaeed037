/**
 * Run before every test file. In a DOM (the component and hook tests), what a test waits for (`findBy…`,
 * `waitFor`) has 5 s rather than Testing Library's 1 s: the kit's code loaded on demand (the popover's, the
 * ledger's) takes more than a second to arrive on a busy machine, three test files at once on two cores.
 */
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react')
  configure({ asyncUtilTimeout: 5000 })
}

// A module: the await above is top-level.
export {}
