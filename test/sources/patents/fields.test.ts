// The patents field table against spec/schema-2026.md §7.5: the 2026 `describe schema` rows
// (name, type, flags) are copied below from the spec's table (a list type is flag `m`, an
// entity type is the entity's name), so the repository checks without ../shared.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FieldRow } from '../../../src/model/field-table.ts';
import { ENTITY_NAMES } from '../../../src/model/types.ts';
import { PATENT_LONG_DESCRIPTIONS, PATENTS } from '../../../src/sources/patents/fields.ts';

/** §7.5, one row per field: [name, type, F Fa M flags]. */
const SCHEMA_2026: readonly (readonly [string, string, string])[] = [
  ['abstract', 'string', ''],
  ['additional_filters', 'string', 'fm'],
  ['application_number', 'string', 'f'],
  ['assignee_cities', 'cities', 'fcm'],
  ['assignee_countries', 'countries', 'fcm'],
  ['assignee_names', 'string', 'fm'],
  ['assignee_state_codes', 'states', 'fcm'],
  ['assignees', 'organizations', 'fcm'],
  ['associated_grant_ids', 'string', 'fm'],
  ['category_bra', 'categories', 'fcm'],
  ['category_for', 'categories', 'fcm'],
  ['category_for_2020', 'categories', 'fcm'],
  ['category_hra', 'categories', 'fcm'],
  ['category_hrcs_hc', 'categories', 'fcm'],
  ['category_hrcs_rac', 'categories', 'fcm'],
  ['category_icrp_cso', 'categories', 'fcm'],
  ['category_icrp_ct', 'categories', 'fcm'],
  ['category_rcdc', 'categories', 'fcm'],
  ['claims_amount', 'integer', 'f'],
  ['cpc', 'string', 'fcm'],
  ['current_assignee_names', 'string', 'fm'],
  ['current_assignees', 'organizations', 'fcm'],
  ['date', 'date', 'f'],
  ['date_inserted', 'date', 'f'],
  ['dimensions_url', 'string', ''],
  ['expiration_date', 'date', 'f'],
  ['family_count', 'integer', 'fc'],
  ['family_id', 'integer', 'fc'],
  ['federal_support', 'string', 'fm'],
  ['filing_date', 'date', 'f'],
  ['filing_status', 'string', 'f'],
  ['funder_countries', 'countries', 'fcm'],
  ['funders', 'organizations', 'fcm'],
  ['granted_date', 'date', 'f'],
  ['granted_year', 'integer', 'fc'],
  ['id', 'string', 'f'],
  ['inventor_names', 'string', 'f'],
  ['inventors', 'json', 'f'],
  ['ipcr', 'string', 'fcm'],
  ['jurisdiction', 'string', 'fc'],
  ['kind', 'string', 'fc'],
  ['legal_status', 'string', 'f'],
  ['orange_book', 'json', 'fm'],
  ['original_assignee_names', 'string', 'fm'],
  ['original_assignees', 'organizations', 'fcm'],
  ['priority_date', 'date', 'f'],
  ['priority_year', 'integer', 'fc'],
  ['publication_date', 'date', 'f'],
  ['publication_ids', 'string', 'fm'],
  ['publication_year', 'integer', 'fc'],
  ['publications', 'publication_links', 'fcm'],
  ['reference_ids', 'string', 'fm'],
  ['researchers', 'researchers', 'fcm'],
  ['score', 'float', 'f'],
  ['times_cited', 'integer', 'fc'],
  ['title', 'string', ''],
  ['year', 'integer', 'fc'],
];

/** §7.5's facets line. */
const FACETS = [
  'assignee_cities',
  'assignee_countries',
  'assignee_state_codes',
  'assignees',
  'category_bra',
  'category_for',
  'category_for_2020',
  'category_hra',
  'category_hrcs_hc',
  'category_hrcs_rac',
  'category_icrp_cso',
  'category_icrp_ct',
  'category_rcdc',
  'cpc',
  'current_assignees',
  'family_count',
  'family_id',
  'funder_countries',
  'funders',
  'granted_year',
  'ipcr',
  'jurisdiction',
  'kind',
  'original_assignees',
  'priority_year',
  'publication_year',
  'publications',
  'researchers',
  'times_cited',
  'year',
];

/**
 * Where Quarry's flags differ from describe's, and why: `score` and `times_cited` carry `n`
 * (every record has a value) as in the other sources, `score` without `f` as there;
 * `inventor_names` holds one name per inventor (a list, as the other `*_names`).
 */
const QUARRY_FLAGS: Readonly<Record<string, string>> = { score: 'n', times_cited: 'fcn', inventor_names: 'fm' };

const rows = [...PATENTS.fields, ...PATENTS.aliases.map((a) => a.row)];
const byName = new Map<string, FieldRow>(rows.map((r) => [r[0], r]));
const sorted = (s: string): string => [...s].sort().join('');

test('the patents table has every field of schema-2026 §7.5, and no other', () => {
  assert.equal(SCHEMA_2026.length, 57);
  assert.deepEqual(rows.map((r) => r[0]).sort(), SCHEMA_2026.map((r) => r[0]).sort());
  assert.equal(byName.size, rows.length, 'a field is listed twice');
});

test('each field has the type and flags describe gives it (differences named in QUARRY_FLAGS)', () => {
  for (const [name, type, flags] of SCHEMA_2026) {
    const row = byName.get(name)!;
    assert.equal(row[1], type, `${name} type`);
    assert.equal(sorted(row[2]), sorted(QUARRY_FLAGS[name] ?? flags), `${name} flags`);
    assert.ok(row[3].length > 0, `${name} has a description`);
    if (!['string', 'integer', 'float', 'date', 'json'].includes(row[1]))
      assert.ok((ENTITY_NAMES as readonly string[]).includes(row[1]), `${name}: ${row[1]} is an entity Quarry has`);
  }
  assert.deepEqual(
    rows
      .filter((r) => r[2].includes('c'))
      .map((r) => r[0])
      .sort(),
    [...FACETS].sort(),
  );
});

test('aliases read held fields; fieldsets and the default order name fields of the table', () => {
  for (const a of PATENTS.aliases)
    assert.ok(
      PATENTS.fields.some((f) => f[0] === a.readsFrom),
      a.readsFrom,
    );
  assert.deepEqual(
    PATENTS.fieldsets.map((f) => f.name),
    ['basics', 'extras', 'categories'],
  );
  for (const set of PATENTS.fieldsets) for (const f of set.fields) assert.ok(byName.has(f), `${set.name}: ${f}`);
  // The basics observed in the hosted service (spec §5).
  assert.deepEqual([...PATENTS.fieldsets[0].fields].sort(), [
    'assignee_names',
    'assignees',
    'filing_status',
    'granted_year',
    'id',
    'inventor_names',
    'publication_date',
    'times_cited',
    'title',
    'year',
  ]);
  assert.ok(byName.has(PATENTS.defaultOrder.field));
  assert.ok(Object.keys(PATENT_LONG_DESCRIPTIONS).every((f) => byName.get(f)?.[1] === 'json'));
});

test('the search indexes and indicators are those of §3 and §4', () => {
  assert.deepEqual(
    PATENTS.searchIndexes.map((i) => i.name),
    ['title_only', 'title_abstract_only', 'assignees', 'inventors', 'title_abstract_claims', 'full_data'],
  );
  assert.equal(PATENTS.defaultIndex, 'full_data');
  assert.deepEqual(PATENTS.indicators, ['count']);
});
