// Lint: typescript-eslint with type information, plus the layering of DESIGN.md:
// errors/ and model/ import nothing of ours; dsl/ only errors/; schema/ adds dsl/ and model/; compile/ adds schema/.
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const inward = (target, allowed) => ({
  target,
  from: './src',
  except: allowed,
  message: `${target} may import only ${allowed.join(', ')} (DESIGN.md: imports point inward)`,
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
            inward('./src/errors', ['./errors']),
            inward('./src/model', ['./model']),
            inward('./src/dsl', ['./dsl', './errors']),
            inward('./src/schema', ['./schema', './model', './dsl', './errors']),
            inward('./src/compile', ['./compile', './schema', './model', './dsl', './errors']),
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
