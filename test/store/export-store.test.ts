// The export job store's contract on both engines: rows round-trip, updates guarded by
// state (so a cancel and the runner cannot both decide a job's end), the per-account count
// of active jobs, and what retention finds.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import type { ExportJob, ExportJobStore } from '../../src/store/exports.ts';
import { postgresExportStore } from '../../src/store/postgres/export-store.ts';
import { migratePostgres } from '../../src/store/postgres/migrate.ts';
import { openSqliteExportStore } from '../../src/store/sqlite/export-store.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../fixtures/pg-db.ts';

const job = (id: string, over: Partial<ExportJob> = {}): ExportJob => ({
  id,
  accountId: 7,
  query: 'search publications return publications',
  dslVersion: 2,
  sources: ['publications'],
  format: 'csv',
  state: 'queued',
  records: 0,
  total: null,
  lastKey: null,
  bytes: 0,
  columns: null,
  epoch: null,
  createdAt: 1000,
  startedAt: null,
  finishedAt: null,
  error: null,
  ...over,
});

function contract(name: string, open: () => Promise<{ store: ExportJobStore; close(): Promise<void> }>): void {
  describe(`export job store: ${name}`, () => {
    let store: ExportJobStore;
    let opened: { store: ExportJobStore; close(): Promise<void> };
    before(async () => {
      opened = await open();
      store = opened.store;
    });
    after(() => opened.close());

    test('a job reads back as written, and progress updates it', async () => {
      await store.insert(job('a'.repeat(32)));
      assert.deepEqual(await store.get('a'.repeat(32)), job('a'.repeat(32)));
      assert.equal(
        await store.update('a'.repeat(32), { state: 'running', startedAt: 2000, epoch: 'e1' }, ['queued']),
        true,
      );
      const progress = {
        records: 3_000_000_000,
        lastKey: 'pub.9',
        bytes: 5_000_000_000,
        columns: ['id', 'year'],
        total: 4_000_000_000,
      };
      assert.equal(await store.update('a'.repeat(32), progress, ['running']), true);
      assert.deepEqual(
        await store.get('a'.repeat(32)),
        job('a'.repeat(32), { state: 'running', startedAt: 2000, epoch: 'e1', ...progress }),
      );
      assert.equal(await store.get('b'.repeat(32)), undefined);
    });

    test('an update from a state the job is not in changes nothing', async () => {
      await store.insert(job('c'.repeat(32)));
      assert.equal(await store.update('c'.repeat(32), { state: 'done' }, ['running']), false);
      assert.equal((await store.get('c'.repeat(32)))?.state, 'queued');
    });

    test('active jobs are counted per account; finished ones are found for retention, then removed', async () => {
      await store.insert(job('d'.repeat(32), { accountId: 8, state: 'done', finishedAt: 5000 }));
      await store.insert(job('e'.repeat(32), { accountId: 8, state: 'failed', finishedAt: 9000 }));
      assert.equal(await store.activeCount(7), 2);
      assert.equal(await store.activeCount(8), 0);
      assert.deepEqual(
        (await store.inStates(['queued'])).map((j) => j.id),
        ['c'.repeat(32)],
      );
      assert.deepEqual(
        (await store.finishedBefore(6000)).map((j) => j.id),
        ['d'.repeat(32)],
      );
      await store.remove('d'.repeat(32));
      assert.equal(await store.get('d'.repeat(32)), undefined);
    });
  });
}

contract('SQLite', () => {
  const store = openSqliteExportStore(':memory:');
  return Promise.resolve({ store, close: () => store.close() });
});

contract('PostgreSQL', async () => {
  const database: TestPgDatabase = await createTestPgDatabase('export_jobs');
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  await migratePostgres(pool, { sets: ['exports'] });
  return {
    store: postgresExportStore(pool),
    async close() {
      await pool.end();
      await database.drop();
    },
  };
});
