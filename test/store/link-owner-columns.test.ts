// Link tables that carry a column of their owner (`publication_research_orgs.year`): every
// link row holds its record's value after an upsert (bulk or not) and after a re-import that
// changes it, and records migration 6 fills them in a database made before it.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { openRecordStore, upgradeRecordDatabase } from '../../src/store/sqlite/records-store.ts';

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

/** The link rows whose year differs from their publication's (none when kept in step). */
const STALE =
  'SELECT l.publication_pk, l.org_id FROM publication_research_orgs l JOIN publications p ON p.pk = l.publication_pk WHERE l.year IS NOT p.year';

const years = (db: Database.Database): unknown[] =>
  db.prepare('SELECT org_id, year FROM publication_research_orgs ORDER BY org_id, year').all();

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
      store.close();
    });
  }

  test('a database made before the carried year gets it filled, and its index, when it is upgraded', () => {
    const path = freshPath();
    const store = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
    store.upsert('publications', [pub('pub.1', 2020, ['grid.1', 'grid.2']), pub('pub.2', 2011, ['grid.1'])]);
    store.close();
    // Back to version 5: no year on the links, no index (version 7 runs again after it, a no-op).
    const db = new Database(path);
    db.exec(
      "DROP INDEX publication_research_orgs_by_org_id_year; ALTER TABLE publication_research_orgs DROP COLUMN year; DELETE FROM schema_migrations WHERE migration_set = 'records' AND version >= 6",
    );
    db.close();
    assert.deepEqual(upgradeRecordDatabase(path), [6, 7, 8]);
    const upgraded = new Database(path, { readonly: true });
    assert.deepEqual(years(upgraded), [
      { org_id: 'grid.1', year: 2011 },
      { org_id: 'grid.1', year: 2020 },
      { org_id: 'grid.2', year: 2020 },
    ]);
    const plan = upgraded
      .prepare(
        "EXPLAIN QUERY PLAN SELECT publication_pk FROM publication_research_orgs WHERE org_id = 'grid.1' AND year = 2020",
      )
      .all() as Array<{ detail: string }>;
    assert.ok(
      plan.some((step) => step.detail.includes('publication_research_orgs_by_org_id_year (org_id=? AND year=?)')),
      plan.map((step) => step.detail).join(' | '),
    );
    upgraded.close();
  });
});
