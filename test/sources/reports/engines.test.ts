// The reports source on both engines: the fixture (real OpenAlex reports and constructed
// Crossref ones mapped by the importers, with hand-made links: fixture.ts) is imported through
// `importFiles` into SQLite and PostgreSQL, and every query below must give the answer it
// names, the same on PostgreSQL, on SQLite with facets from memory and with facets in SQL:
// `describe`, the fieldsets, filters on scalar, json and entity fields (the places read
// through each kind of organization included), facets with the names the entity tables hold,
// full text in each search index, sorting, paging and counts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import { recordWriterFor } from '../../../src/backends.ts';
import { importFiles, type ImportReport } from '../../../src/data/import/index.ts';
import { createPostgresEngine } from '../../../src/engine/backends/postgres/engine.ts';
import { SqliteQueryContext } from '../../../src/engine/backends/sqlite/query-context.ts';
import type { QueryEngine } from '../../../src/engine/types.ts';
import { indexWords } from '../../../src/model/index-words.ts';
import { openReadOnly } from '../../../src/store/sqlite/open.ts';
import { REPORTS } from '../../../src/sources/reports/fields.ts';
import type { ReportRecord } from '../../../src/sources/reports/native.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../../fixtures/pg-db.ts';
import { AUSTRAL, IDB, ORGANIZATIONS, OSTI, USAID, writeGreyShards } from './fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'quarry-reports-'));
const { reports } = writeGreyShards(dir);

type Row = Readonly<Record<string, unknown>>;

/** The ids of the fixture's reports that `keep` holds for, sorted. */
const idsWhere = (keep: (r: ReportRecord) => boolean): string[] =>
  reports
    .filter(keep)
    .map((r) => r.id)
    .sort();

/** Newest first, ties by id (byte order). */
const byDefaultOrder = [...reports].sort((a, b) =>
  a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? 1 : -1,
);

/** Does a text hold the word (as the full-text index cuts words). */
const hasWord = (text: string | undefined, word: string): boolean => indexWords(text ?? '').includes(word);

/** An organization's display as a facet or page shows it. */
function display(id: string): Row {
  const org = ORGANIZATIONS.find((o) => o.id === id)!;
  const { country_code: _c, state_code: _s, city_id: _i, ...shown } = org;
  return shown;
}

const CASES: readonly (readonly [query: string, expected: unknown])[] = [
  ['search reports return reports[id] limit 1', { total: reports.length }],
  [
    'search reports return reports[id + date] limit 4 skip 1',
    byDefaultOrder.slice(1, 5).map((r) => ({ id: r.id, date: r.date })),
  ],
  ['search reports where year = 1997 return reports[id]', idsWhere((r) => r.year === 1997)],
  ['search reports where date >= "2000-01-01" return reports[id]', idsWhere((r) => r.date >= '2000-01-01')],
  ['search reports where doi = "10.2172/843087" return reports[id]', idsWhere((r) => r.doi === '10.2172/843087')],
  ['search reports where keywords = "Land Cover" return reports[id]', ['W1923601666']],
  ['search reports where keywords is not empty return reports[id]', idsWhere((r) => r.keywords !== undefined)],
  // Json fields: compared with every leaf value.
  [
    'search reports where concepts = "Biodiversity" return reports[id]',
    idsWhere((r) => r.concepts?.includes('Biodiversity') === true),
  ],
  ['search reports where publisher_details = "US Geological Survey" return reports[id]', ['doi:10.3133/70157208']],
  ['search reports where external_ids = "194118789" return reports[id]', ['W194118789']],
  // Organizations of each kind, and the places read through them.
  [`search reports where research_orgs = "${AUSTRAL}" return reports[id]`, ['W194118789']],
  [`search reports where research_orgs = "${IDB}" return reports[id]`, ['W100927044']],
  ['search reports where research_org_countries = "CL" return reports[id]', ['W194118789']],
  ['search reports where research_org_cities = "Valdivia" return reports[id]', ['W194118789']],
  ['search reports where research_org_states = "US-DC" return reports[id]', ['W100927044']],
  [`search reports where responsible_orgs = "${AUSTRAL}" return reports[id]`, ['W194118789']],
  ['search reports where responsible_orgs_countries = "CL" return reports[id]', ['W194118789']],
  ['search reports where responsible_orgs_cities = "Valdivia" return reports[id]', ['W194118789']],
  ['search reports where responsible_orgs_states is not empty return reports[id]', []],
  [`search reports where publisher_orgs = "${OSTI}" return reports[id]`, ['doi:10.2172/843087']],
  [
    'search reports where publisher_orgs_countries = "US" return reports[id]',
    ['W100927044', 'doi:10.2172/843087'].sort(),
  ],
  ['search reports where publisher_orgs.name = "Inter-American Development Bank" return reports[id]', ['W100927044']],
  [
    `search reports where funder_orgs = "${USAID}" return reports[id]`,
    idsWhere((r) => r.funder_orgs?.includes(USAID) === true),
  ],
  [
    'search reports where funder_orgs_countries = "US" return reports[id]',
    idsWhere((r) => r.funder_orgs?.includes(USAID) === true),
  ],
  ['search reports where count(research_orgs) > 1 return reports[id]', ['W4392483720']],
  ['search reports where category_for = "4104" return reports[id]', ['W194118789']],
  ['search reports where category_for_2020 = "3801" return reports[id]', ['W100927044']],
  ['search reports where category_sdg.name = "15 Life on Land" return reports[id]', ['W194118789']],
  // A page's entity fields with the names their tables hold.
  [
    'search reports where id = "W194118789" return reports[id + research_orgs + responsible_orgs + research_org_countries + funder_orgs + funder_orgs_countries + category_sdg]',
    [
      {
        id: 'W194118789',
        research_orgs: [display(AUSTRAL)],
        responsible_orgs: [display(AUSTRAL)],
        research_org_countries: [{ id: 'CL', name: 'Chile' }],
        funder_orgs: [display(USAID)],
        funder_orgs_countries: [{ id: 'US', name: 'United States' }],
        category_sdg: [{ id: '40015', name: '15 Life on Land' }],
      },
    ],
  ],
  // Facets.
  [
    'search reports return year',
    [
      { id: 1997, count: 3 },
      { id: 2005, count: 2 },
      { id: 2000, count: 1 },
    ],
  ],
  [
    'search reports return publisher_orgs',
    // Ties by id, byte order: the OpenAlex id before the ROR URL.
    [
      { id: OSTI, count: 1, ...display(OSTI) },
      { id: IDB, count: 1, ...display(IDB) },
    ],
  ],
  ['search reports return publisher_orgs_countries', [{ id: 'US', count: 2, name: 'United States' }]],
  ['search reports return responsible_orgs_cities', [{ id: 'Valdivia', count: 1, name: 'Valdivia' }]],
  [
    'search reports return research_org_countries',
    [
      { id: 'CL', count: 1, name: 'Chile' },
      { id: 'US', count: 1, name: 'United States' },
    ],
  ],
  ['search reports return funder_orgs_countries', [{ id: 'US', count: 2, name: 'United States' }]],
  [
    'search reports return category_for',
    [
      { id: '3801', count: 1, name: '3801 Applied economics' },
      { id: '4104', count: 1, name: '4104 Environmental management' },
    ],
  ],
  // Full text, in each search index.
  [
    'search reports in title_abstract_only for "rainforest" return reports[id]',
    idsWhere((r) => hasWord(r.title, 'rainforest') || hasWord(r.abstract, 'rainforest')),
  ],
  [
    'search reports in concepts for "geography" return reports[id]',
    idsWhere((r) => (r.concepts ?? []).some((c) => hasWord(c, 'geography'))),
  ],
  [
    'search reports in title_abstract_only for "geography" return reports[id]',
    idsWhere((r) => hasWord(r.title, 'geography') || hasWord(r.abstract, 'geography')),
  ],
  ['search reports for "Freudenberger" return reports[id]', ['W1923601666', 'doi:10.3133/70157208'].sort()],
  ['search reports for "deforestation" where year = 2005 return year', [{ id: 2005, count: 1 }]],
];

function shown(query: string, expected: unknown, answer: Record<string, unknown>): unknown {
  if (expected !== null && typeof expected === 'object' && 'total' in expected)
    return { total: (answer['_stats'] as { total_count: number }).total_count };
  if (/return reports\[id\]/.test(query))
    return ((answer['reports'] ?? []) as Row[]).map((r) => r['id'] as string).sort();
  const key = /return ([a-z_0-9]+)/.exec(query)?.[1] as string;
  return answer[key] ?? [];
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
  sqliteReport = await importFiles({ paths: [dir], open: recordWriterFor(SQLITE), format: 'quarry', onError: 'abort' });
  db = openReadOnly(SQLITE);
  pgDb = await createTestPgDatabase('reports');
  pgReport = await importFiles({ paths: [dir], open: recordWriterFor(pgDb.url), format: 'quarry', onError: 'abort' });
  pgEngine = createPostgresEngine({ url: pgDb.url });
});
after(async () => {
  db?.close();
  await pgEngine?.close();
  await pgDb?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the import', () => {
  test('writes every report and the records they link, on both engines', () => {
    for (const report of [sqliteReport, pgReport]) {
      assert.deepEqual(report.records, { organizations: 5, publications: 3, reports: 6, policy_documents: 3 });
      assert.equal(report.skipped, 0);
    }
  });
});

describe('describe source reports', () => {
  test('lists every field of the field table, with the schema’s fieldsets and indexes', () => {
    const described = new SqliteQueryContext(db).run('describe source reports', { dslVersion: 2 }) as {
      fields: Record<string, { type: string; is_entity: boolean; is_multivalue: boolean }>;
      fieldsets: string[];
      search_fields: string[];
    };
    assert.equal(Object.keys(described.fields).length, 40);
    const names = [...REPORTS.fields.map(([name]) => name), ...REPORTS.aliases.map((a) => a.row[0])].sort();
    assert.deepEqual(Object.keys(described.fields).sort(), names);
    assert.equal(described.fields['publisher_orgs']?.type, 'organizations');
    assert.equal(described.fields['publisher_orgs']?.is_multivalue, true);
    assert.deepEqual(described.fieldsets, ['basics', 'categories']);
    assert.deepEqual(described.search_fields, ['title_abstract_only', 'concepts', 'full_data']);
  });
});

describe('fieldsets', () => {
  test('without a list, a record has the basics it holds', () => {
    const answer = new SqliteQueryContext(db).run('search reports where id = "W100927044" return reports', {
      dslVersion: 2,
    }) as { reports: Row[] };
    assert.deepEqual(Object.keys(answer.reports[0] ?? {}).sort(), [
      'authors',
      'date',
      'doi',
      'id',
      'linkout',
      'publisher_orgs',
      'title',
      'year',
    ]);
  });
});

describe('reports on PostgreSQL', { timeout: 120_000 }, () => {
  answers(() => async (query) => (await pgEngine.run(query, { dslVersion: 2 })).result);
});

describe('reports on SQLite, facets from memory', () => {
  answers(
    () => (query) =>
      Promise.resolve(new SqliteQueryContext(db).run(query, { dslVersion: 2 }) as Record<string, unknown>),
  );
});

describe('reports on SQLite, facets in SQL', () => {
  answers(
    () => (query) =>
      Promise.resolve(
        new SqliteQueryContext(db, { columnar: false }).run(query, { dslVersion: 2 }) as Record<string, unknown>,
      ),
  );
});

describe('both engines give the same whole answers', { timeout: 120_000 }, () => {
  const queries = [
    'search reports return reports limit 40',
    'search reports return reports[basics + categories] limit 40',
    `search reports return reports[${REPORTS.fields
      .map(([name]) => name)
      .filter((name) => name !== 'score')
      .join(' + ')}] limit 40`,
    'search reports for "biodiversity" return reports[id + title] sort by title limit 40',
  ];
  for (const query of queries)
    test(query, async () => {
      const sqlite = new SqliteQueryContext(db).run(query, { dslVersion: 2 });
      const pg = (await pgEngine.run(query, { dslVersion: 2 })).result;
      assert.equal(JSON.stringify(pg), JSON.stringify(sqlite));
    });
});
