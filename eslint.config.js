// Lint: ESLint's and typescript-eslint's recommended rules over the sources,
// tests, bench and scripts (npm run lint, run by CI), and the format rules
// below (npm run format:check runs those alone). Rules turned off say why.
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
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
    // tests read JSON answers whose shape is what they assert; the sources, bench and scripts have no `any`
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // durability knows nothing of what the state is: the sections say (what they hold, what they can store)
    files: ['src/durability/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['../index/*', '../query/*', '../api/*'], message: 'src/durability/ imports nothing from the layers whose state it keeps: pass what it needs in DurabilityOptions or a StateSection' }] }] },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Format: the layout the code already has, checked (not rewritten) by
  // @stylistic's rules: single quotes (double ones where the text holds a
  // single quote; template literals allowed), semicolons, trailing commas on
  // multi-line lists, no trailing spaces or tabs, a newline at the end, at
  // most two blank lines in a row, the spacing around braces, brackets,
  // parentheses, operators, keywords, commas, colons, arrows and generator
  // stars, `(x) =>` always with parentheses. Prettier was not chosen: it
  // would rewrite nearly every file; each rule here holds on the code as it
  // is. Left out, because the code has it both ways and a rule would rewrite
  // many lines: indent (hanging ternaries, an object in src/cli.ts),
  // brace-style (`}` and `else` on separate lines), the side of a broken line
  // its operator goes, quotes around property names, statements and
  // declarations per line, blank lines inside blocks and between members.
  // `npm run format` applies these rules' fixes.
  {
    plugins: { '@stylistic': stylistic },
    rules: {
      '@stylistic/quotes': ['error', 'single', { avoidEscape: true, allowTemplateLiterals: 'always' }],
      '@stylistic/semi': ['error', 'always'],
      '@stylistic/semi-spacing': 'error',
      '@stylistic/semi-style': 'error',
      '@stylistic/no-extra-semi': 'error',
      // `<T,>` (a generic arrow function in a .ts file) keeps its comma
      '@stylistic/comma-dangle': ['error', {
        arrays: 'always-multiline', objects: 'always-multiline', imports: 'always-multiline', exports: 'always-multiline',
        functions: 'always-multiline', enums: 'always-multiline', tuples: 'always-multiline', generics: 'ignore',
      }],
      '@stylistic/comma-spacing': 'error',
      '@stylistic/comma-style': 'error',
      '@stylistic/no-trailing-spaces': 'error',
      '@stylistic/eol-last': 'error',
      '@stylistic/linebreak-style': ['error', 'unix'],
      '@stylistic/no-tabs': 'error',
      '@stylistic/no-mixed-spaces-and-tabs': 'error',
      '@stylistic/no-multiple-empty-lines': ['error', { max: 2, maxEOF: 1, maxBOF: 0 }],
      '@stylistic/no-multi-spaces': 'error',
      '@stylistic/key-spacing': 'error',
      '@stylistic/keyword-spacing': 'error',
      '@stylistic/space-before-blocks': 'error',
      '@stylistic/space-infix-ops': 'error',
      '@stylistic/space-unary-ops': 'error',
      '@stylistic/space-in-parens': ['error', 'never'],
      '@stylistic/space-before-function-paren': ['error', { anonymous: 'always', named: 'never', asyncArrow: 'always' }],
      '@stylistic/object-curly-spacing': ['error', 'always'],
      '@stylistic/object-curly-newline': ['error', { consistent: true }],
      '@stylistic/array-bracket-spacing': ['error', 'never'],
      '@stylistic/array-bracket-newline': ['error', 'consistent'],
      '@stylistic/computed-property-spacing': 'error',
      '@stylistic/template-curly-spacing': 'error',
      '@stylistic/template-tag-spacing': 'error',
      '@stylistic/rest-spread-spacing': 'error',
      '@stylistic/block-spacing': 'error',
      '@stylistic/arrow-spacing': 'error',
      '@stylistic/arrow-parens': ['error', 'always'],
      '@stylistic/switch-colon-spacing': 'error',
      '@stylistic/function-call-spacing': 'error',
      '@stylistic/no-whitespace-before-property': 'error',
      '@stylistic/dot-location': ['error', 'property'],
      // `function* f()` but `*method()` and `async *method()`
      '@stylistic/generator-star-spacing': ['error', { before: false, after: true, method: { before: true, after: false } }],
      '@stylistic/yield-star-spacing': ['error', 'after'],
      '@stylistic/spaced-comment': ['error', 'always'],
      '@stylistic/new-parens': 'error',
      '@stylistic/no-floating-decimal': 'error',
      '@stylistic/wrap-iife': ['error', 'inside'],
      '@stylistic/nonblock-statement-body-position': ['error', 'beside'],
      '@stylistic/member-delimiter-style': 'error',
      '@stylistic/type-annotation-spacing': 'error',
      '@stylistic/type-generic-spacing': 'error',
      '@stylistic/type-named-tuple-spacing': 'error',
    },
  },
);
