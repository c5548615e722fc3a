// Link tables that carry columns of their owner, in PostgreSQL as in SQLite: every
// `publication_research_orgs` row holds its publication's year and date after a batch, after
// the batch is written again with another year, after finish(), and in a database loaded
// before the columns existed (records migrations 4 and 7 fill them and build the index).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openPgRecordWriter } from '../../src/store/postgres/records-writer.ts';
import { applyRecordMigrations, createTestPgDatabase, queryPg, type TestPgDatabase } from '../fixtures/pg-db.ts';
import { ORGS, PUBLICATIONS } from '../engine/fixtures/tiny-db.ts';
import { pgRecordVersionsFrom } from '../fixtures/record-versions.ts';

/** Link rows whose year or date differs from their publication's (none when kept in step). */
const STALE = `SELECT l.publication_pk, l.org_id FROM publication_research_orgs l JOIN publications p ON p.pk = l.publication_pk
  WHERE l.year IS DISTINCT FROM p.year OR l.date IS DISTINCT FROM p.date`;
const LINKS = 'SELECT count(*)::int AS n FROM publication_research_orgs WHERE year IS NOT NULL';

describe('PostgreSQL link rows carrying their owner year', { timeout: 120_000 }, () => {
  let db: TestPgDatabase;
  before(async () => {
    db = await createTestPgDatabase('owner_columns');
  });
  after(async () => {
    await db.drop();
  });

  test('the writer fills them, a rewrite follows the record, migration 4 fills an older database', async () => {
    const writer = await openPgRecordWriter(db.url);
    const first = PUBLICATIONS.find((p) => (p.authors ?? []).some((a) => (a.affiliations ?? []).length > 0));
    assert.ok(first !== undefined, 'the fixture has a publication with organizations');
    try {
      await writer.writeBatch('organizations', ORGS);
      await writer.writeBatch('publications', PUBLICATIONS);
      const [linked] = await queryPg<{ n: number }>(db.url, LINKS);
      assert.ok((linked?.n ?? 0) > 0, 'organization links carry years');
      assert.deepEqual(await queryPg(db.url, STALE), []);
      await writer.writeBatch('publications', [{ ...first, year: 1999 }]);
      const moved = await queryPg<{ year: number }>(
        db.url,
        `SELECT DISTINCT l.year::int AS year FROM publication_research_orgs l JOIN publications p ON p.pk = l.publication_pk WHERE p.id = '${first.id}'`,
      );
      assert.deepEqual(moved, [{ year: 1999 }]);
      await writer.finish();
      assert.deepEqual(await queryPg(db.url, STALE), []);
    } finally {
      await writer.close();
    }
    const [before] = await queryPg<{ n: number }>(db.url, LINKS);
    // A database loaded before the carried columns: migrations 4 and 7 add and fill them (5 and 6 run again, no-ops).
    await queryPg(
      db.url,
      'DROP INDEX publication_research_orgs_by_org_id_year_date; ALTER TABLE publication_research_orgs DROP COLUMN date; ALTER TABLE publication_research_orgs DROP COLUMN year',
    );
    await queryPg(db.url, "DELETE FROM schema_migrations WHERE migration_set = 'records' AND version >= 4");
    assert.deepEqual(await applyRecordMigrations(db.url), pgRecordVersionsFrom(4));
    assert.deepEqual(await queryPg(db.url, STALE), []);
    assert.deepEqual(await queryPg(db.url, LINKS), [before]);
    // Version 7's index replaces version 4's (its prefix serves every test the old one did).
    const indexes = await queryPg<{ indexname: string }>(
      db.url,
      "SELECT indexname FROM pg_indexes WHERE tablename = 'publication_research_orgs' AND indexname LIKE '%_by_org_id_year%' ORDER BY indexname",
    );
    assert.deepEqual(
      indexes.map((i) => i.indexname),
      ['publication_research_orgs_by_org_id_year_date'],
    );
  });
});
