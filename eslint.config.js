import js from '@eslint/js'
import { defineConfig, globalIgnores } from 'eslint/config'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import testingLibrary from 'eslint-plugin-testing-library'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// Type information (which TypeScript 6 gives typescript-eslint, see CONTRIBUTING.md) costs most of a run,
// so the rules that need it check the shipped code only; everything else gets the rules that read syntax.
export default defineConfig(
  // bench/peers holds other vendors' apps, built with their own dependencies.
  globalIgnores(['**/dist/', 'storybook-static/', 'coverage/', 'bench/peers/', '**/node_modules/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_name` is unused on purpose; a property picked out of a rest is how an object drops it.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  { files: ['**/*.tsx'], extends: [jsxA11y.flatConfigs.strict] },

  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommendedTypeChecked, reactHooks.configs.flat['recommended-latest']],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // The compact core joins the statements of one step with commas (`if (x) a(), b()`) on purpose.
      '@typescript-eslint/no-unused-expressions': 'off',
      // The React Compiler's view of refs and mutation; the kit is not built with the compiler, and keeps
      // the latest props in refs for stable callbacks and sets a scroller's scrollTop, which these forbid.
      'react-hooks/refs': 'off',
      'react-hooks/immutability': 'off',
    },
  },

  {
    files: ['test/**', 'bench/**'],
    rules: {
      // Tests and probes read the service's JSON and the globals a page plants, untyped on purpose.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['test/**/*.test.tsx'],
    extends: [testingLibrary.configs['flat/react']],
    rules: {
      // The tests check the DOM contract apps style and script against: part classes, data attributes, ids.
      'testing-library/no-node-access': 'off',
      'testing-library/no-container': 'off',
      // Vitest runs without globals, so Testing Library registers no cleanup of its own.
      'testing-library/no-manual-cleanup': 'off',
      // Names such as `tabA`, `html` or `inline` say which render a test compares.
      'testing-library/render-result-naming-convention': 'off',
    },
  },
)
