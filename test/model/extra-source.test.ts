// A source added to the registry flows through everything derived from it, with no edit
// elsewhere: the test source of test/fixtures/extra-source/inventions.ts is appended to
// SOURCE_MODULES as its line in src/model/sources.ts would be (by a module hook, in a child
// process, so this process keeps the real registry), and the child reports what the schema,
// describe, both stores' declared DDL, the row builder, the compiler's layout and the SQLite
// store and engine made of it (docs/adding-a-source.md).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { SOURCE_NAMES } from '../../src/model/sources.ts';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/extra-source/${name}`, import.meta.url));

interface Report {
  sources: string[];
  nativeKinds: string[];
  table: string;
  links: string[];
  fullText: string;
  code: string;
  describedFields: string[];
  searchFields: string[];
  layoutFields: string[];
  sqlite: string[];
  postgres: string[];
  rows: { columns: unknown[]; doc: string; links: Record<string, unknown[][]>; fullText: string[] };
  results: Record<string, Record<string, unknown>>;
}

const report = JSON.parse(
  execFileSync(process.execPath, ['--import', 'tsx', '--import', fixture('register.mjs'), fixture('run.ts')], {
    encoding: 'utf8',
  }),
) as Report;

test('the real registry has no test source', () => {
  assert.ok(!(SOURCE_NAMES as readonly string[]).includes('inventions'));
});

test('the registry lists it last, and an import writes it after the kinds it names', () => {
  assert.deepEqual(report.sources, [...SOURCE_NAMES, 'inventions']);
  // After every source (the record-only kinds, which name nothing, come after the sources).
  const sources: readonly string[] = [...SOURCE_NAMES, 'inventions'];
  assert.equal(report.nativeKinds.filter((kind) => sources.includes(kind)).at(-1), 'inventions');
});

test('the layout has its table, link tables, full-text table and values code', () => {
  assert.equal(report.table, 'inventions');
  assert.deepEqual(report.links, [
    'invention_assignees',
    'invention_researchers',
    'invention_categories',
    'invention_values',
  ]);
  assert.equal(report.fullText, 'inventions_fts');
  assert.equal(report.code, '32');
});

test('describe and the compiler see its fields and search indexes', () => {
  const fields = ['abstract', 'assignees', 'date', 'id', 'maker_names', 'jurisdiction', 'researchers'];
  for (const f of [...fields, 'times_cited', 'title', 'year']) assert.ok(report.describedFields.includes(f), f);
  assert.deepEqual(report.searchFields, ['title_only', 'inventors', 'full_data']);
  for (const f of ['assignees', 'maker_names', 'researchers', 'title', 'year'])
    assert.ok(report.layoutFields.includes(f), f);
});

test('both stores declare its tables', () => {
  for (const ddl of [report.sqlite, report.postgres])
    for (const table of ['inventions', 'invention_assignees', 'invention_researchers', 'invention_values'])
      assert.ok(ddl.includes(table), table);
  for (const table of [
    'inventions_fts',
    'invention_abstracts',
    'invention_categories',
    'inventions_narrow',
    'invention_year_counts',
  ])
    assert.ok(report.sqlite.includes(table), table);
  assert.ok(report.postgres.includes('inventions_fts_gin'));
});

test('its row hooks make the rows: columns with a fallback, links, values by code, full text', () => {
  assert.deepEqual(report.rows.columns, ['Quantum widget', 'A widget that is quantum.', 'US', 2021, '2021-05-04', 3]);
  assert.deepEqual(report.rows.links, {
    invention_assignees: [['grid.1']],
    invention_researchers: [['ur.1']],
    invention_categories: [['for', '4009']],
    invention_values: [
      ['32', 'Ana Silva'],
      ['32', 'Rui Costa'],
    ],
  });
  assert.equal(report.rows.fullText[0], 'Quantum widget');
});

test('the SQLite store writes it and the engine answers pages, filters, facets and full text on it', () => {
  const { page, filter, facet, text, abstract, categories, years } = report.results;
  assert.deepEqual((page?.['_stats'] as { total_count: number }).total_count, 2);
  const first = (page?.['inventions'] as Record<string, unknown>[]).find((p) => p['id'] === 'US-1-A1');
  assert.deepEqual(first?.['maker_names'], ['Ana Silva', 'Rui Costa']);
  assert.equal((first?.['assignees'] as { name: string }[])[0]?.name, 'Widget Lab');
  assert.deepEqual(filter?.['inventions'], [{ id: 'US-1-A1' }]);
  assert.deepEqual(facet?.['assignees'], [{ id: 'grid.1', count: 1, name: 'Widget Lab', types: ['company'] }]);
  assert.deepEqual(text?.['inventions'], [{ id: 'US-1-A1' }]);
  // The abstract is packed and kept apart; the category's name came with the record.
  assert.deepEqual(abstract?.['inventions'], [{ id: 'US-1-A1', abstract: 'A widget that is quantum.' }]);
  assert.deepEqual(categories?.['category_for'], [
    { id: '4009', count: 1, name: 'Electronics, sensors and digital hardware' },
  ]);
  assert.deepEqual(years?.['year'], [{ id: 2021, count: 1 }]);
});
