// Lint: typescript-eslint with type information, plus the layering of docs/architecture.md
// on every folder of src/: imports point inward, and only the composition root (src/main.ts,
// src/backends.ts and its one object per kind of database in src/backends/) imports a
// concrete back end.
import { resolve } from 'node:path';
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
  // The registry (model/sources.ts) lists each source's declaration, src/sources/<name>/model.ts
  // (only that file of a source's folder: SOURCE_ZONES below).
  model: ['./sources'],
  schema: ['./errors', './dsl', './model'],
  compile: CORE,
  // The affiliation matcher (analytics/affiliations/) links the organizations records name
  // only by name in finish() (store/organization-links.ts).
  store: [...CORE, './analytics'],
  // The analytic statements (extract_affiliations, classify, ...) read the data only through
  // the FunctionContext an engine hands them, so they sit below the engines.
  // They compute with the text analytics (concept extraction, category classifiers).
  functions: [...CORE, './analytics'],
  engine: [...CORE, './store', './functions'],
  accounts: [...IDENTITY, './errors'],
  auth: [...IDENTITY, './errors'],
  ratelimit: [...IDENTITY, './errors'],
  client: ['./errors', './dsl', './model'],
  data: [...CORE, './store', './sources'],
  // A source's own folder (src/sources/<name>/): its declaration, field table and record type
  // (model.ts, fields.ts, native.ts) are in the model layer (SOURCE_ZONES below); its importers
  // and generator are in the data layer, as src/data/ is.
  sources: [...CORE, './store', './data'],
  // The MCP tools (one definition for `POST /mcp` and `quarry mcp`): DSL text in, results
  // out through a QuarryBackend the caller supplies, so they know no engine, store or client.
  mcp: [...CORE, './functions'],
  // Bulk exports: jobs that run queries through an engine and write their results to files.
  exports: [...CORE, './store', './engine', './client'],
  http: [...CORE, ...IDENTITY, './engine', './exports', './config.ts', './mcp'],
  web: [...CORE, ...IDENTITY, './engine', './config.ts', './http', './client'],
  cli: [
    ...CORE,
    ...IDENTITY,
    './engine',
    './functions',
    // `quarry match-affiliations` runs the affiliation matcher directly.
    './analytics',
    './config.ts',
    './data',
    './client',
    './main.ts',
    './backends.ts',
    './mcp',
  ],
  'config.ts': ['./errors'],
  'index.ts': ['./client'],
  'package-root.ts': [],
  'worker-module.ts': [],
  'facet-columns-budget.ts': [],
  'owner-only.ts': [],
  identity: [],
  // Text analytics (concept extraction, category classifiers): computation over strings and
  // numbers, importing nothing of ours.
  analytics: [],
};

// Leaf modules with no imports of ours that any part may use. identity/ holds the clock and
// the account vocabulary (families, account states, the account as the service shows it),
// which every layer from store/ up names.
const LEAVES = [
  './package-root.ts',
  './worker-module.ts',
  './facet-columns-budget.ts',
  './owner-only.ts',
  './identity',
];

const inward = (part, allowed) => ({
  target: `./src/${part}`,
  from: './src',
  except: [...new Set([`./${part}`, ...allowed, ...LEAVES])],
  message: `src/${part} may import only ${allowed.map((a) => a.slice(2)).join(', ') || 'nothing of ours'} (docs/architecture.md: imports point inward)`,
});

// A source's declaration (model.ts), field table (fields.ts) and record type (native.ts) are
// part of the model: they may import only model/ and each other (never the registry they are
// listed in, nor storage.ts, which derives from it), and model/ may import no other file of a
// source's folder (its importers and generator are data layer).
const SOURCE_MODEL_FILES = 'src/sources/*/{model,fields,native}.ts';
const absolute = (glob) => resolve(import.meta.dirname, glob);
const SOURCE_ZONES = [
  {
    target: `./${SOURCE_MODEL_FILES}`,
    from: [absolute('src/**')],
    except: [
      absolute('src/model/**'),
      absolute(SOURCE_MODEL_FILES),
      absolute(`src/{${LEAVES.map((leaf) => leaf.slice(2)).join(',')}}`),
    ],
    message: "a source's model.ts, fields.ts and native.ts may import only src/model (they are part of the model)",
  },
  {
    target: `./${SOURCE_MODEL_FILES}`,
    from: ['./src/model/sources.ts', './src/model/storage.ts'],
    message: 'a source declaration may not import the registry or the layout derived from it (an import cycle)',
  },
  {
    target: './src/model',
    from: [absolute('src/sources/**')],
    except: [absolute(SOURCE_MODEL_FILES)],
    message: "src/model may import only a source's model.ts, fields.ts and native.ts, not its data-layer files",
  },
];

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
            ...SOURCE_ZONES,
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
