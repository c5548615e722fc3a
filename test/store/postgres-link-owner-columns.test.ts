// Link tables that carry a column of their owner, in PostgreSQL as in SQLite: every
// `publication_research_orgs` row holds its publication's year after a batch, after the
// batch is written again with another year, after finish(), and in a database loaded before
// the column existed (records migration 4 fills it and builds the index).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { migratePostgres } from '../../src/store/postgres/migrate.ts';
import { RECORD_PG_MIGRATIONS } from '../../src/store/postgres/records-schema.ts';
import { openPgRecordWriter } from '../../src/store/postgres/records-writer.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../fixtures/pg-db.ts';
import { ORGS, PUBLICATIONS } from '../engine/fixtures/tiny-db.ts';

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Link rows whose year differs from their publication's (none when kept in step). */
const STALE = `SELECT l.publication_pk, l.org_id FROM publication_research_orgs l JOIN publications p ON p.pk = l.publication_pk
  WHERE l.year IS DISTINCT FROM p.year`;
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
      const [linked] = await query<{ n: number }>(db.url, LINKS);
      assert.ok((linked?.n ?? 0) > 0, 'organization links carry years');
      assert.deepEqual(await query(db.url, STALE), []);
      await writer.writeBatch('publications', [{ ...first, year: 1999 }]);
      const moved = await query<{ year: number }>(
        db.url,
        `SELECT DISTINCT l.year::int AS year FROM publication_research_orgs l JOIN publications p ON p.pk = l.publication_pk WHERE p.id = '${first.id}'`,
      );
      assert.deepEqual(moved, [{ year: 1999 }]);
      await writer.finish();
      assert.deepEqual(await query(db.url, STALE), []);
    } finally {
      await writer.close();
    }
    const [before] = await query<{ n: number }>(db.url, LINKS);
    // A database loaded before the carried year: migration 4 adds and fills it (5 runs again, a no-op).
    await query(
      db.url,
      'DROP INDEX publication_research_orgs_by_org_id_year; ALTER TABLE publication_research_orgs DROP COLUMN year',
    );
    await query(db.url, "DELETE FROM schema_migrations WHERE migration_set = 'records' AND version >= 4");
    const pool = new pg.Pool({ connectionString: db.url });
    try {
      const steps = await migratePostgres(pool, { sets: [], code: { records: RECORD_PG_MIGRATIONS } });
      assert.deepEqual(
        steps.map((s) => `${s.set} ${s.version}`),
        ['records 4', 'records 5', 'records 6'],
      );
    } finally {
      await pool.end();
    }
    assert.deepEqual(await query(db.url, STALE), []);
    assert.deepEqual(await query(db.url, LINKS), [before]);
    const indexes = await query<{ indexname: string }>(
      db.url,
      "SELECT indexname FROM pg_indexes WHERE tablename = 'publication_research_orgs' AND indexname = 'publication_research_orgs_by_org_id_year'",
    );
    assert.equal(indexes.length, 1);
  });
});
