// The policy_documents field table against spec/schema-2026.md §7.8: every field of the
// current schema is there once (held or an alias), with the hosted type and flags, and the
// fieldsets, search indexes, indicators and default order name what exists.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENTITY_NAMES } from '../../../src/model/types.ts';
import { POLICY_DOCUMENTS } from '../../../src/sources/policy_documents/fields.ts';

/**
 * §7.8 as [name, type, flags]: F filterable -> f, Fa facet -> c, a list -> m; `score` is the
 * relevance every source has (n, as in the other field tables).
 */
const SCHEMA_2026: readonly (readonly [string, string, string])[] = [
  ['category_bra', 'categories', 'fcm'],
  ['category_for', 'categories', 'fcm'],
  ['category_for_2020', 'categories', 'fcm'],
  ['category_hra', 'categories', 'fcm'],
  ['category_hrcs_hc', 'categories', 'fcm'],
  ['category_hrcs_rac', 'categories', 'fcm'],
  ['category_icrp_cso', 'categories', 'fcm'],
  ['category_icrp_ct', 'categories', 'fcm'],
  ['category_rcdc', 'categories', 'fcm'],
  ['date_inserted', 'date', 'f'],
  ['dimensions_url', 'string', ''],
  ['id', 'string', 'f'],
  ['linkout', 'string', ''],
  ['publication_ids', 'string', 'fm'],
  ['publications', 'publication_links', 'fcm'],
  ['publisher_org', 'organizations', 'fc'],
  ['publisher_org_city', 'cities', 'fc'],
  ['publisher_org_country', 'countries', 'fc'],
  ['publisher_org_state', 'states', 'fc'],
  ['score', 'float', 'n'],
  ['title', 'string', 'f'],
  ['year', 'integer', 'fc'],
];

const sorted = (flags: string): string => [...flags].sort().join('');
const rows = [...POLICY_DOCUMENTS.fields, ...POLICY_DOCUMENTS.aliases.map((a) => a.row)];

test('the table holds each of the 22 fields of the 2026 schema once, with its type and flags', () => {
  assert.equal(SCHEMA_2026.length, 22);
  assert.deepEqual(rows.map(([name]) => name).sort(), SCHEMA_2026.map(([name]) => name).sort());
  for (const [name, type, flags] of SCHEMA_2026) {
    const row = rows.find(([n]) => n === name);
    assert.ok(row, name);
    assert.equal(row[1], type, `${name} type`);
    assert.equal(sorted(row[2]), sorted(flags), `${name} flags`);
    assert.ok(row[3].length > 0 && !/Dimensions|GRID/.test(row[3]), `${name} description`);
  }
});

test('the facets are the 15 the schema lists', () => {
  const facets = rows.filter(([, , flags]) => flags.includes('c')).map(([name]) => name);
  assert.equal(facets.length, 15);
});

test('entity-typed fields name Quarry entities', () => {
  const scalar = new Set(['string', 'integer', 'float', 'date', 'json']);
  for (const [name, type] of rows)
    assert.ok(scalar.has(type) || (ENTITY_NAMES as readonly string[]).includes(type), `${name}: ${type}`);
});

test('fieldsets, search indexes, indicators and the default order name what exists', () => {
  const names = new Set(rows.map(([name]) => name));
  assert.deepEqual(
    POLICY_DOCUMENTS.fieldsets.map((f) => f.name),
    ['basics', 'categories'],
  );
  for (const set of POLICY_DOCUMENTS.fieldsets)
    for (const f of set.fields) assert.ok(names.has(f), `${set.name}: ${f}`);
  // What the hosted outputs of `[basics + ...]` show (spec §5).
  for (const f of ['id', 'title', 'year', 'publisher_org'])
    assert.ok(POLICY_DOCUMENTS.fieldsets[0]?.fields.includes(f as never), `basics: ${f}`);
  assert.deepEqual(
    POLICY_DOCUMENTS.searchIndexes.map((s) => s.name),
    ['title_only', 'full_data'],
  );
  assert.equal(POLICY_DOCUMENTS.defaultIndex, 'full_data');
  assert.deepEqual(POLICY_DOCUMENTS.indicators, ['count']);
  assert.equal(rows.find(([name]) => name === POLICY_DOCUMENTS.defaultOrder.field)?.[1], 'integer');
});
