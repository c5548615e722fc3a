// The narrow side tables in PostgreSQL: each row is its record's columns and link counts,
// after a batch is written again, after a record is removed, after finish(), and in a
// database loaded before the tables existed (records migration 2 fills them).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openPgRecordWriter } from '../../src/store/postgres/records-writer.ts';
import { applyRecordMigrations, createTestPgDatabase, queryPg, type TestPgDatabase } from '../fixtures/pg-db.ts';
import { ORGS, PUBLICATIONS } from '../engine/fixtures/tiny-db.ts';

/** Rows of publications_narrow that differ from what the wide row and the link tables say. */
const STALE = `SELECT p.id FROM publications p LEFT JOIN publications_narrow n ON n.pk = p.pk
  WHERE n.pk IS NULL OR n.id IS DISTINCT FROM p.id OR n.year IS DISTINCT FROM p.year
     OR n.times_cited IS DISTINCT FROM p.times_cited
     OR n.n_researchers <> (SELECT count(*) FROM publication_researchers l WHERE l.publication_pk = p.pk)
     OR n.n_research_orgs <> (SELECT count(*) FROM publication_research_orgs l WHERE l.publication_pk = p.pk)
  UNION ALL SELECT n.id FROM publications_narrow n WHERE NOT EXISTS (SELECT 1 FROM publications p WHERE p.pk = n.pk)`;

describe('PostgreSQL narrow side tables', { timeout: 120_000 }, () => {
  let db: TestPgDatabase;
  before(async () => {
    db = await createTestPgDatabase('narrow');
  });
  after(async () => {
    await db.drop();
  });

  test('the writer keeps them in step; finish() and migration 2 rebuild them', async () => {
    const writer = await openPgRecordWriter(db.url);
    try {
      await writer.writeBatch('organizations', ORGS);
      await writer.writeBatch('publications', PUBLICATIONS);
      const counted = await queryPg<{ n: string }>(db.url, 'SELECT count(*) AS n FROM publications_narrow');
      assert.equal(Number(counted[0]?.n), PUBLICATIONS.length);
      assert.deepEqual(await queryPg(db.url, STALE), []);
      const first = PUBLICATIONS[0] as (typeof PUBLICATIONS)[number];
      // Written again with fewer authors and another year: its narrow row follows.
      await writer.writeBatch('publications', [{ ...first, year: 1999, authors: [] }]);
      const [row] = await queryPg<{ year: number; n_researchers: number }>(
        db.url,
        `SELECT year::int, n_researchers::int FROM publications_narrow WHERE id = '${first.id}'`,
      );
      assert.deepEqual(row, { year: 1999, n_researchers: 0 });
      assert.equal(await writer.remove('publications', [first.id]), 1);
      assert.deepEqual(await queryPg(db.url, `SELECT pk FROM publications_narrow WHERE id = '${first.id}'`), []);
      await writer.finish();
      assert.deepEqual(await queryPg(db.url, STALE), []);
    } finally {
      await writer.close();
    }
    // A database loaded before the narrow tables: migration 2 fills them from its records.
    await queryPg(db.url, 'DROP TABLE publications_narrow, grants_narrow');
    await queryPg(db.url, "DELETE FROM schema_migrations WHERE migration_set = 'records' AND version = 2");
    assert.deepEqual(await applyRecordMigrations(db.url), ['records 2']);
    assert.deepEqual(await queryPg(db.url, STALE), []);
    assert.equal(
      Number((await queryPg<{ n: string }>(db.url, 'SELECT count(*) AS n FROM publications_narrow'))[0]?.n),
      PUBLICATIONS.length - 1,
    );
  });
});
