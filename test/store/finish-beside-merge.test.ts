// finish() merges the full-text index on a second connection, in a worker thread, while its
// own thread turns the lists by record around and counts the citations in memory: what it
// writes must be what the one-thread steps write (src/store/sqlite/full-text-merge.ts, derive.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { FULLTEXT_TABLES, fullTextTables, listedLinks, postingLinks } from '../../src/model/storage.ts';
import { batchedInsert, ROWS_PER_STATEMENT } from '../../src/store/sqlite/batched-insert.ts';
import { startFullTextMerge } from '../../src/store/sqlite/full-text-merge.ts';
import { refreshCitationsGrouped } from '../../src/store/sqlite/per-year-tables.ts';
import {
  decodePostings,
  listsTurnedAround,
  rebuildPostings,
  turnedEntries,
} from '../../src/store/sqlite/posting-lists.ts';
import { openRecordStore, type RecordStore } from '../../src/store/sqlite/records-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'quarry-finish-merge-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshPath = (): string => join(dir, `t${++n}.db`);

const WORDS = ['graphene', 'battery', 'protein', 'climate', 'neuron'];

/** 300 publications: titles from WORDS, references to earlier ones, concepts, years 2000-2019. */
function publications(): object[] {
  return Array.from({ length: 300 }, (_, k) => ({
    id: `pub.${k}`,
    title: `${WORDS[k % 5]} study ${k}`,
    type: 'article',
    year: 2000 + (k % 20),
    date: `${2000 + (k % 20)}-03-01`,
    reference_ids: Array.from({ length: k % 7 }, (_, j) => `pub.${(k * 13 + j * 29) % 300}`),
    concepts: [`concept ${k % 11}`, `concept ${k % 4}`],
  }));
}

function allLists(db: Database.Database): Record<string, unknown[]> {
  return Object.fromEntries(
    postingLinks().map((link) => [
      link.postings.table,
      db
        .prepare(`SELECT * FROM ${link.postings.table} ORDER BY 1`)
        .raw()
        .all()
        .map((row) => {
          const [value, list] = row as [unknown, Buffer];
          return [value, decodePostings(list)];
        }),
    ]),
  );
}

const citationTables = (db: Database.Database): unknown => ({
  byRecord: db.prepare('SELECT * FROM publication_citations_by_year ORDER BY 1, 2').all(),
  corpus: db.prepare('SELECT * FROM citations_by_year ORDER BY 1').all(),
  counts: db.prepare('SELECT pk, times_cited, recent_citations FROM publications ORDER BY pk').all(),
});

/** The link tables kept as lists by record of the sources `bulkLoaded` writes (another source's lists are empty). */
const loadedListedLinks = (): ReturnType<typeof listedLinks> =>
  listedLinks().filter((l) => l.owner === 'publications' || l.owner === 'grants');

function bulkLoaded(): RecordStore {
  const store = openRecordStore(freshPath(), { bulk: true, mmapMb: 0, cacheMb: 16 });
  store.upsert('publications', publications());
  store.upsert(
    'grants',
    Array.from({ length: 20 }, (_, k) => ({ id: `grant.${k}`, title: `Grant ${k}`, concepts: [`concept ${k % 6}`] })),
  );
  return store;
}

describe('finish() beside the full-text merge', () => {
  test('a bulk load is merged in a worker thread, and the lists, citations and index are those of the one-thread steps', () => {
    const store = bulkLoaded();
    const report = store.finish({ recentSince: 2018 });
    const steps = report.steps.map((s) => s.step);
    assert.deepEqual(report.merge, { on: 'worker' });
    assert.ok(steps.indexOf('full-text merge') < steps.indexOf('posting lists written'), steps.join(', '));
    const db = store.db;

    // The index the worker merged answers, and holds together.
    const matching = db
      .prepare(
        "SELECT p.id FROM publications_fts f JOIN publications p ON p.pk = f.rowid WHERE f.publications_fts MATCH 'graphene'",
      )
      .pluck()
      .all() as string[];
    assert.equal(matching.length, 60);
    assert.ok(matching.every((id) => Number(id.slice(4)) % 5 === 0));
    db.exec("INSERT INTO publications_fts (publications_fts) VALUES ('integrity-check')");

    // The lists turned around in memory and written after the merge, against a rebuild from the links.
    const written = allLists(db);
    for (const link of loadedListedLinks()) assert.ok(written[link.postings!.table]!.length > 0, link.table);
    rebuildPostings(db);
    assert.deepEqual(allLists(db), written);

    // The citations counted from those lists, against SQLite's grouped pass.
    const counted = citationTables(db);
    db.exec('DELETE FROM publication_citations_by_year; DELETE FROM citations_by_year');
    db.exec('UPDATE publications SET times_cited = NULL, recent_citations = NULL');
    refreshCitationsGrouped(db, 2018);
    assert.deepEqual(citationTables(db), counted);
    store.close();
  });

  test('lists that do not fit the budget in one range are not turned around in memory', () => {
    const store = bulkLoaded();
    store.finish({ optimize: false, analyze: false });
    const references = listedLinks().find((l) => l.table === 'publication_references')!;
    const link = { ...references, postings: references.postings!, listed: references.listed };
    assert.equal(listsTurnedAround(store.db, link, 5), undefined);
    const turned = listsTurnedAround(store.db, link);
    assert.ok(turned !== undefined);
    assert.deepEqual(
      [...turnedEntries(turned)].map(([value, list]) => [value, decodePostings(list)]),
      allLists(store.db)[link.postings.table],
    );
    store.close();
  });

  test('past its in-memory budget, finish() turns the lists around range by range after the merge and groups the citations in SQLite, with the same results', () => {
    const inMemory = bulkLoaded();
    const inMemoryReport = inMemory.finish({ recentSince: 2018 });
    assert.deepEqual(
      [...inMemoryReport.turnedInMemory].sort(),
      listedLinks()
        .map((l) => l.table)
        .sort(),
    );
    assert.equal(inMemoryReport.citations, 'counted');

    const bySqlite = bulkLoaded();
    const bySqliteReport = bySqlite.finish({ recentSince: 2018, inMemoryEntries: 5 });
    // Empty lists fit any budget: only those of the loaded sources are past it.
    assert.deepEqual(
      bySqliteReport.turnedInMemory.filter((table) => loadedListedLinks().some((l) => l.table === table)),
      [],
    );
    assert.equal(bySqliteReport.citations, 'grouped');
    assert.deepEqual(bySqliteReport.merge, { on: 'worker' });

    const lists = allLists(bySqlite.db);
    for (const link of loadedListedLinks()) assert.ok(lists[link.postings!.table]!.length > 0, link.table);
    assert.deepEqual(lists, allLists(inMemory.db));
    assert.deepEqual(citationTables(bySqlite.db), citationTables(inMemory.db));
    inMemory.close();
    bySqlite.close();
  });

  test('without WAL, or inside a transaction, the merge runs on this connection', () => {
    const db = new Database(':memory:');
    db.exec(
      "CREATE VIRTUAL TABLE publications_fts USING fts5(title, abstract, acknowledgements, concepts, authors, content='')",
    );
    for (const name of FULLTEXT_TABLES.flatMap(fullTextTables)
      .map((f) => f.table)
      .filter((t) => t !== 'publications_fts'))
      db.exec(`CREATE VIRTUAL TABLE ${name} USING fts5(a, b, c, d, content='')`);
    db.prepare('INSERT INTO publications_fts (rowid, title) VALUES (1, ?)').run('graphene');
    assert.deepEqual(startFullTextMerge(db, { cacheKib: 1024 }).wait(), { on: 'this connection' });
    db.close();

    const store = bulkLoaded();
    store.transaction(() => {
      assert.deepEqual(startFullTextMerge(store.db, { cacheKib: 1024 }).wait(), { on: 'this connection' });
    });
    store.close();
  });

  test('a merge thread that has not started when wait() stops waiting for it leaves the database alone', async () => {
    const store = bulkLoaded();
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    // A thread takes milliseconds to start: waiting 0 ms for it gives up before it has.
    const outcome = startFullTextMerge(store.db, { cacheKib: 1024, startTimeoutMs: 0 }).wait();
    assert.deepEqual(outcome, {
      on: 'this connection',
      workerError: 'the merge thread did not start within 0 ms',
    });
    // A new segment, which a late merge by the thread would merge (and commit).
    store.upsert('publications', [{ id: 'pub.late', title: 'graphene late', type: 'article', year: 2020 }]);
    const written = store.db.pragma('data_version', { simple: true });
    // Time for the thread to start, find the merge taken, and end.
    await new Promise((resolve) => setTimeout(resolve, 500));
    // data_version moves when another connection commits to the file: the thread did not.
    assert.equal(store.db.pragma('data_version', { simple: true }), written);
    store.db.exec("INSERT INTO publications_fts (publications_fts) VALUES ('integrity-check')");
    const matching = store.db
      .prepare("SELECT count(*) FROM publications_fts WHERE publications_fts MATCH 'graphene'")
      .pluck()
      .get();
    assert.equal(matching, 61);
    store.close();
  });

  test('rows are written many a statement, the last statement taking the rest', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (a INTEGER, b BLOB)');
    const insert = batchedInsert(db, 't', ['a', 'b']);
    const rows = ROWS_PER_STATEMENT * 2 + 50;
    for (let k = 0; k < rows; k++) insert.add(k, Buffer.from([k % 256]));
    assert.equal(db.prepare('SELECT count(*) FROM t').pluck().get(), ROWS_PER_STATEMENT * 2);
    insert.flush();
    const read = db.prepare('SELECT a, b FROM t ORDER BY a').raw().all() as [number, Buffer][];
    assert.equal(read.length, rows);
    assert.ok(read.every(([a, b], k) => a === k && b[0] === k % 256 && b.length === 1));
    db.close();
  });
});
