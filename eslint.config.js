// Lint: the checks reviewers would otherwise make by hand. Type-aware rules from
// typescript-eslint catch promises nobody awaits or handles, promises passed where their
// result is dropped, `any` and values flowing from it, assertions that assert nothing,
// and code nothing uses.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const HTTP_LAYER = { regex: '(^|/)http/', message: 'Only src/http (and the CLI) may import the HTTP layer; hand it what it needs instead.' };
const DOMAIN = { regex: '(^|/)(analysis|funding|applications|data)/', message: 'Shared layers (src/core, src/platform) must not depend on a group.' };

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'coverage/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.js', '*.ts', 'bin/*.js', 'bench/*.mjs'] }, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // Fastify plugins and hooks are async by contract, whether or not they await.
      '@typescript-eslint/require-await': 'off',
      // The JSON reader and the text rules compare char codes with named constants, and
      // match control characters on purpose.
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
      'no-control-regex': 'off',
      // Closures stored on objects are not methods; Kysely's expression builder is destructured by design.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // The first locale-aware call maps ICU's locale data (~5 MiB) into the process for
    // good; the service formats for machines, not locales (see groupThousands).
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'Intl', message: 'Locale formatting loads ICU data for the life of the process; format by hand (src/core/strings.ts).' }],
      'no-restricted-properties': ['error',
        { property: 'toLocaleString', message: 'Loads ICU locale data; use groupThousands or an explicit format.' },
        { property: 'toLocaleDateString', message: 'Loads ICU locale data; format the date explicitly.' },
        { property: 'toLocaleTimeString', message: 'Loads ICU locale data; format the time explicitly.' },
        { property: 'localeCompare', message: 'Loads ICU collation data; compare code points (compareCodePoints).' }],
    },
  },
  {
    // Layering: domain, platform and storage modules never reach into the HTTP layer.
    files: ['src/{core,platform,storage,analysis,funding,applications,data}/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [HTTP_LAYER] }] },
  },
  {
    // The shared layers serve every group, so they name none.
    files: ['src/{core,platform}/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [HTTP_LAYER, DOMAIN] }] },
  },
  {
    // Migrations are written against the schema as it was, not the current types.
    files: ['src/storage/migrations/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Plain JavaScript (the launcher, this file): no type information to check against.
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The web page's scripts run in the browser (uPlot is the global its package defines).
    files: ['src/web/assets/*.js'],
    languageOptions: { sourceType: 'module', globals: { ...globals.browser, uPlot: 'readonly' } },
  },
  {
    files: ['bin/*.js', 'bench/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // Tests read answers as parsed JSON (`res.json()` is untyped by nature) and assert on them.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Literals at the edge of double precision are the point of the numeric tests.
      'no-loss-of-precision': 'off',
    },
  },
);
