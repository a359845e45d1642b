// Lint: ESLint's and typescript-eslint's recommended rules over the sources,
// tests, bench and scripts (npm run lint, run by CI). Rules turned off say why.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // assembly/ is AssemblyScript (decorators on functions, i32...): its compiler checks it
  { ignores: ['assembly/', 'dist/', 'build/', 'docs/api/', 'node_modules/', 'examples/*/node_modules/', 'examples/*/dist/', 'test-output/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `const { a, ...rest } = x` leaves out `a` on purpose; `_name` is unused on purpose
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, varsIgnorePattern: '^_', argsIgnorePattern: '^_' }],
      // the API's bodies and parameters are still `any` where they cross the router: issue #20 types them
      '@typescript-eslint/no-explicit-any': 'off',
    },
    languageOptions: {
      globals: {
        console: 'readonly', process: 'readonly', Buffer: 'readonly', URL: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly',
        performance: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', setImmediate: 'readonly',
        crypto: 'readonly', fetch: 'readonly', WebAssembly: 'readonly', globalThis: 'readonly', self: 'readonly', window: 'readonly',
        document: 'readonly', navigator: 'readonly', Worker: 'readonly', Blob: 'readonly', Response: 'readonly', indexedDB: 'readonly',
        structuredClone: 'readonly', queueMicrotask: 'readonly', AbortController: 'readonly', CompressionStream: 'readonly', DecompressionStream: 'readonly',
        postMessage: 'readonly', location: 'readonly', scrollTo: 'readonly', atob: 'readonly', IDBKeyRange: 'readonly',
      },
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
