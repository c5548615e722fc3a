// countDistinct: the number of distinct record keys among keys read with repeats (a record
// has one link row per organization it names).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countDistinct } from '../../../src/engine/columnar/distinct-count.ts';

test('counts each key once, whatever its repeats and order', () => {
  assert.equal(countDistinct(new Int32Array([])), 0);
  assert.equal(countDistinct(new Int32Array([0])), 1);
  assert.equal(countDistinct(new Int32Array([7, 3, 7, 0, 3, 3, 1_000_000])), 4);
  const keys = Int32Array.from({ length: 5000 }, (_, i) => (i * 7919) % 1234);
  assert.equal(countDistinct(keys), new Set(keys).size);
});
