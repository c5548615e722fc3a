// The per-year tables in PostgreSQL, as in SQLite (per-year-tables.test.ts): finish() builds
// them and marks them fresh, a write of the source's records marks them stale and the
// engine answers by the direct SQL until the next finish(), and records migration 3 builds
// them for a database loaded before them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { openPgRecordWriter } from '../../src/store/postgres/records-writer.ts';
import { applyRecordMigrations, createTestPgDatabase, queryPg, type TestPgDatabase } from '../fixtures/pg-db.ts';
import { CITATIONS, FUNDING_CNY, FUNDING_USD, GRANTS, PUBLICATIONS, pub } from './fixtures/per-year-records.ts';

describe('per-year tables (PostgreSQL)', { timeout: 120_000 }, () => {
  let db: TestPgDatabase;
  let engine: QueryEngine;
  const answer = async (text: string): Promise<unknown> => {
    const { result } = await engine.run(text, { dslVersion: 2 });
    return (result as Record<string, unknown>)[text.includes('citations') ? 'citations_per_year' : 'funding_per_year'];
  };
  const freshRows = async (): Promise<string[]> =>
    (await queryPg<{ key: string }>(db.url, "SELECT key FROM store_meta WHERE key LIKE 'per_year_%' ORDER BY key")).map(
      (r) => r.key,
    );
  before(async () => {
    db = await createTestPgDatabase('per_year_store');
    engine = createPostgresEngine({ url: db.url });
  });
  after(async () => {
    await engine?.close();
    await db?.drop();
  });

  test('finish() builds them, a write marks its source stale, migration 3 builds them for an older database', async () => {
    const writer = await openPgRecordWriter(db.url);
    try {
      await writer.writeBatch('publications', PUBLICATIONS);
      await writer.writeBatch('grants', GRANTS);
      assert.deepEqual(await freshRows(), []);
      await writer.finish();
      assert.deepEqual(await freshRows(), ['per_year_grants', 'per_year_publications']);
      assert.deepEqual(await queryPg(db.url, 'SELECT year::int, citations::int FROM citations_by_year ORDER BY year'), [
        { year: 2020, citations: 1 },
        { year: 2021, citations: 2 },
      ]);
      assert.deepEqual(await answer(CITATIONS), { '2019': 0, '2020': 1, '2021': 2, '2022': 0 });
      assert.deepEqual(await answer(FUNDING_USD), { '2012': 300, '2013': 300, '2014': 400, '2015': 0 });
      assert.deepEqual(await answer(FUNDING_CNY), { '2012': 2000, '2013': 2000, '2014': 2700, '2015': 0 });

      await writer.writeBatch('publications', [pub('pub.4', 2022, ['pub.1', 'pub.2'])]);
      assert.deepEqual(await freshRows(), ['per_year_grants']);
      assert.deepEqual(await answer(CITATIONS), { '2019': 0, '2020': 1, '2021': 2, '2022': 2 });
      await writer.finish();
      assert.deepEqual(await answer(CITATIONS), { '2019': 0, '2020': 1, '2021': 2, '2022': 2 });

      assert.equal(await writer.remove('publications', ['pub.3']), 1);
      assert.deepEqual(await freshRows(), ['per_year_grants']);
      assert.deepEqual(await answer(CITATIONS), { '2019': 0, '2020': 1, '2021': 0, '2022': 2 });
      await writer.finish();
    } finally {
      await writer.close();
    }
    // A database loaded before the per-year tables: migration 3 builds them from its records.
    await queryPg(
      db.url,
      'DROP TABLE publication_citations_by_year, citations_by_year, grant_funding_years, funding_by_year',
    );
    await queryPg(db.url, "DELETE FROM store_meta WHERE key LIKE 'per_year_%'");
    await queryPg(db.url, "DELETE FROM schema_migrations WHERE migration_set = 'records' AND version = 3");
    assert.deepEqual(await applyRecordMigrations(db.url), ['records 3']);
    assert.deepEqual(await freshRows(), ['per_year_grants', 'per_year_publications']);
    assert.deepEqual(await answer(CITATIONS), { '2019': 0, '2020': 1, '2021': 0, '2022': 2 });
    assert.deepEqual(await answer(FUNDING_USD), { '2012': 300, '2013': 300, '2014': 400, '2015': 0 });
  });
});
