/**
 * The React functions the kit uses, from 'react' in this one module: the library build (and the bench's)
 * points every other module's `import … from 'react'` here (scripts/reactOnce.ts). React ships CommonJS, and
 * esbuild wraps it in an ES namespace of its own for each module that imports it, with a getter per export
 * of React, made as that module loads: thirty modules meant thirty such copies on the page's heap (some 30 kB
 * of it at mount). The sources keep importing from 'react', so the React linters see React's hooks. The
 * JSX runtime goes through src/jsx-runtime.ts alike.
 */
export {
  Children,
  cloneElement,
  createContext,
  createElement,
  forwardRef,
  lazy,
  memo,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react'
