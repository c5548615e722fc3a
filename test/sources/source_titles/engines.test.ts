// The source_titles source on both engines: the real samples of the three open title lists
// (254 OpenAlex sources, 9 DOAJ journals, 20 Crossref titles), a title-metrics file and four
// publications naming titles (one a journal no list holds) are imported through
// `importFiles`, each recognised without --format, into SQLite and PostgreSQL. Every query
// below must give the answer it names, the same on PostgreSQL, on SQLite with facets from
// memory and in SQL: describe, filters on each kind of field, facets, full text, the default
// order, the metrics finish() applies, and the publications' `source_title` and `journal`,
// which read the same table. Expected values are computed from the samples where they can be.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { recordWriterFor } from '../../../src/backends.ts';
import { importFiles, type ImportReport } from '../../../src/data/import/index.ts';
import { createPostgresEngine } from '../../../src/engine/backends/postgres/engine.ts';
import { SqliteQueryContext } from '../../../src/engine/backends/sqlite/query-context.ts';
import type { QueryEngine } from '../../../src/engine/types.ts';
import { isQuarryError } from '../../../src/errors/index.ts';
import { SOURCE_TITLES } from '../../../src/sources/source_titles/fields.ts';
import { openReadOnly } from '../../../src/store/sqlite/open.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../../fixtures/pg-db.ts';

const DATA = fileURLToPath(new URL('../../fixtures/data/source_titles/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'quarry-source-titles-'));
for (const file of ['openalex_sources_dehydrated.jsonl', 'doaj_journalcsv_sample.csv', 'crossref_titleFile_sample.csv'])
  copyFileSync(join(DATA, file), join(dir, file));
writeFileSync(
  join(dir, 'metrics.csv'),
  'issn,year,sjr,snip\n0001-625X,2021,0.301,0.552\n2353-074X,2022,0.334,0.61\n0024-3841,2022,0.9,1.412\n',
);

type Row = Readonly<Record<string, unknown>>;

const LINGUA = 'S105737376';
const MYCOLOGICA = 'doaj:0e8e2531ae3f455ebb49acb08191cf78';
const BOTANICORUM = 'doaj:31788fc5aa954fa7a85e2bad856fe0dd';
const STUB = { id: 'jour.stub', title: 'Journal Known Only From Its Articles' };
const PUBLICATIONS = [
  { id: 'pub.1', title: 'Clitics in discourse', year: 2020, type: 'article', journal: { id: LINGUA, title: 'Lingua' } },
  { id: 'pub.2', title: 'Case and agreement', year: 2021, type: 'article', journal: { id: LINGUA, title: 'Lingua' } },
  {
    id: 'pub.3',
    title: 'Fungi of Polish forests',
    year: 2022,
    type: 'article',
    journal: { id: MYCOLOGICA, title: 'Acta Mycologica' },
  },
  { id: 'pub.4', title: 'An orphan paper', year: 2022, type: 'article', journal: STUB },
];
writeFileSync(join(dir, 'publications-0000.jsonl'), PUBLICATIONS.map((p) => JSON.stringify(p)).join('\n') + '\n');

const OPENALEX = readFileSync(join(DATA, 'openalex_sources_dehydrated.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Row);
const openAlex = (keep: (s: Row) => boolean): number => OPENALEX.filter(keep).length;
const shortIds = (keep: (s: Row) => boolean): string[] =>
  OPENALEX.filter(keep)
    .map((s) => String(s['id']).replace('https://openalex.org/', ''))
    .sort();

/** 254 + 9 + 20 titles from the lists, and the one only a publication names. */
const TOTAL = 254 + 9 + 20 + 1;

/** The `journal_lists` facet: OpenAlex's flags, the nine DOAJ journals (two with the Seal). */
const LISTS = [
  { id: 'DOAJ', count: openAlex((s) => s['is_in_doaj'] === true) + 9 },
  { id: 'CWTS core', count: openAlex((s) => s['is_core'] === true) },
  { id: 'Scopus', count: openAlex((s) => s['is_indexed_in_scopus'] === true) },
  { id: 'DOAJ Seal', count: 2 },
].sort((a, b) => b.count - a.count || (a.id < b.id ? -1 : 1));

/**
 * Each query and what its answer must show: for `return source_titles[id]` or
 * `publications[id]`, the ids sorted; for another field list, the records as returned (in the
 * answer's order); for a facet, its rows; `{ total }`: the total count.
 */
const CASES: readonly (readonly [query: string, expected: unknown])[] = [
  ['search source_titles return source_titles[id] limit 1', { total: TOTAL }],
  // The default order is by title.
  [
    'search source_titles where journal_lists = "DOAJ Seal" return source_titles[id + title]',
    [
      { id: MYCOLOGICA, title: 'Acta Mycologica' },
      { id: BOTANICORUM, title: 'Acta Societatis Botanicorum Poloniae' },
    ],
  ],
  // Filters: the type, ISSNs (listed, print, electronic), the start year, the metrics.
  [
    'search source_titles where type = "proceeding" return source_titles[id]',
    shortIds((s) => s['type'] === 'conference'),
  ],
  [
    'search source_titles where type = "book_series" return source_titles[id]',
    shortIds((s) => s['type'] === 'book series'),
  ],
  ['search source_titles where issn = "0024-3841" return source_titles[id]', [LINGUA]],
  [
    'search source_titles where issn in ["1678-2690", "0044-3379"] return source_titles[id]',
    ['crossref:50200', 'doaj:ed09859a464f4461b1af34279d17f7a8'],
  ],
  ['search source_titles where issn_print = "0001-625X" return source_titles[id]', [MYCOLOGICA]],
  ['search source_titles where issn_electronic = "2411-8524" return source_titles[id]', ['crossref:296095']],
  ['search source_titles where start_year < 1960 return source_titles[id]', [BOTANICORUM, 'crossref:50200'].sort()],
  ['search source_titles where start_year is not empty return source_titles[id] limit 1', { total: 9 + 14 }],
  [
    'search source_titles where sjr > 0.3 return source_titles[id + sjr + snip]',
    [
      { id: MYCOLOGICA, sjr: 0.334, snip: 0.61 },
      { id: LINGUA, sjr: 0.9, snip: 1.412 },
    ],
  ],
  ['search source_titles where sjr is empty return source_titles[id] limit 1', { total: TOTAL - 2 }],
  // The title a publication named, without a record of its own.
  [`search source_titles where id = "${STUB.id}" return source_titles[id + title + type]`, [{ ...STUB }]],
  // Facets.
  [
    'search source_titles return type',
    [
      { id: 'journal', count: openAlex((s) => s['type'] === 'journal') + 9 + 20 },
      { id: 'preprint_platform', count: openAlex((s) => s['type'] === 'repository') },
      { id: 'proceeding', count: openAlex((s) => s['type'] === 'conference') },
      { id: 'book_series', count: openAlex((s) => s['type'] === 'book series') },
    ],
  ],
  ['search source_titles return journal_lists', LISTS],
  [
    'search source_titles where start_year < 1970 return start_year',
    [
      { id: 1923, count: 1 },
      { id: 1956, count: 1 },
      { id: 1965, count: 1 },
      { id: 1966, count: 1 },
    ],
  ],
  // Full text (the titles), that of a title only a publication names too.
  ['search source_titles for "Mycologica" return source_titles[id]', [MYCOLOGICA]],
  ['search source_titles for "orphan OR Only" return source_titles[id]', [STUB.id]],
  ['search source_titles in title_only for "Botanicorum" return source_titles[id]', [BOTANICORUM]],
  // Publications name them: `source_title` and `journal` read the same table.
  [
    'search publications return source_title',
    [
      { id: LINGUA, count: 2, title: 'Lingua' },
      { id: MYCOLOGICA, count: 1, title: 'Acta Mycologica' },
      { id: STUB.id, count: 1, title: STUB.title },
    ],
  ],
  [
    'search publications where year = 2022 return journal',
    [
      { id: MYCOLOGICA, count: 1, title: 'Acta Mycologica' },
      { id: STUB.id, count: 1, title: STUB.title },
    ],
  ],
  [`search publications where source_title = "${LINGUA}" return publications[id]`, ['pub.1', 'pub.2']],
  ['search publications where source_title.title = "Acta Mycologica" return publications[id]', ['pub.3']],
  ['search publications where source_title.type = "journal" return publications[id]', ['pub.1', 'pub.2', 'pub.3']],
  [
    'search publications where year = 2021 return publications[id + source_title + journal]',
    [{ id: 'pub.2', source_title: { id: LINGUA, title: 'Lingua' }, journal: { id: LINGUA, title: 'Lingua' } }],
  ],
];

function shown(query: string, expected: unknown, answer: Record<string, unknown>): unknown {
  if (expected !== null && typeof expected === 'object' && 'total' in expected)
    return { total: (answer['_stats'] as { total_count: number }).total_count };
  const key = /return ([a-z_0-9]+)/.exec(query)?.[1] as string;
  const rows = (answer[key] ?? []) as Row[];
  if (/return (source_titles|publications)\[id\]/.test(query)) return rows.map((r) => r['id'] as string).sort();
  return rows;
}

type Run = (query: string) => Promise<Record<string, unknown>>;

function answers(run: () => Run): void {
  for (const [query, expected] of CASES)
    test(query, async () => {
      assert.deepEqual(shown(query, expected, await run()(query)), expected);
    });
}

const SQLITE = join(dir, 'records.db');
let sqliteReport: ImportReport;
let pgReport: ImportReport;
let pgDb: TestPgDatabase;
let pgEngine: QueryEngine;
let db: Database.Database;

before(async () => {
  const paths = [dir];
  sqliteReport = await importFiles({ paths, open: recordWriterFor(SQLITE), onError: 'abort' });
  db = openReadOnly(SQLITE);
  pgDb = await createTestPgDatabase('source_titles');
  pgReport = await importFiles({ paths, open: recordWriterFor(pgDb.url), onError: 'abort' });
  pgEngine = createPostgresEngine({ url: pgDb.url });
});
after(async () => {
  db?.close();
  await pgEngine?.close();
  await pgDb?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the import', () => {
  test('reads each list in its own format, on both engines', () => {
    for (const report of [sqliteReport, pgReport]) {
      assert.deepEqual(report.records, { source_titles: 254 + 9 + 20, title_metrics: 3, publications: 4 });
      assert.deepEqual(Object.fromEntries(report.files.map((f) => [f.path.slice(dir.length + 1), f.format])), {
        'crossref_titleFile_sample.csv': 'crossref-titles',
        'doaj_journalcsv_sample.csv': 'doaj',
        'metrics.csv': 'title-metrics',
        'openalex_sources_dehydrated.jsonl': 'openalex',
        'publications-0000.jsonl': 'quarry',
      });
    }
  });
});

describe('describe source source_titles', () => {
  test('lists every field of §7.10, says where sjr and snip come from', () => {
    const described = new SqliteQueryContext(db).run('describe source source_titles', { dslVersion: 2 }) as {
      fields: Record<string, { type: string; description: string; is_facet: boolean; is_filter: boolean }>;
      fieldsets: string[];
      search_fields: string[];
    };
    assert.deepEqual(Object.keys(described.fields).sort(), SOURCE_TITLES.fields.map(([name]) => name).sort());
    for (const metric of ['sjr', 'snip']) {
      assert.equal(described.fields[metric]?.type, 'float');
      assert.match(described.fields[metric]?.description ?? '', /null unless imported from a title-metrics file/);
    }
    const facets = Object.entries(described.fields)
      .filter(([, f]) => f.is_facet)
      .map(([name]) => name)
      .sort();
    assert.deepEqual(facets, ['journal_lists', 'start_year', 'type']);
    assert.deepEqual(described.fieldsets, ['basics']);
    assert.deepEqual(described.search_fields, ['title_only']);
  });
});

describe('answer shape', () => {
  test('a record returns only fields of the field table, the basics by default', () => {
    const run = (query: string): Row[] =>
      (new SqliteQueryContext(db).run(query, { dslVersion: 2 }) as { source_titles: Row[] }).source_titles;
    const known = new Set<string>(SOURCE_TITLES.fields.map(([name]) => name));
    const all = SOURCE_TITLES.fields.map(([name]) => name).filter((name) => name !== 'score');
    for (const record of run(`search source_titles return source_titles[${all.join(' + ')}] limit 300`))
      for (const key of Object.keys(record)) assert.ok(known.has(key), `${key} is a field`);
    const [lingua] = run(`search source_titles where id = "${LINGUA}" return source_titles`);
    assert.deepEqual(lingua, { id: LINGUA, title: 'Lingua', type: 'journal', issn: ['0024-3841', '1872-6135'] });
  });
});

describe('source_titles on PostgreSQL', { timeout: 120_000 }, () => {
  answers(() => async (query) => (await pgEngine.run(query, { dslVersion: 2 })).result);
});

describe('source_titles on SQLite, facets from memory', () => {
  answers(
    () => (query) =>
      Promise.resolve(new SqliteQueryContext(db).run(query, { dslVersion: 2 }) as Record<string, unknown>),
  );
});

describe('source_titles on SQLite, facets in SQL', () => {
  answers(
    () => (query) =>
      Promise.resolve(
        new SqliteQueryContext(db, { columnar: false }).run(query, { dslVersion: 2 }) as Record<string, unknown>,
      ),
  );
});

describe('both engines give the same whole answers', { timeout: 120_000 }, () => {
  const queries = [
    'search source_titles return source_titles limit 300',
    `search source_titles return source_titles[${SOURCE_TITLES.fields
      .map(([name]) => name)
      .filter((name) => name !== 'score')
      .join(' + ')}] limit 300`,
    'search source_titles for "journal" return source_titles[id + title] sort by title limit 20',
    'search source_titles where type = "journal" return source_titles[id + start_year] sort by start_year limit 20',
  ];
  for (const query of queries)
    test(query, async () => {
      const sqlite = new SqliteQueryContext(db).run(query, { dslVersion: 2 });
      const pg = (await pgEngine.run(query, { dslVersion: 2 })).result;
      assert.equal(JSON.stringify(pg), JSON.stringify(sqlite));
    });
});

describe('refused', () => {
  test('a field of no facet is not a facet', () => {
    assert.throws(
      () => new SqliteQueryContext(db).run('search source_titles return issn', { dslVersion: 2 }),
      (error: unknown) => isQuarryError(error) && error.code === 'SCHEMA_NOT_A_FACET',
    );
  });
});
