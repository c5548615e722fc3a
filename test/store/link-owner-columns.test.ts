// Link tables that carry columns of their owner (`publication_research_orgs.year` and
// `.date`): every link row holds its record's values after an upsert (bulk or not) and after a
// re-import that changes them, and records migrations 6 (year) and 9 (date) fill them in a
// database made before them.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { openRecordStore, upgradeRecordDatabase } from '../../src/store/sqlite/records-store.ts';
import { sqliteRecordVersionsFrom } from '../fixtures/record-versions.ts';

const dir = mkdtempSync(join(tmpdir(), 'quarry-owner-columns-'));
let n = 0;
const freshPath = (): string => join(dir, `t${++n}.db`);

const pub = (id: string, year: number | null, orgs: readonly string[]) => ({
  id,
  title: `Title of ${id}`,
  year,
  date: year === null ? null : `${year}-03-01`,
  authors: [{ first_name: 'Ana', last_name: 'Silva', affiliations: orgs.map((org) => ({ id: org })) }],
});

/** The link rows whose year or date differs from their publication's (none when kept in step). */
const STALE =
  'SELECT l.publication_pk, l.org_id FROM publication_research_orgs l JOIN publications p ON p.pk = l.publication_pk WHERE l.year IS NOT p.year OR l.date IS NOT p.date';

const years = (db: Database.Database): unknown[] =>
  db.prepare('SELECT org_id, year FROM publication_research_orgs ORDER BY org_id, year').all();

const dates = (db: Database.Database): unknown[] =>
  db.prepare('SELECT org_id, date FROM publication_research_orgs ORDER BY org_id, date').all();

const indexesOf = (db: Database.Database): unknown[] =>
  db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'publication_research_orgs' ORDER BY name",
    )
    .pluck()
    .all();

/** The detail lines of SQLite's plan for `sql`. */
const planOf = (db: Database.Database, sql: string): string =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((step) => step.detail).join(' | ');

describe('link rows carrying their owner year', () => {
  for (const bulk of [false, true]) {
    test(`an upsert writes the year onto the organization links, a re-import rewrites it (bulk: ${bulk})`, () => {
      const store = openRecordStore(freshPath(), { bulk, mmapMb: 0, cacheMb: 16 });
      store.upsert('publications', [pub('pub.1', 2020, ['grid.1', 'grid.2']), pub('pub.2', null, ['grid.1'])]);
      assert.deepEqual(years(store.db), [
        { org_id: 'grid.1', year: null },
        { org_id: 'grid.1', year: 2020 },
        { org_id: 'grid.2', year: 2020 },
      ]);
      store.upsert('publications', [pub('pub.1', 2017, ['grid.2', 'grid.3'])]);
      assert.deepEqual(store.db.prepare(STALE).all(), []);
      store.finish({ optimize: false, analyze: false });
      assert.deepEqual(years(store.db), [
        { org_id: 'grid.1', year: null },
        { org_id: 'grid.2', year: 2017 },
        { org_id: 'grid.3', year: 2017 },
      ]);
      assert.deepEqual(dates(store.db), [
        { org_id: 'grid.1', date: null },
        { org_id: 'grid.2', date: '2017-03-01' },
        { org_id: 'grid.3', date: '2017-03-01' },
      ]);
      store.close();
    });
  }

  test('a database made before the carried year gets year and date filled, and their index, when it is upgraded', () => {
    const path = freshPath();
    const store = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
    store.upsert('publications', [pub('pub.1', 2020, ['grid.1', 'grid.2']), pub('pub.2', 2011, ['grid.1'])]);
    store.close();
    // Back to version 5: nothing carried, no index (versions 7 and 8 run again after 6, no-ops).
    const db = new Database(path);
    db.exec(
      "DROP INDEX publication_research_orgs_by_org_id_year_date; ALTER TABLE publication_research_orgs DROP COLUMN date; ALTER TABLE publication_research_orgs DROP COLUMN year; DELETE FROM schema_migrations WHERE migration_set = 'records' AND version >= 6",
    );
    db.close();
    assert.deepEqual(upgradeRecordDatabase(path), sqliteRecordVersionsFrom(6));
    const upgraded = new Database(path, { readonly: true });
    assert.deepEqual(years(upgraded), [
      { org_id: 'grid.1', year: 2011 },
      { org_id: 'grid.1', year: 2020 },
      { org_id: 'grid.2', year: 2020 },
    ]);
    assert.deepEqual(upgraded.prepare(STALE).all(), []);
    // Version 9's index replaces version 6's (its prefix serves every test the old one did).
    assert.deepEqual(indexesOf(upgraded), [
      'publication_research_orgs_by_org_id',
      'publication_research_orgs_by_org_id_year_date',
    ]);
    const plan = planOf(
      upgraded,
      "SELECT publication_pk FROM publication_research_orgs WHERE org_id = 'grid.1' AND year = 2020",
    );
    assert.ok(plan.includes('publication_research_orgs_by_org_id_year_date (org_id=? AND year=?)'), plan);
    upgraded.close();
  });

  test('a database at version 8 (the year alone) gets the date and the wider index from version 9', () => {
    const path = freshPath();
    const store = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
    store.upsert('publications', [pub('pub.1', 2020, ['grid.1', 'grid.2']), pub('pub.2', null, ['grid.1'])]);
    store.close();
    // As version 6 left it: the year, indexed (org_id, year), and no date.
    const db = new Database(path);
    db.exec(
      "DROP INDEX publication_research_orgs_by_org_id_year_date; ALTER TABLE publication_research_orgs DROP COLUMN date; CREATE INDEX publication_research_orgs_by_org_id_year ON publication_research_orgs (org_id, year); DELETE FROM schema_migrations WHERE migration_set = 'records' AND version >= 9",
    );
    db.close();
    assert.deepEqual(upgradeRecordDatabase(path), sqliteRecordVersionsFrom(9));
    const upgraded = new Database(path, { readonly: true });
    assert.deepEqual(dates(upgraded), [
      { org_id: 'grid.1', date: null },
      { org_id: 'grid.1', date: '2020-03-01' },
      { org_id: 'grid.2', date: '2020-03-01' },
    ]);
    assert.deepEqual(upgraded.prepare(STALE).all(), []);
    assert.deepEqual(indexesOf(upgraded), [
      'publication_research_orgs_by_org_id',
      'publication_research_orgs_by_org_id_year_date',
    ]);
    upgraded.close();
  });
});
