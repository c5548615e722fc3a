// The patents source on both engines: the native shards of ./fixture/ (the real samples mapped
// through the importers, with hand-made links to tiny-db's organizations, researchers,
// publications and grants; see build.ts there) are imported into SQLite through
// `importFiles` and loaded into PostgreSQL through its writer, both finished. Every query
// must answer the same on both, and the answers checked here are known from the fixture:
// describe, fieldsets, filters on scalar, list and entity fields, facets on each facet-able
// link field (names from the entity tables, the places records name themselves included),
// full text in each search index, sort, paging, counts, in-corpus `times_cited`, and the
// conformance queries naming patents (../shared/conformance/queries.txt).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { recordWriterFor } from '../../../src/backends.ts';
import { importFiles } from '../../../src/data/import/index.ts';
import { createPostgresEngine } from '../../../src/engine/backends/postgres/engine.ts';
import { runQuery } from '../../../src/engine/backends/sqlite/query-context.ts';
import type { QueryEngine } from '../../../src/engine/types.ts';
import { QuarryError } from '../../../src/errors/index.ts';
import { PATENTS } from '../../../src/sources/patents/fields.ts';
import { openReadOnly } from '../../../src/store/sqlite/open.ts';
import { createTestPgDatabase, loadNativeShards, type TestPgDatabase } from '../../fixtures/pg-db.ts';

const FIXTURE = fileURLToPath(new URL('./fixture/', import.meta.url));
type Answer = Record<string, unknown>;
type Row = Record<string, unknown>;

/** The records of one shard of the fixture. */
const shard = (kind: string): Row[] =>
  readFileSync(join(FIXTURE, `${kind}-0000.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Row);
const PATENT_RECORDS = shard('patents');

/** The conformance queries naming patents, as ../shared/conformance/queries.txt has them. */
const CONFORMANCE = [
  'search patents where assignees != "grid.410484.d" return patents limit 5',
  'search patents where assignee_names ~ "IBM" return assignees limit 5',
];

const rows = (answer: Answer, key: string): Row[] => (answer[key] ?? []) as Row[];
const ids = (answer: Answer, key = 'patents'): string[] => rows(answer, key).map((r) => String(r['id']));
const sortedIds = (answer: Answer, key = 'patents'): string[] => ids(answer, key).sort();
const total = (answer: Answer): number => (answer['_stats'] as { total_count: number }).total_count;
/** A facet's rows as `id:count[:name]`. */
const facet = (answer: Answer, key: string): string[] =>
  rows(answer, key).map((r) => [r['id'], r['count'], ...(r['name'] === undefined ? [] : [r['name']])].join(':'));

/** The fixture's patents naming `value` in `field` (a list field), sorted: expected ids computed from the records. */
const having = (field: string, value: unknown): string[] =>
  PATENT_RECORDS.filter((p) => ((p[field] ?? []) as unknown[]).includes(value))
    .map((p) => String(p['id']))
    .sort();

/**
 * Each query and what its answer must show (beyond both engines giving the same answer). A
 * query without a check is compared between the engines only.
 */
const CASES: [query: string, check?: (answer: Answer) => void][] = [
  // Fieldsets and pages.
  [
    'search patents return patents limit 3',
    (a) => {
      const basics = PATENTS.fieldsets.find((f) => f.name === 'basics')!.fields as readonly string[];
      for (const record of rows(a, 'patents'))
        for (const key of Object.keys(record)) assert.ok(basics.includes(key), key);
      assert.equal(total(a), PATENT_RECORDS.length);
      // Newest first by publication date (the default order).
      assert.deepEqual(ids(a), ['US-99000002-B2', 'US-99000001-B1', 'US-11617522-B2']);
    },
  ],
  [
    'search patents return patents[basics + extras] limit 30',
    (a) => {
      const ibm = rows(a, 'patents').find((r) => r['id'] === 'US-99000002-B2')!;
      assert.equal(ibm['family_id'], 76543210);
      assert.equal(ibm['filing_date'], '2021-02-03');
      assert.equal(ibm['date'], '2021-02-03');
      assert.equal(ibm['legal_status'], 'Active');
    },
  ],
  // Every field a page can show (`all` is gone in version 2).
  [
    `search patents return patents[${PATENTS.fields
      .map(([name]) => name)
      .filter((name) => name !== 'score')
      .join(' + ')}] limit 30`,
    (a) => {
      const ibm = rows(a, 'patents').find((r) => r['id'] === 'US-99000002-B2')!;
      assert.deepEqual(ibm['orange_book'], [
        { Appl_No: '000002', Patent_No: '99000002', Patent_Expire_Date_Text: 'Feb 3, 2041' },
      ]);
      assert.equal((ibm['inventors'] as Row[]).length, 2);
      assert.equal(ibm['times_cited'], 0);
      // Neither the claims' text nor the matchers' input is a field.
      for (const record of rows(a, 'patents')) assert.ok(!('claims_text' in record) && !('unmatched' in record));
    },
  ],
  ['search patents return patents[categories + id] limit 30'],
  [
    'search patents return patents[id + title] sort by publication_date asc limit 3',
    (a) => assert.deepEqual(ids(a), ['US-20050000001-A1', 'US-20050004655-A2', 'US-6857133-B2']),
  ],
  ['search patents return patents[id] limit 5 skip 5', (a) => assert.equal(ids(a).length, 5)],
  ['search patents return patents[id + granted_year] sort by granted_year desc limit 10'],
  // Scalar filters, counts.
  [
    'search patents where filing_status = "Application" return patents[id + filing_status + kind] limit 50',
    (a) =>
      assert.deepEqual(
        sortedIds(a),
        PATENT_RECORDS.filter((p) => p['filing_status'] === 'Application')
          .map((p) => String(p['id']))
          .sort(),
      ),
  ],
  [
    'search patents where jurisdiction = "US" and kind = "B2" return patents[id] limit 0',
    (a) => assert.equal(total(a), PATENT_RECORDS.filter((p) => p['kind'] === 'B2').length),
  ],
  [
    'search patents where filing_date >= "2021-01-01" return patents[id + filing_date] limit 50',
    (a) => assert.ok(rows(a, 'patents').every((r) => String(r['filing_date']) >= '2021-01-01')),
  ],
  ['search patents where year in [2018:2020] return year'],
  ['search patents where granted_year = 2023 return patents[id + granted_year] limit 50'],
  [
    'search patents where date_inserted >= "2023-01-01" return patents[id]',
    (a) => assert.deepEqual(ids(a), ['US-99000002-B2']),
  ],
  ['search patents where legal_status = "Active" return patents[id + expiration_date]'],
  ['search patents return kind'],
  ['search patents return jurisdiction'],
  ['search patents return publication_year'],
  ['search patents return family_id'],
  // List fields held as values.
  [
    'search patents where cpc = "A61B5/14532" return patents[id + cpc + ipcr]',
    (a) => assert.deepEqual(ids(a), having('cpc', 'A61B5/14532')),
  ],
  ['search patents return cpc limit 5'],
  ['search patents return ipcr limit 5'],
  [
    'search patents where inventor_names = "Jennifer Doudna" return patents[id + inventor_names + inventors]',
    (a) => assert.deepEqual(ids(a), ['US-99000002-B2']),
  ],
  [
    'search patents where original_assignee_names = "INTERNATIONAL PLANT PROPAGATION TECHNOLOGY LTD" return patents[id]',
    (a) => assert.deepEqual(sortedIds(a), ['US-11477946-B2', 'US-11477947-B2']),
  ],
  [
    'search patents where current_assignee_names = "University of Melbourne" return patents[id]',
    (a) => assert.deepEqual(ids(a), ['US-99000001-B1']),
  ],
  [
    'search patents where additional_filters = "Orange Book" return patents[id + orange_book + additional_filters]',
    (a) => assert.deepEqual(ids(a), ['US-99000002-B2']),
  ],
  [
    'search patents where federal_support is not empty return patents[id + federal_support]',
    (a) => assert.deepEqual(sortedIds(a), ['US-99000001-B1', 'US-99000002-B2']),
  ],
  // Entity fields: filters and facets with names.
  [
    'search patents return assignees',
    (a) =>
      assert.deepEqual(facet(a, 'assignees'), [
        'grid.900002.b:2:University of Melbourne',
        'grid.410484.d:1:IBM (United States)',
        'grid.900001.a:1:Saarland University',
      ]),
  ],
  [
    'search patents where original_assignees = "grid.900001.a" return patents[id + original_assignees]',
    (a) => assert.deepEqual(ids(a), ['US-11617522-B2']),
  ],
  [
    'search patents where current_assignees.name = "University of Melbourne" return patents[id + current_assignees]',
    (a) => assert.deepEqual(ids(a), ['US-99000001-B1']),
  ],
  ['search patents return original_assignees'],
  ['search patents return current_assignees'],
  [
    'search patents where researchers = "ur.0900000001.01" return patents[id + researchers]',
    (a) => assert.deepEqual(ids(a), ['US-11617522-B2']),
  ],
  ['search patents return researchers'],
  [
    'search patents where funders.id = "grid.900003.c" return funders',
    (a) => assert.deepEqual(facet(a, 'funders'), ['grid.900003.c:2:Wellcome Fund']),
  ],
  ['search patents where count(assignees) >= 1 return patents[id]', (a) => assert.equal(ids(a).length, 4)],
  [
    'search patents return category_for',
    (a) => assert.deepEqual(facet(a, 'category_for'), ['80004:2:Computing', '80003:1:Biomedical']),
  ],
  ['search patents where category_for_2020 = "80004" return patents[id]'],
  // Places the records name themselves: named from the organizations, or by their code.
  [
    'search patents return assignee_countries',
    (a) =>
      assert.deepEqual(facet(a, 'assignee_countries'), [
        'US:9:United States',
        'GB:3:United Kingdom',
        'CA:1:Canada',
        'IE:1:Ireland',
      ]),
  ],
  [
    'search patents where assignee_countries = "CA" return patents[id + assignee_cities]',
    (a) => assert.deepEqual(ids(a), ['US-RE49257-E1']),
  ],
  [
    'search patents where assignee_state_codes = "US-CA" return assignee_cities',
    (a) =>
      assert.deepEqual(facet(a, 'assignee_cities'), [
        'Menlo Park:1:Menlo Park',
        'Northridge:1:Northridge',
        'Pacific Palisades:1:Pacific Palisades',
      ]),
  ],
  ['search patents return assignee_state_codes'],
  [
    'search patents return funder_countries',
    (a) => assert.deepEqual(facet(a, 'funder_countries'), ['US:2:United States', 'GB:1:United Kingdom']),
  ],
  // Links to publications and grants.
  [
    'search patents where publication_ids in ["pub.1900000001"] return assignees',
    (a) => assert.deepEqual(facet(a, 'assignees'), ['grid.900001.a:1:Saarland University']),
  ],
  [
    'search patents where associated_grant_ids in ["grant.9000001", "grant.9000002"] return patents[basics + associated_grant_ids]',
    (a) => assert.deepEqual(sortedIds(a), ['US-11617522-B2', 'US-99000001-B1']),
  ],
  [
    'search patents return publications',
    (a) => assert.deepEqual(facet(a, 'publications'), ['pub.1900000001:1', 'pub.1900000002:1', 'pub.1900000003:1']),
  ],
  [
    'search patents where publications.id = "pub.1900000003" return patents[id + publications + publication_ids]',
    (a) => assert.deepEqual(ids(a), ['US-99000001-B1']),
  ],
  // Citations: the references, and times_cited counted from the held patents citing each.
  [
    'search patents where reference_ids = "US-11617522-B2" return patents[id]',
    (a) => assert.deepEqual(sortedIds(a), ['US-99000001-B1', 'US-99000002-B2']),
  ],
  [
    'search patents where count(reference_ids) > 100 return patents[id]',
    (a) => assert.deepEqual(sortedIds(a), ['US-RE49258-E1', 'US-RE49259-E1']),
  ],
  [
    'search patents where times_cited > 0 return patents[id + times_cited] sort by times_cited desc',
    (a) =>
      assert.deepEqual(
        rows(a, 'patents').map((r) => `${String(r['id'])}:${String(r['times_cited'])}`),
        ['US-11617522-B2:2', 'US-9358892-B1:1', 'US-99000001-B1:1', 'US-D967598-S1:1'],
      ),
  ],
  [
    'search patents where times_cited = 0 return patents[id] limit 0',
    (a) => assert.equal(total(a), PATENT_RECORDS.length - 4),
  ],
  // Full text, in each search index.
  ['search patents for "waffle" return patents[id]', (a) => assert.deepEqual(ids(a), ['US-D967598-S1'])],
  [
    'search patents in title_only for "lockout" return patents[id]',
    (a) => assert.deepEqual(ids(a), ['US-11617522-B2']),
  ],
  ['search patents in title_only for "physiological" return patents[id]', (a) => assert.deepEqual(ids(a), [])],
  [
    'search patents in title_abstract_only for "physiological" return patents[id]',
    (a) => assert.deepEqual(ids(a), ['US-11617522-B2']),
  ],
  [
    'search patents in title_abstract_only for "qubits" return patents[id]',
    (a) => assert.deepEqual(ids(a), ['US-99000002-B2']),
  ],
  [
    'search patents in title_abstract_claims for "\\"surface code\\"" return patents[id]',
    (a) => assert.deepEqual(ids(a), ['US-99000002-B2']),
  ],
  [
    'search patents in title_abstract_only for "\\"surface code\\"" return patents[id]',
    (a) => assert.deepEqual(ids(a), []),
  ],
  [
    'search patents in assignees for "medtronic" return patents[id]',
    (a) => assert.deepEqual(ids(a), ['US-11617522-B2']),
  ],
  [
    'search patents in inventors for "\\"Jennifer Doudna\\"" return patents[id]',
    (a) => assert.deepEqual(ids(a), ['US-99000002-B2']),
  ],
  ['search patents in full_data for "DARPA" return patents[id]', (a) => assert.deepEqual(ids(a), ['US-99000002-B2'])],
  ['search patents in full_data for "medtronic" return patents[id] sort by publication_date'],
  ['search patents for "plant" return patents[id + title] sort by publication_date desc'],
  // The conformance queries.
  [
    CONFORMANCE[0]!,
    (a) => {
      assert.equal(ids(a).length, 5);
      assert.ok(!ids(a).includes('US-99000002-B2'));
      assert.equal(total(a), PATENT_RECORDS.length - 1);
    },
  ],
  [CONFORMANCE[1]!, (a) => assert.deepEqual(facet(a, 'assignees'), ['grid.410484.d:1:IBM (United States)'])],
];

/** Both engines' answers to compare: records of a relevance-ordered page as a set. */
function comparable(query: string, answer: Answer): Answer {
  if (!/\sfor\s/.test(query) || /\ssort by\s/.test(query)) return answer;
  return {
    ...answer,
    patents: [...rows(answer, 'patents')].sort((a, b) => String(a['id']).localeCompare(String(b['id']))),
  };
}

async function attempt(run: () => Promise<Answer>): Promise<Answer> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof QuarryError) return { error: error.code, message: error.message };
    throw error;
  }
}

describe('patents on SQLite and PostgreSQL', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-patents-'));
  const dbPath = join(dir, 'records.db');
  let sqlite: Database.Database;
  let pgDb: TestPgDatabase;
  let engine: QueryEngine;
  let imported: Awaited<ReturnType<typeof importFiles>>;
  before(async () => {
    imported = await importFiles({ paths: [FIXTURE], open: recordWriterFor(dbPath), format: 'quarry' });
    sqlite = openReadOnly(dbPath);
    pgDb = await createTestPgDatabase('patents');
    await loadNativeShards(FIXTURE, pgDb.url);
    engine = createPostgresEngine({ url: pgDb.url });
  });
  after(async () => {
    sqlite?.close();
    await engine?.close();
    await pgDb?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the native import writes every patent of the shard, after the kinds they name', () => {
    const files = imported.files.map((f) => [f.path.slice(FIXTURE.length), f.records]);
    assert.deepEqual(files, [
      ['organizations-0000.jsonl', shard('organizations').length],
      ['researchers-0000.jsonl', shard('researchers').length],
      ['grants-0000.jsonl', shard('grants').length],
      ['publications-0000.jsonl', shard('publications').length],
      ['patents-0000.jsonl', PATENT_RECORDS.length],
    ]);
    assert.equal(PATENT_RECORDS.length, 25);
    assert.equal(sqlite.prepare('SELECT count(*) FROM patents').pluck().get(), 25);
    assert.equal(readdirSync(FIXTURE).filter((f) => f.endsWith('.jsonl')).length, 5);
  });

  test('describe source patents lists every field of the field table, on both engines', async () => {
    const fields = [...PATENTS.fields, ...PATENTS.aliases.map((a) => a.row)].map(([name]) => name).sort();
    const a = runQuery(sqlite, 'describe source patents', { dslVersion: 2 });
    const b = (await engine.run('describe source patents', { dslVersion: 2 })).result;
    assert.deepEqual(Object.keys(a['fields'] as Row).sort(), fields);
    assert.deepEqual(b, a);
    assert.deepEqual(
      [...((a['search_fields'] ?? []) as string[])].sort(),
      PATENTS.searchIndexes.map((ix) => ix.name).sort(),
    );
  });

  for (const [query, check] of CASES) {
    test(query, async () => {
      const a = await attempt(() => Promise.resolve().then(() => runQuery(sqlite, query, { dslVersion: 2 })));
      const b = await attempt(async () => (await engine.run(query, { dslVersion: 2 })).result);
      assert.equal(a['error'], undefined, String(a['message']));
      assert.deepEqual(comparable(query, b), comparable(query, a), 'PostgreSQL answers as SQLite does');
      check?.(a);
    });
  }
});
