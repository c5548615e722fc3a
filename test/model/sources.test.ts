// The registry of sources (src/model/sources.ts): what derives from it keeps the order and
// names the service has always had, whatever sources are added after them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NATIVE_KINDS, RECORD_KINDS, SOURCE_NAMES } from '../../src/model/sources.ts';

test('the four first sources keep their names and order (describe lists them so)', () => {
  assert.deepEqual(SOURCE_NAMES.slice(0, 4), ['publications', 'grants', 'researchers', 'organizations']);
});

test('an import writes entities before the records naming them, in the order it always has', () => {
  // Source titles are where the journals were (the journals' table became theirs).
  assert.deepEqual(NATIVE_KINDS.slice(0, 6), [
    'categories',
    'organizations',
    'source_titles',
    'researchers',
    'grants',
    'publications',
  ]);
  assert.deepEqual([...NATIVE_KINDS].sort(), [...RECORD_KINDS].sort());
});
