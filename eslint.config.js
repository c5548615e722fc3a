// Lint: typescript-eslint with type information, plus the layering of docs/architecture.md
// on every folder of src/: imports point inward, and only the composition root (src/main.ts,
// src/backends.ts) imports a concrete back end.
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

// What each part of src/ may import besides itself, lowest layer first. A folder or file
// missing here is unchecked, so a new folder must be added (the test in
// test/architecture/layers.test.ts fails until it is).
const CORE = ['./errors', './dsl', './model', './schema', './compile'];
const IDENTITY = ['./accounts', './auth', './ratelimit', './store'];
export const LAYERS = {
  errors: [],
  dsl: ['./errors'],
  model: [],
  schema: ['./errors', './dsl', './model'],
  compile: CORE,
  store: [...CORE, './accounts/types.ts', './ratelimit/store.ts'],
  engine: [...CORE, './store'],
  accounts: [...IDENTITY, './errors'],
  auth: [...IDENTITY, './errors'],
  ratelimit: [...IDENTITY, './errors'],
  client: ['./errors', './dsl', './model'],
  data: [...CORE, './store'],
  // A source's own folder (src/sources/<name>/): its field table and record type use the
  // model; its importers and generator the data layer (and its error codes). Split by file
  // when the sources are registered (model.ts in the model layer).
  sources: ['./errors', './model', './data'],
  http: [...CORE, ...IDENTITY, './engine', './config.ts'],
  web: [...CORE, ...IDENTITY, './engine', './config.ts', './http', './client'],
  cli: [...CORE, ...IDENTITY, './engine', './config.ts', './data', './client', './main.ts', './backends.ts'],
  'config.ts': ['./errors'],
  'index.ts': ['./client'],
  'package-root.ts': [],
  'worker-module.ts': [],
  'facet-columns-budget.ts': [],
  'owner-only.ts': [],
};

// Leaf modules with no imports of ours that any part may use.
const LEAVES = ['./package-root.ts', './worker-module.ts', './facet-columns-budget.ts', './owner-only.ts'];

const inward = (part, allowed) => ({
  target: `./src/${part}`,
  from: './src',
  except: [...new Set([`./${part}`, ...allowed, ...LEAVES])],
  message: `src/${part} may import only ${allowed.map((a) => a.slice(2)).join(', ') || 'nothing of ours'} (docs/architecture.md: imports point inward)`,
});

// Concrete back ends: their own folders use them, the composition root picks them, nothing else names them.
const CONCRETE = [
  './src/store/sqlite',
  './src/store/postgres',
  './src/store/redis',
  './src/engine/backends',
  './src/ratelimit/memory-store.ts',
];
const concrete = (part) => ({
  target: `./src/${part}`,
  from: CONCRETE,
  message: `src/${part} may not import a concrete back end: take an interface, and let src/backends.ts pick the implementation`,
});

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'test-results/**',
      'data/**',
      'src/web/static/**',
      'dist/**',
      'dist-test-*/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: {
      // Other modules are parsed by import-x itself, so it must know .ts files are TypeScript;
      // without these settings no-cycle silently sees no imports in them.
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver': { node: { extensions: ['.ts', '.js'] } },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': ['error', { maxDepth: 10 }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...Object.entries(LAYERS).map(([part, allowed]) => inward(part, allowed)),
            ...Object.keys(LAYERS)
              .filter((part) => part !== 'store' && part !== 'engine')
              .map(concrete),
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
