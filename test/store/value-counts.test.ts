// The stored number of publications per year (`publication_year_counts`): finish() writes it
// from the records, it agrees with grouping the records, and records migration 8 fills it in
// a database made before it. A whole-corpus `return year` facet answers from it.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { runQuery } from '../../src/engine/backends/sqlite/query-context.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { openRecordStore, upgradeRecordDatabase } from '../../src/store/sqlite/records-store.ts';
import { sqliteRecordVersionsFrom } from '../fixtures/record-versions.ts';

const dir = mkdtempSync(join(tmpdir(), 'quarry-value-counts-'));
let n = 0;
const freshPath = (): string => join(dir, `t${++n}.db`);

const pub = (id: string, year: number | null) => ({ id, title: `Title of ${id}`, year });
const PUBLICATIONS = [pub('pub.1', 2020), pub('pub.2', 2020), pub('pub.3', 2019), pub('pub.4', null)];

const stored = (db: Database.Database): unknown[] =>
  db.prepare('SELECT year, n FROM publication_year_counts ORDER BY year').all();
const grouped = (db: Database.Database): unknown[] =>
  db.prepare('SELECT year, count(*) AS n FROM publications WHERE year IS NOT NULL GROUP BY year ORDER BY year').all();

describe('value counts', () => {
  test('finish() writes the publications per year, and the year facet over the whole corpus reads them', () => {
    const path = freshPath();
    const store = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
    store.upsert('publications', PUBLICATIONS);
    store.finish({ optimize: false, analyze: false });
    assert.deepEqual(stored(store.db), [
      { year: 2019, n: 1 },
      { year: 2020, n: 2 },
    ]);
    // A re-import moves a publication to another year: the next finish() follows.
    store.upsert('publications', [pub('pub.2', 2021)]);
    store.finish({ optimize: false, analyze: false });
    assert.deepEqual(stored(store.db), grouped(store.db));
    store.close();
    const db = openReadOnly(path);
    assert.deepEqual(runQuery(db, 'search publications return year', { dslVersion: 2 }).year, [
      { id: 2019, count: 1 },
      { id: 2020, count: 1 },
      { id: 2021, count: 1 },
    ]);
    db.close();
  });

  test('a database made before the value counts gets them filled when it is upgraded', () => {
    const path = freshPath();
    const store = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
    store.upsert('publications', PUBLICATIONS);
    store.finish({ optimize: false, analyze: false });
    store.close();
    const old = new Database(path);
    old.exec(
      "DROP TABLE publication_year_counts; DELETE FROM schema_migrations WHERE migration_set = 'records' AND version >= 8",
    );
    old.close();
    assert.deepEqual(upgradeRecordDatabase(path), sqliteRecordVersionsFrom(8));
    const upgraded = new Database(path, { readonly: true });
    assert.deepEqual(stored(upgraded), grouped(upgraded));
    assert.equal(stored(upgraded).length, 2);
    upgraded.close();
  });
});
