// The datasets field table against spec/schema-2026.md §7.7: every field of the current schema
// is there once (held or an alias), with the hosted type and flags, and the fieldsets, search indexes, indicators and
// default order name what exists.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENTITY_NAMES } from '../../../src/model/types.ts';
import { DATASETS, DATASETS_LONG_DESCRIPTIONS } from '../../../src/sources/datasets/fields.ts';

/**
 * §7.7 as [name, type, flags]: F filterable -> f, Fa facet -> c, a list -> m; `score` is the
 * relevance every source has (n, as in the other field tables).
 */
const SCHEMA_2026: readonly (readonly [string, string, string])[] = [
  ['associated_grant_ids', 'string', 'fm'],
  ['associated_publication', 'publication_links', 'fc'],
  ['associated_publication_id', 'string', 'f'],
  ['authors', 'json', 'fm'],
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
  ['date', 'date', 'f'],
  ['date_created', 'date', 'f'],
  ['date_embargo', 'date', 'f'],
  ['date_inserted', 'date', 'f'],
  ['date_modified', 'date', 'f'],
  ['description', 'string', ''],
  ['dimensions_url', 'string', ''],
  ['doi', 'string', 'f'],
  ['figshare_url', 'string', ''],
  ['funder_countries', 'countries', 'fcm'],
  ['funders', 'organizations', 'fcm'],
  ['id', 'string', 'f'],
  ['journal', 'journals', 'fc'],
  ['keywords', 'string', 'fcm'],
  ['language_desc', 'string', 'fc'],
  ['language_title', 'string', 'fc'],
  ['license_name', 'string', 'fc'],
  ['license_url', 'string', ''],
  ['repository', 'repositories', 'fc'],
  ['research_org_cities', 'cities', 'fcm'],
  ['research_org_countries', 'countries', 'fcm'],
  ['research_org_states', 'states', 'fcm'],
  ['research_orgs', 'organizations', 'fcm'],
  ['researchers', 'researchers', 'fcm'],
  ['score', 'float', 'n'],
  ['title', 'string', ''],
  ['year', 'integer', 'fc'],
];

const sorted = (flags: string): string => [...flags].sort().join('');
const rows = [...DATASETS.fields, ...DATASETS.aliases.map((a) => a.row)];

test('the table holds each of the 41 fields of the 2026 schema once, with its type and flags', () => {
  assert.equal(SCHEMA_2026.length, 41);
  assert.deepEqual(rows.map(([name]) => name).sort(), SCHEMA_2026.map(([name]) => name).sort());
  for (const [name, type, flags] of SCHEMA_2026) {
    const row = rows.find(([n]) => n === name);
    assert.ok(row, name);
    assert.equal(row[1], type, `${name} type`);
    assert.equal(sorted(row[2]), sorted(flags), `${name} flags`);
    assert.ok(row[3].length > 0 && !/Dimensions|GRID/.test(row[3]), `${name} description`);
  }
});

test('the facets are the 25 the schema lists', () => {
  const facets = rows.filter(([, , flags]) => flags.includes('c')).map(([name]) => name);
  assert.equal(facets.length, 25);
});

test('entity-typed fields name Quarry entities, repositories included', () => {
  const scalar = new Set(['string', 'integer', 'float', 'date', 'json']);
  for (const [name, type] of rows)
    assert.ok(scalar.has(type) || (ENTITY_NAMES as readonly string[]).includes(type), `${name}: ${type}`);
  assert.ok(DATASETS.fields.some(([name, type]) => name === 'repository' && type === 'repositories'));
});

test('aliases and version 1 names read held fields', () => {
  const held = new Set(DATASETS.fields.map(([name]) => name));
  for (const a of DATASETS.aliases) assert.ok(held.has(a.readsFrom), a.row[0]);
  for (const r of DATASETS.removedInV2) {
    assert.ok(held.has(r.readsFrom), r.row[0]);
    assert.ok(held.has(r.replacement), r.row[0]);
  }
  assert.deepEqual(
    DATASETS.removedInV2.map((r) => [r.row[0], r.replacement]),
    [['license', 'license_name']],
  );
});

test('fieldsets, search indexes, indicators and the default order name what exists', () => {
  const names = new Set(rows.map(([name]) => name));
  assert.deepEqual(
    DATASETS.fieldsets.map((f) => f.name),
    ['basics', 'categories'],
  );
  for (const set of DATASETS.fieldsets) for (const f of set.fields) assert.ok(names.has(f), `${set.name}: ${f}`);
  const categories = DATASETS.fieldsets.find((f) => f.name === 'categories')?.fields ?? [];
  assert.deepEqual(
    [...categories].sort(),
    rows
      .map(([n]) => n)
      .filter((n) => n.startsWith('category_'))
      .sort(),
  );
  for (const f of ['id', 'title', 'year', 'authors'])
    assert.ok(DATASETS.fieldsets[0]?.fields.includes(f as never), `basics: ${f}`);
  assert.deepEqual(
    DATASETS.searchIndexes.map((s) => s.name),
    ['title_only', 'title_abstract_only', 'full_data'],
  );
  assert.equal(DATASETS.defaultIndex, 'full_data');
  assert.deepEqual(DATASETS.indicators, ['count']);
  const order = rows.find(([name]) => name === DATASETS.defaultOrder.field);
  assert.equal(order?.[1], 'date');
  assert.equal(DATASETS.defaultOrder.direction, 'desc');
});

test('the structured field has its long description', () => {
  const json = DATASETS.fields.filter(([, type]) => type === 'json').map(([name]) => name);
  assert.deepEqual(json, ['authors']);
  for (const name of json) assert.match(DATASETS_LONG_DESCRIPTIONS[name] ?? '', /`name`.*`orcid`/);
});
