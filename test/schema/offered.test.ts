// Every source of the hosted service (spec/schema-2026.md §7, twelve) is held: the registry
// declares each one, and a query naming any of them validates.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SOURCE_NAMES } from '../../src/model/types.ts';
import { HOSTED_SOURCES } from '../../src/schema/offered.ts';
import { valid } from './helpers.ts';

test('the registry holds exactly the twelve hosted sources', () => {
  assert.equal(new Set(HOSTED_SOURCES).size, 12);
  assert.deepEqual([...SOURCE_NAMES].sort(), [...HOSTED_SOURCES].sort());
});

test('a query naming any hosted source validates', () => {
  for (const name of SOURCE_NAMES) assert.equal(valid(`search ${name} return ${name}`).query.kind, 'search', name);
});
