// The sources a query may name that this deployment does not hold: the hosted service's
// sources (spec/schema-2026.md §7, twelve) less those the registry declares, so a source
// added to the registry stops being refused without another list to edit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SOURCE_NAMES } from '../../src/model/types.ts';
import { HOSTED_SOURCES, UNSUPPORTED_SOURCES } from '../../src/schema/offered.ts';
import { rejected, valid } from './helpers.ts';

test('every held source is a hosted one, and every hosted source is held or unsupported, never both', () => {
  assert.equal(new Set(HOSTED_SOURCES).size, 12);
  for (const name of SOURCE_NAMES) assert.ok((HOSTED_SOURCES as readonly string[]).includes(name), name);
  for (const name of HOSTED_SOURCES) assert.notEqual(SOURCE_NAMES.includes(name), UNSUPPORTED_SOURCES.has(name), name);
  // Every source of the hosted schema is held now.
  assert.deepEqual([...UNSUPPORTED_SOURCES], []);
  assert.equal(SOURCE_NAMES.length, 12);
});

test('a query naming an unheld hosted source is refused as unsupported; a held one validates', () => {
  for (const name of UNSUPPORTED_SOURCES)
    assert.equal(rejected(`search ${name} return ${name}`).category, 'unsupported', name);
  for (const name of SOURCE_NAMES) assert.equal(valid(`search ${name} return ${name}`).query.kind, 'search', name);
});
