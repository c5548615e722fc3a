// The layering lint (eslint.config.js) checks only the parts of src/ it names: every folder
// and top-level file must be named there, or be the composition root, so none goes unchecked.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';

// eslint.config.js is plain JavaScript without types: load it by URL.
const { LAYERS } = (await import(new URL('../../eslint.config.js', import.meta.url).href)) as {
  LAYERS: Record<string, string[]>;
};

// src/backends/ holds one object per kind of database, behind src/backends.ts.
const COMPOSITION_ROOT = ['main.ts', 'backends.ts', 'backends'];

test('every folder and file of src/ has its place in the layering lint', () => {
  const src = new URL('../../src/', import.meta.url);
  const unchecked = readdirSync(src).filter(
    (entry) => !(entry in LAYERS) && !COMPOSITION_ROOT.includes(entry) && !entry.endsWith('.md'),
  );
  assert.deepEqual(unchecked, [], 'add these to LAYERS in eslint.config.js');
});

test('the lower layers never reach up', () => {
  const layers = LAYERS;
  assert.deepEqual(layers.errors, []);
  assert.deepEqual(layers.dsl, ['./errors']);
  for (const part of ['errors', 'dsl', 'model', 'schema', 'compile', 'store', 'engine', 'client', 'data'])
    for (const above of ['./http', './web', './cli', './main.ts', './backends.ts', './backends'])
      assert.ok(!layers[part]?.includes(above), `${part} may not import ${above}`);
});
