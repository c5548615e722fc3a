// The reports field table against spec/schema-2026.md §7.9: every field of the current schema
// is there once (held or an alias), with the hosted type and flags, and the fieldsets, search
// indexes, indicators and default order name what exists.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENTITY_NAMES } from '../../../src/model/types.ts';
import { REPORTS, REPORTS_LONG_DESCRIPTIONS } from '../../../src/sources/reports/fields.ts';

/**
 * §7.9 as [name, type, flags]: F filterable -> f, Fa facet -> c, a list -> m; `score` is the
 * relevance every source has (n, as in the other field tables).
 */
const SCHEMA_2026: readonly (readonly [string, string, string])[] = [
  ['abstract', 'string', ''],
  ['authors', 'json', 'f'],
  ['category_bra', 'categories', 'fcm'],
  ['category_for', 'categories', 'fcm'],
  ['category_for_2020', 'categories', 'fcm'],
  ['category_hra', 'categories', 'fcm'],
  ['category_hrcs_hc', 'categories', 'fcm'],
  ['category_hrcs_rac', 'categories', 'fcm'],
  ['category_icrp_cso', 'categories', 'fcm'],
  ['category_icrp_ct', 'categories', 'fcm'],
  ['category_rcdc', 'categories', 'fcm'],
  ['category_sdg', 'categories', 'fcm'],
  ['category_uoa', 'categories', 'fcm'],
  ['concepts', 'json', 'f'],
  ['concepts_scores', 'json', 'f'],
  ['date', 'date', 'f'],
  ['date_inserted', 'date', 'f'],
  ['doi', 'string', 'f'],
  ['external_ids', 'json', 'f'],
  ['funder_details', 'json', 'f'],
  ['funder_orgs', 'organizations', 'fcm'],
  ['funder_orgs_countries', 'countries', 'fcm'],
  ['id', 'string', 'f'],
  ['keywords', 'string', 'f'],
  ['linkout', 'string', ''],
  ['publisher_details', 'json', 'f'],
  ['publisher_orgs', 'organizations', 'fcm'],
  ['publisher_orgs_countries', 'countries', 'fcm'],
  ['research_org_cities', 'cities', 'fcm'],
  ['research_org_countries', 'countries', 'fcm'],
  ['research_org_states', 'states', 'fcm'],
  ['research_orgs', 'organizations', 'fcm'],
  ['responsible_orgs', 'organizations', 'fcm'],
  ['responsible_orgs_cities', 'cities', 'fcm'],
  ['responsible_orgs_countries', 'countries', 'fcm'],
  ['responsible_orgs_details', 'json', 'f'],
  ['responsible_orgs_states', 'states', 'fcm'],
  ['score', 'float', 'n'],
  ['title', 'string', ''],
  ['year', 'integer', 'fc'],
];

const sorted = (flags: string): string => [...flags].sort().join('');
const rows = [...REPORTS.fields, ...REPORTS.aliases.map((a) => a.row)];

test('the table holds each of the 40 fields of the 2026 schema once, with its type and flags', () => {
  assert.equal(SCHEMA_2026.length, 40);
  assert.deepEqual(rows.map(([name]) => name).sort(), SCHEMA_2026.map(([name]) => name).sort());
  for (const [name, type, flags] of SCHEMA_2026) {
    const row = rows.find(([n]) => n === name);
    assert.ok(row, name);
    assert.equal(row[1], type, `${name} type`);
    assert.equal(sorted(row[2]), sorted(flags), `${name} flags`);
    assert.ok(row[3].length > 0 && !/Dimensions|GRID/.test(row[3]), `${name} description`);
  }
});

test('the facets are the 24 the schema lists', () => {
  const facets = rows.filter(([, , flags]) => flags.includes('c')).map(([name]) => name);
  assert.equal(facets.length, 24);
});

test('entity-typed fields name Quarry entities', () => {
  const scalar = new Set(['string', 'integer', 'float', 'date', 'json']);
  for (const [name, type] of rows)
    assert.ok(scalar.has(type) || (ENTITY_NAMES as readonly string[]).includes(type), `${name}: ${type}`);
});

test('fieldsets, search indexes, indicators and the default order name what exists', () => {
  const names = new Set(rows.map(([name]) => name));
  assert.deepEqual(
    REPORTS.fieldsets.map((f) => f.name),
    ['basics', 'categories'],
  );
  for (const set of REPORTS.fieldsets) for (const f of set.fields) assert.ok(names.has(f), `${set.name}: ${f}`);
  const categories = REPORTS.fieldsets.find((f) => f.name === 'categories')?.fields ?? [];
  assert.deepEqual(
    [...categories].sort(),
    rows
      .map(([n]) => n)
      .filter((n) => n.startsWith('category_'))
      .sort(),
  );
  assert.deepEqual(
    REPORTS.searchIndexes.map((s) => s.name),
    ['title_abstract_only', 'concepts', 'full_data'],
  );
  assert.equal(REPORTS.defaultIndex, 'full_data');
  assert.deepEqual(REPORTS.indicators, ['count']);
  assert.equal(rows.find(([name]) => name === REPORTS.defaultOrder.field)?.[1], 'date');
});

test('every structured field has its long description', () => {
  const json = REPORTS.fields.filter(([, type]) => type === 'json').map(([name]) => name);
  assert.deepEqual(json.sort(), [
    'authors',
    'concepts',
    'concepts_scores',
    'external_ids',
    'funder_details',
    'publisher_details',
    'responsible_orgs_details',
  ]);
  for (const name of json) assert.ok((REPORTS_LONG_DESCRIPTIONS[name] ?? '').length > 20, name);
});
