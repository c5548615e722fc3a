// Titles several lists share, one record on both engines: an OpenAlex source, DOAJ's journal
// CSV and Crossref's title list with the same ISSNs (test/fixtures/data/source_titles/shared-issn,
// whose README says which rows are real) are imported in either order, and again, into SQLite
// and PostgreSQL. Each time the survivor is the record publications link to, with the union of
// the lists and ISSNs, the earliest start year and its empty fields filled in preference order
// (docs/data.md, "Source titles from several lists"); the merged-away ids are gone.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { recordWriterFor } from '../../../src/backends.ts';
import { importFiles } from '../../../src/data/import/index.ts';
import { createPostgresEngine } from '../../../src/engine/backends/postgres/engine.ts';
import { SqliteQueryContext } from '../../../src/engine/backends/sqlite/query-context.ts';
import { planTitleMerge, type HeldMerge, type SourceTitleRecord } from '../../../src/store/source-title-merge.ts';
import { openReadOnly } from '../../../src/store/sqlite/open.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../../fixtures/pg-db.ts';

const DATA = fileURLToPath(new URL('../../fixtures/data/source_titles/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'quarry-title-merge-'));
const OPENALEX = join(dir, 'openalex_sources_dehydrated.jsonl');
const DOAJ = join(dir, 'doaj_shared.csv');
const CROSSREF = join(dir, 'crossref_shared.csv');
const PUBLICATIONS = join(dir, 'publications-0000.jsonl');
copyFileSync(join(DATA, 'openalex_sources_dehydrated.jsonl'), OPENALEX);
copyFileSync(join(DATA, 'shared-issn/doaj_shared.csv'), DOAJ);
copyFileSync(join(DATA, 'shared-issn/crossref_shared.csv'), CROSSREF);

const SHILAP = 'S112646816';
const LINGUA = 'S105737376';
writeFileSync(
  PUBLICATIONS,
  [
    { id: 'pub.1', title: 'Moths of Iberia', year: 2021, type: 'article', journal: { id: SHILAP, title: 'SHILAP' } },
    {
      id: 'pub.2',
      title: 'Clitics in discourse',
      year: 2020,
      type: 'article',
      journal: { id: LINGUA, title: 'Lingua' },
    },
  ]
    .map((p) => JSON.stringify(p))
    .join('\n') + '\n',
);

type Row = Readonly<Record<string, unknown>>;
type Ask = (query: string) => Promise<Record<string, unknown>>;

const ALL = 'id + title + type + issn + journal_lists + start_year + linkout';

/** What every order of import must give. */
const EXPECTED = {
  [SHILAP]: {
    id: SHILAP,
    title: 'SHILAP Revista de lepidopterología',
    type: 'journal',
    issn: ['0300-5267', '2340-4078'],
    // OpenAlex's `is_in_doaj`, and the Seal from DOAJ's row.
    journal_lists: ['DOAJ', 'DOAJ Seal'],
    // The earliest: Crossref's coverage starts 2003, DOAJ says 2019, OpenAlex gives none.
    start_year: 2003,
    // OpenAlex gives no homepage here: Crossref's title DOI comes before DOAJ's URL.
    linkout: 'https://doi.org/10.57065/shilap',
  },
  [LINGUA]: {
    id: LINGUA,
    title: 'Lingua',
    type: 'journal',
    issn: ['0024-3841', '1872-6135'],
    journal_lists: ['CWTS core'],
    start_year: 1949,
    linkout: 'https://doi.org/10.1016/lingua',
  },
  // No OpenAlex source: Crossref's record survives, with DOAJ's list.
  'crossref:900003': {
    id: 'crossref:900003',
    title: 'Anais da Academia Brasileira de Ciências',
    type: 'journal',
    issn: ['0001-3765', '1678-2690'],
    journal_lists: ['DOAJ'],
    start_year: 1999,
    linkout: 'https://doi.org/10.1590/aabc',
  },
};

async function checkMerged(ask: Ask): Promise<void> {
  for (const [id, expected] of Object.entries(EXPECTED)) {
    const issn = expected.issn[0]!;
    const found = (await ask(`search source_titles where issn = "${issn}" return source_titles[${ALL}]`))[
      'source_titles'
    ] as Row[];
    assert.equal(found.length, 1, `one title has ISSN ${issn}`);
    const [title] = found;
    assert.deepEqual(
      Object.fromEntries(Object.entries(title!).filter(([, v]) => v !== null)),
      expected,
      `the title of ${id}`,
    );
  }
  for (const gone of ['doaj:0300-5267', 'crossref:900001', 'crossref:900002', 'doaj:0001-3765']) {
    const found = (await ask(`search source_titles where id = "${gone}" return source_titles[id]`))[
      'source_titles'
    ] as Row[];
    assert.deepEqual(found, [], `${gone} is merged away`);
  }
  const total = (await ask('search source_titles return source_titles[id] limit 1'))['_stats'] as {
    total_count: number;
  };
  // 254 OpenAlex sources and the Anais: the four other list rows merged into them.
  assert.equal(total.total_count, 255);
  const publications = (await ask('search publications return publications[id + journal]'))['publications'] as Row[];
  assert.deepEqual(Object.fromEntries(publications.map((p) => [p['id'], (p['journal'] as Row)['id']])), {
    'pub.1': SHILAP,
    'pub.2': LINGUA,
  });
}

/** The imports of one order, each its own run with its finish(). */
const ORDERS: Record<string, readonly (readonly string[])[]> = {
  'OpenAlex first, then DOAJ, then Crossref': [[OPENALEX, PUBLICATIONS], [DOAJ], [CROSSREF]],
  'the lists first, Crossref before DOAJ, then OpenAlex': [[CROSSREF], [DOAJ], [OPENALEX, PUBLICATIONS]],
  'all in one run': [[DOAJ, CROSSREF, OPENALEX, PUBLICATIONS]],
};

const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const cleanup of cleanups) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

async function importAll(target: string, runs: readonly (readonly string[])[]): Promise<void> {
  for (const paths of runs) await importFiles({ paths, open: recordWriterFor(target), onError: 'abort' });
}

let n = 0;
for (const [order, runs] of Object.entries(ORDERS)) {
  describe(`titles several lists share, ${order}`, { timeout: 120_000 }, () => {
    test('SQLite: one record each, and again after the lists are imported again', async () => {
      const path = join(dir, `records-${n++}.db`);
      await importAll(path, runs);
      const ask = (): Ask => {
        const db = openReadOnly(path);
        cleanups.push(() => void db.close());
        return (query) =>
          Promise.resolve(new SqliteQueryContext(db).run(query, { dslVersion: 2 }) as Record<string, unknown>);
      };
      await checkMerged(ask());
      await importAll(path, [[DOAJ], [CROSSREF]]);
      await checkMerged(ask());
    });
    test('PostgreSQL: one record each, and again after the lists are imported again', async () => {
      const pgDb: TestPgDatabase = await createTestPgDatabase('title_merge');
      cleanups.push(() => pgDb.drop());
      await importAll(pgDb.url, runs);
      const engine = createPostgresEngine({ url: pgDb.url });
      cleanups.unshift(() => engine.close());
      const ask: Ask = async (query) => (await engine.run(query, { dslVersion: 2 })).result;
      await checkMerged(ask);
      await importAll(pgDb.url, [[DOAJ], [CROSSREF]]);
      await checkMerged(ask);
    });
  });
}

describe('the merge itself', () => {
  const plan = (rows: SourceTitleRecord[], held: HeldMerge[] = []): ReturnType<typeof planTitleMerge> =>
    planTitleMerge(rows, held);
  test('two records publications link to are never merged; a list title joins the smaller id', () => {
    const merged = plan([
      { id: 'S2', title: 'B', issn: ['1234-5679'] },
      { id: 'S1', title: 'A', issn: ['1234-5679'] },
      { id: 'doaj:x', title: 'A', issn: ['1234-5679'], journal_lists: ['DOAJ'] },
    ]);
    assert.deepEqual(merged.removals, ['doaj:x']);
    assert.deepEqual(merged.upserts, [{ id: 'S1', title: 'A', issn: ['1234-5679'], journal_lists: ['DOAJ'] }]);
  });
  test('list titles joined through a third share one record', () => {
    const merged = plan([
      { id: 'doaj:a', title: 'A', issn: ['1111-1111'] },
      { id: 'crossref:1', title: 'A', issn: ['1111-1111', '2222-2222'] },
      { id: 'doaj:b', title: 'A', issn: ['2222-2222'], start_year: 1990 },
    ]);
    assert.deepEqual([...merged.removals].sort(), ['doaj:a', 'doaj:b']);
    assert.equal(merged.upserts[0]?.id, 'crossref:1');
    assert.equal(merged.upserts[0]?.start_year, 1990);
  });
  test('planned again over its own result, nothing changes', () => {
    const rows: SourceTitleRecord[] = [
      { id: 'S1', title: 'A', issn: ['1234-5679'] },
      { id: 'doaj:x', title: 'A', issn: ['1234-5679'], publisher: 'P', journal_lists: ['DOAJ'] },
    ];
    const first = plan(rows);
    const again = plan([...first.upserts], [...first.merges]);
    assert.deepEqual(again, { upserts: [], removals: [], merges: first.merges });
  });
  test('a title whose survivor was removed stands alone again', () => {
    const first = plan([
      { id: 'S1', title: 'A', issn: ['1234-5679'] },
      { id: 'doaj:x', title: 'A', issn: ['1234-5679'], journal_lists: ['DOAJ'] },
    ]);
    const after = plan([], [...first.merges]);
    assert.deepEqual(after.upserts, [{ id: 'doaj:x', title: 'A', issn: ['1234-5679'], journal_lists: ['DOAJ'] }]);
    assert.deepEqual(after.merges, []);
  });
});
