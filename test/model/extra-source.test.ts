// A source added to the registry flows through everything derived from it, with no edit
// elsewhere: the test source of test/fixtures/extra-source/patents.ts is appended to
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
  assert.ok(!(SOURCE_NAMES as readonly string[]).includes('patents'));
});

test('the registry lists it last, and an import writes it after the kinds it names', () => {
  assert.deepEqual(report.sources, [...SOURCE_NAMES, 'patents']);
  assert.equal(report.nativeKinds.at(-1), 'patents');
});

test('the layout has its table, link tables, full-text table and values code', () => {
  assert.equal(report.table, 'patents');
  assert.deepEqual(report.links, ['patent_assignees', 'patent_researchers', 'patent_categories', 'patent_values']);
  assert.equal(report.fullText, 'patents_fts');
  assert.equal(report.code, '32');
});

test('describe and the compiler see its fields and search indexes', () => {
  const fields = ['abstract', 'assignees', 'date', 'id', 'inventor_names', 'jurisdiction', 'researchers'];
  for (const f of [...fields, 'times_cited', 'title', 'year']) assert.ok(report.describedFields.includes(f), f);
  assert.deepEqual(report.searchFields, ['title_only', 'inventors', 'full_data']);
  for (const f of ['assignees', 'inventor_names', 'researchers', 'title', 'year'])
    assert.ok(report.layoutFields.includes(f), f);
});

test('both stores declare its tables', () => {
  for (const ddl of [report.sqlite, report.postgres])
    for (const table of ['patents', 'patent_assignees', 'patent_researchers', 'patent_values'])
      assert.ok(ddl.includes(table), table);
  for (const table of ['patents_fts', 'patent_abstracts', 'patent_categories', 'patents_narrow', 'patent_year_counts'])
    assert.ok(report.sqlite.includes(table), table);
  assert.ok(report.postgres.includes('patents_fts_gin'));
});

test('its row hooks make the rows: columns with a fallback, links, values by code, full text', () => {
  assert.deepEqual(report.rows.columns, ['Quantum widget', 'A widget that is quantum.', 'US', 2021, '2021-05-04', 3]);
  assert.deepEqual(report.rows.links, {
    patent_assignees: [['grid.1']],
    patent_researchers: [['ur.1']],
    patent_categories: [['for', '4009']],
    patent_values: [
      ['32', 'Ana Silva'],
      ['32', 'Rui Costa'],
    ],
  });
  assert.equal(report.rows.fullText[0], 'Quantum widget');
});

test('the SQLite store writes it and the engine answers pages, filters, facets and full text on it', () => {
  const { page, filter, facet, text, abstract, categories, years } = report.results;
  assert.deepEqual((page?.['_stats'] as { total_count: number }).total_count, 2);
  const first = (page?.['patents'] as Record<string, unknown>[]).find((p) => p['id'] === 'US-1-A1');
  assert.deepEqual(first?.['inventor_names'], ['Ana Silva', 'Rui Costa']);
  assert.equal((first?.['assignees'] as { name: string }[])[0]?.name, 'Widget Lab');
  assert.deepEqual(filter?.['patents'], [{ id: 'US-1-A1' }]);
  assert.deepEqual(facet?.['assignees'], [{ id: 'grid.1', count: 1, name: 'Widget Lab', types: ['company'] }]);
  assert.deepEqual(text?.['patents'], [{ id: 'US-1-A1' }]);
  // The abstract is packed and kept apart; the category's name came with the record.
  assert.deepEqual(abstract?.['patents'], [{ id: 'US-1-A1', abstract: 'A widget that is quantum.' }]);
  assert.deepEqual(categories?.['category_for'], [
    { id: '4009', count: 1, name: 'Electronics, sensors and digital hardware' },
  ]);
  assert.deepEqual(years?.['year'], [{ id: 2021, count: 1 }]);
});
