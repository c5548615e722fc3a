// The per-year tables in SQLite: finish() builds them and marks them fresh; a write of the
// source's records (upsert or removal) marks them stale, and until the next finish() the
// per-year functions answer by the direct SQL, so they are right at every moment; a database
// made before them gets them built by the records migration.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { runQuery } from '../../src/engine/backends/sqlite/query-context.ts';
import { openRecordStore, upgradeRecordDatabase, type RecordStore } from '../../src/store/sqlite/records-store.ts';
import {
  CITATIONS,
  CITED_BY_2021,
  FUNDING_CNY,
  FUNDING_USD,
  GRANTS,
  PUBLICATIONS,
  pub,
} from './fixtures/per-year-records.ts';
import { CITING_YEARS_SELECT } from '../../src/store/per-year-tables.ts';
import { refreshCitations } from '../../src/store/sqlite/per-year-tables.ts';
import { markPostingsStale } from '../../src/store/sqlite/posting-lists.ts';
import { sqliteRecordVersionsFrom } from '../fixtures/record-versions.ts';

const dir = mkdtempSync(join(tmpdir(), 'quarry-per-year-'));
let n = 0;
const freshPath = (): string => join(dir, `t${++n}.db`);
const options = { mmapMb: 0, cacheMb: 16 };

const answer = (store: RecordStore, query: string): unknown => {
  const result = runQuery(store.db, query, { dslVersion: 2 }) as Record<string, unknown>;
  return result[query.includes('citations') ? 'citations_per_year' : 'funding_per_year'];
};
const freshRows = (db: Database.Database): string[] =>
  db.prepare("SELECT key FROM store_meta WHERE key LIKE 'per_year_%' ORDER BY key").pluck().all() as string[];

function loaded(path: string): RecordStore {
  const store = openRecordStore(path, options);
  store.upsert('publications', PUBLICATIONS);
  store.upsert('grants', GRANTS);
  return store;
}

describe('per-year tables (SQLite)', () => {
  test('finish() builds them: citations per cited publication and year, funding per grant and year, corpus totals', () => {
    const store = loaded(freshPath());
    assert.deepEqual(freshRows(store.db), []);
    store.finish({ optimize: false, analyze: false });
    assert.deepEqual(freshRows(store.db), ['per_year_grants', 'per_year_publications']);
    assert.deepEqual(
      store.db
        .prepare(
          'SELECT p.id, y.year, y.citations FROM publication_citations_by_year y JOIN publications p ON p.pk = y.publication_pk ORDER BY 1, 2',
        )
        .all(),
      [
        { id: 'pub.1', year: 2020, citations: 1 },
        { id: 'pub.1', year: 2021, citations: 1 },
        { id: 'pub.2', year: 2021, citations: 1 },
      ],
    );
    assert.deepEqual(store.db.prepare('SELECT year, citations FROM citations_by_year ORDER BY year').all(), [
      { year: 2020, citations: 1 },
      { year: 2021, citations: 2 },
    ]);
    assert.deepEqual(store.db.prepare("SELECT year, amount FROM funding_by_year WHERE currency = 'USD'").all(), [
      { year: 2012, amount: 300 },
      { year: 2013, amount: 300 },
      { year: 2014, amount: 400 },
    ]);
    assert.deepEqual(answer(store, CITATIONS), { '2019': 0, '2020': 1, '2021': 2, '2022': 0 });
    assert.deepEqual(answer(store, CITED_BY_2021), { '2019': 0, '2020': 0, '2021': 1, '2022': 0 });
    assert.deepEqual(answer(store, FUNDING_USD), { '2012': 300, '2013': 300, '2014': 400, '2015': 0 });
    // CNY has no column: the amounts are read from the grants' documents.
    assert.deepEqual(answer(store, FUNDING_CNY), { '2012': 2000, '2013': 2000, '2014': 2700, '2015': 0 });
    store.close();
  });

  test("the citations counted from the posting lists are the grouped pass's: per-year tables and the counts records lacked", () => {
    const store = openRecordStore(freshPath(), options);
    store.upsert('publications', [
      ...PUBLICATIONS,
      // Without a year; citing one publication twice, one outside the corpus, and pub.1.
      { ...pub('pub.n1', 2020, ['pub.1', 'pub.1', 'pub.out', 'pub.2']), year: undefined },
      pub('pub.n2', 2019, ['pub.out', 'pub.1']),
      pub('pub.n3', 2019, ['pub.out']),
      // A record that carries its counts keeps them.
      { ...pub('pub.c', 2022, ['pub.2']), times_cited: 7, recent_citations: 3 },
      // A chain, each citing the one before: more rows by record than one statement writes.
      ...Array.from({ length: 450 }, (_, k) => pub(`pub.m${k}`, 2000 + (k % 20), k === 0 ? [] : [`pub.m${k - 1}`])),
    ]);
    store.remove('publications', ['pub.n3']);
    const steps = store.finish({ optimize: false, analyze: false, recentSince: 2020 }).steps.map((s) => s.step);
    assert.ok(steps.includes('citations'), steps.join(', '));
    // What finish() did, again: counted from the lists it built.
    assert.equal(refreshCitations(store.db, { recentSince: 2020 }), 'counted');
    const outcome = (): unknown => ({
      byRecord: store.db
        .prepare(
          'SELECT p.id, y.year, y.citations FROM publication_citations_by_year y JOIN publications p ON p.pk = y.publication_pk ORDER BY 1, 2',
        )
        .all(),
      corpus: store.db.prepare('SELECT year, citations FROM citations_by_year ORDER BY year').all(),
      counts: store.db.prepare('SELECT id, times_cited, recent_citations FROM publications ORDER BY id').all(),
    });
    const counted = outcome() as { byRecord: unknown[]; counts: { id: string }[] };
    assert.equal(counted.byRecord.length, 3 + 2 + 449);
    assert.deepEqual(
      counted.counts.filter((c) => !c.id.startsWith('pub.m')),
      [
        // pub.1: cited by pub.2 (2020), pub.3 (2021), pub.n1 twice as one citing record (no year), pub.n2 (2019).
        { id: 'pub.1', times_cited: 4, recent_citations: 2 },
        { id: 'pub.2', times_cited: 3, recent_citations: 2 },
        { id: 'pub.3', times_cited: 0, recent_citations: 0 },
        { id: 'pub.c', times_cited: 7, recent_citations: 3 },
        { id: 'pub.n1', times_cited: 0, recent_citations: 0 },
        { id: 'pub.n2', times_cited: 0, recent_citations: 0 },
      ],
    );
    // Lists behind: the counting declines, and SQLite groups the references themselves.
    store.db.exec("UPDATE publications SET times_cited = NULL, recent_citations = NULL WHERE id != 'pub.c'");
    store.db.exec('DELETE FROM publication_citations_by_year; DELETE FROM citations_by_year');
    markPostingsStale(store.db);
    assert.equal(refreshCitations(store.db, { recentSince: 2020 }), 'grouped');
    assert.deepEqual(outcome(), counted);
    store.close();
  });

  test('past its budget of rows the counting declines, and the grouped pass writes the same rows', () => {
    const store = loaded(freshPath());
    store.finish({ optimize: false, analyze: false });
    const before = store.db.prepare('SELECT * FROM publication_citations_by_year').all();
    assert.ok(before.length > 1);
    assert.equal(refreshCitations(store.db, { budget: 1 }), 'grouped');
    assert.deepEqual(store.db.prepare('SELECT * FROM publication_citations_by_year').all(), before);
    // A counting that declined before (finish() counts beside the full-text merge): grouped at once.
    assert.equal(refreshCitations(store.db, { counted: null }), 'grouped');
    assert.deepEqual(store.db.prepare('SELECT * FROM publication_citations_by_year').all(), before);
    store.close();
  });

  test('an upsert or a removal marks its source stale: the answer follows the records before the next finish()', () => {
    const store = loaded(freshPath());
    store.finish({ optimize: false, analyze: false });
    store.upsert('publications', [pub('pub.4', 2022, ['pub.1', 'pub.2'])]);
    // Grants were not written: their tables still hold.
    assert.deepEqual(freshRows(store.db), ['per_year_grants']);
    assert.deepEqual(answer(store, CITATIONS), { '2019': 0, '2020': 1, '2021': 2, '2022': 2 });
    assert.deepEqual(answer(store, CITED_BY_2021), { '2019': 0, '2020': 0, '2021': 1, '2022': 1 });
    store.finish({ optimize: false, analyze: false });
    assert.deepEqual(freshRows(store.db), ['per_year_grants', 'per_year_publications']);
    assert.deepEqual(answer(store, CITATIONS), { '2019': 0, '2020': 1, '2021': 2, '2022': 2 });

    assert.equal(store.remove('publications', ['pub.3']), 1);
    assert.deepEqual(freshRows(store.db), ['per_year_grants']);
    assert.deepEqual(answer(store, CITATIONS), { '2019': 0, '2020': 1, '2021': 0, '2022': 2 });

    store.upsert('grants', [{ ...GRANTS[1], funding_usd: 300 }]);
    assert.deepEqual(freshRows(store.db), []);
    assert.deepEqual(answer(store, FUNDING_USD), { '2012': 300, '2013': 300, '2014': 600, '2015': 0 });
    store.close();
  });

  test('a database made before the per-year tables gets them built when it is upgraded', () => {
    const path = freshPath();
    const store = loaded(path);
    store.finish({ optimize: false, analyze: false });
    store.close();
    // Back to version 3: no per-year tables (version 5 keeps the dictionaries it finds).
    const db = new Database(path);
    db.exec(`DROP TABLE publication_citations_by_year; DROP TABLE citations_by_year;
      DROP TABLE grant_funding_years; DROP TABLE funding_by_year;
      DELETE FROM store_meta WHERE key LIKE 'per_year_%';
      DELETE FROM schema_migrations WHERE migration_set = 'records' AND version >= 4`);
    db.close();
    // Versions 5 to 8 run again after it, leaving what they made as it was.
    assert.deepEqual(upgradeRecordDatabase(path), sqliteRecordVersionsFrom(4));
    const upgraded = openRecordStore(path, options);
    assert.deepEqual(freshRows(upgraded.db), ['per_year_grants', 'per_year_publications']);
    assert.equal(upgraded.db.prepare('SELECT count(*) FROM publication_citations_by_year').pluck().get(), 3);
    assert.deepEqual(answer(upgraded, CITATIONS), { '2019': 0, '2020': 1, '2021': 2, '2022': 0 });
    assert.deepEqual(answer(upgraded, FUNDING_USD), { '2012': 300, '2013': 300, '2014': 400, '2015': 0 });
    upgraded.close();
  });
});

describe('the one pass over the references', () => {
  test('reads the citing publications first and their references by primary key, even before any ANALYZE', () => {
    // A bulk load runs it before statistics exist; reading the references by cited id and
    // looking each citing row up at random took 76–96 s at 1M instead of about 16 s.
    const store = openRecordStore(freshPath(), { ...options, bulk: true });
    store.upsert('publications', PUBLICATIONS);
    const statistics = store.db.prepare('SELECT count(*) FROM sqlite_stat1').pluck().get() as number;
    assert.equal(statistics, 0, 'no statistics yet');
    const plan = (store.db.prepare(`EXPLAIN QUERY PLAN ${CITING_YEARS_SELECT}`).all() as Array<{ detail: string }>).map(
      (step) => step.detail,
    );
    // The grouping (a co-routine) scans the citing publications first; the cited ids are
    // named after it, by their vocabulary key.
    const scans = plan.filter((step) => /^(SCAN|SEARCH)/.test(step));
    assert.match(scans[0] ?? '', /^SCAN c\b/, plan.join(' | '));
    assert.ok(
      plan.some((step) => /^SEARCH v USING INTEGER PRIMARY KEY/.test(step)),
      plan.join(' | '),
    );
    // Each citing publication's references: its list by record, by the list table's rowid
    // (the view `publication_references` flattened).
    assert.ok(
      plan.some((step) => /^SEARCH l USING INTEGER PRIMARY KEY \(rowid=\?\)/.test(step)),
      plan.join(' | '),
    );
    store.close();
  });
});
