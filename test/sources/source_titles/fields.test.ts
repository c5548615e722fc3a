// The source_titles field table against spec/schema-2026.md §7.10: every field of the current
// schema once, with the hosted type and flags; the fieldset, search index, indicator and
// default order name what exists; the metrics say where their values come from.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SOURCE_TITLES, SOURCE_TITLE_TYPES } from '../../../src/sources/source_titles/fields.ts';

/**
 * §7.10 as [name, type, flags]: F filterable -> f, Fa facet -> c, a list -> m; `score` is the
 * relevance every source has (n, as in the other field tables).
 */
const SCHEMA_2026: readonly (readonly [string, string, string])[] = [
  ['id', 'string', 'f'],
  ['issn', 'string', 'fm'],
  ['issn_electronic', 'string', 'f'],
  ['issn_print', 'string', 'f'],
  ['journal_lists', 'string', 'fcm'],
  ['linkout', 'string', ''],
  ['score', 'float', 'n'],
  ['sjr', 'float', 'f'],
  ['snip', 'float', 'f'],
  ['start_year', 'integer', 'fc'],
  ['title', 'string', ''],
  ['type', 'string', 'fc'],
];

const sorted = (flags: string): string => [...flags].sort().join('');

test('the table holds each of the 12 fields of the 2026 schema once, with its type and flags', () => {
  const rows = SOURCE_TITLES.fields;
  assert.deepEqual(
    rows.map(([name]) => name).sort(),
    SCHEMA_2026.map(([name]) => name),
  );
  for (const [name, type, flags] of SCHEMA_2026) {
    const row = rows.find(([n]) => n === name);
    assert.ok(row, name);
    assert.equal(row[1], type, `${name} type`);
    assert.equal(sorted(row[2]), sorted(flags), `${name} flags`);
    assert.ok(row[3].length > 0 && !/Dimensions/.test(row[3]), `${name} description`);
  }
});

test('the facets are the three the schema lists; the type names its four values', () => {
  assert.deepEqual(
    SOURCE_TITLES.fields.filter(([, , flags]) => flags.includes('c')).map(([name]) => name),
    ['journal_lists', 'start_year', 'type'],
  );
  const type = SOURCE_TITLES.fields.find(([name]) => name === 'type')?.[3] ?? '';
  for (const value of SOURCE_TITLE_TYPES) assert.match(type, new RegExp(`\`${value}\``));
});

test('sjr and snip say they are null unless a title-metrics file gives them', () => {
  for (const metric of ['sjr', 'snip'])
    assert.match(SOURCE_TITLES.fields.find(([name]) => name === metric)?.[3] ?? '', /title-metrics/);
});

test('the fieldset, index and default order name fields and indexes of the table', () => {
  const names = new Set(SOURCE_TITLES.fields.map(([name]) => name));
  for (const fieldset of SOURCE_TITLES.fieldsets) for (const f of fieldset.fields) assert.ok(names.has(f), f);
  assert.deepEqual(
    SOURCE_TITLES.searchIndexes.map((ix) => ix.name),
    ['title_only'],
  );
  assert.equal(SOURCE_TITLES.defaultIndex, 'title_only');
  assert.deepEqual(SOURCE_TITLES.indicators, ['count']);
  assert.ok(names.has(SOURCE_TITLES.defaultOrder.field));
});
