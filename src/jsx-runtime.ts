/** React's JSX runtime, imported in this one module for the same reason as React itself (src/react.ts). */
export { Fragment, jsx, jsxs } from 'react/jsx-runtime'
