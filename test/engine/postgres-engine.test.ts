// The PostgreSQL engine's limits: a query past its time limit is cancelled on the server
// (the backend stops running it), a caller's abort cancels it too, the connection goes back
// to the pool either way, and other queries are answered meanwhile.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { QuarryError } from '../../src/errors/index.ts';
import { migratePostgres } from '../../src/store/postgres/migrate.ts';
import { openPgPool } from '../../src/store/postgres/pool.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../fixtures/pg-db.ts';

const ROWS = 420_000;
// A filter no index helps with: every row's doi is scanned with several patterns.
const SLOW = `search publications where ${Array.from({ length: 10 }, (_v, i) => `doi ~ "zq${i}"`).join(' or ')} return type`;
const FAST = 'search publications where year = 2000 return publications[id] limit 1';

describe('createPostgresEngine', () => {
  let db: TestPgDatabase;
  let engine: QueryEngine;
  let watcher: pg.Client;
  /** How long SLOW runs when nothing stops it (measured below). */
  let slowMs = 0;
  /**
   * Statements over the records that the engine's connections are still running, polled for
   * up to two seconds (a closed connection's backend takes a moment to go).
   */
  const running = async (): Promise<number> => {
    let n = 0;
    for (let k = 0; k < 40; k++) {
      n = Number(
        (
          await watcher.query<{ n: string }>(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'quarry query'
               AND state = 'active' AND query LIKE '%FROM "publications"%'`,
            [db.name],
          )
        ).rows[0]?.n,
      );
      if (n === 0) return 0;
      await new Promise((r) => setTimeout(r, 50));
    }
    return n;
  };

  before(async () => {
    db = await createTestPgDatabase('engine');
    const pool = openPgPool(db.url);
    await migratePostgres(pool, { sets: ['records'] });
    await pool.query(`INSERT INTO publications (id, year, type, doi, issue)
      SELECT 'pub.19' || lpad(i::text, 8, '0'), 1995 + i % 30, 'article', '10.99999/syn.' || lpad(i::text, 8, '0') || '-' || to_hex(i::bigint * 7919), (i % 97)::text
      FROM generate_series(1, ${ROWS}) i`);
    await pool.query('ANALYZE');
    await pool.end();
    engine = createPostgresEngine({ url: db.url, connections: 3, timeoutMs: 60_000 });
    watcher = new pg.Client({ connectionString: db.url });
    await watcher.connect();
  });
  after(async () => {
    await engine.close();
    await watcher.end();
    await db.drop();
  });

  test('is ready and answers', async () => {
    assert.equal(await engine.ready(), true);
    const { result } = await engine.run(FAST, { dslVersion: 2 });
    assert.equal((result._stats as { total_count: number }).total_count, ROWS / 30);
  });

  test('other queries are answered while one is slow', async () => {
    let slowDone = false;
    const started = Date.now();
    const slow = engine.run(SLOW, { dslVersion: 2 }).finally(() => {
      slowDone = true;
      slowMs = Date.now() - started;
    });
    const t0 = Date.now();
    for (let i = 0; i < 5; i++) await engine.run(FAST, { dslVersion: 2 });
    const fastMs = Date.now() - t0;
    const answeredWhileSlowRan = !slowDone;
    await slow;
    assert.ok(answeredWhileSlowRan || fastMs < 2_000, `5 fast queries took ${fastMs} ms`);
  });

  test('a query past its time limit is cancelled on the server and frees its connection', async () => {
    const t0 = Date.now();
    await assert.rejects(engine.run(SLOW, { dslVersion: 2, timeoutMs: 20 }), (e: unknown) => {
      assert.ok(e instanceof QuarryError);
      assert.equal(e.code, 'ENGINE_TIMEOUT');
      assert.match(e.message, /20 ms/);
      return true;
    });
    const cancelledAfter = Date.now() - t0;
    assert.ok(cancelledAfter < slowMs / 2, `cancelled after ${cancelledAfter} ms; the query runs ${slowMs} ms`);
    assert.equal(await running(), 0, 'the server runs nothing for the engine any more');
    // all three connections can be taken at once again: none is held by the cancelled query
    await Promise.all([1, 2, 3].map(() => engine.run(FAST, { dslVersion: 2 })));
  });

  test("the caller's abort cancels the statement too", async () => {
    const controller = new AbortController();
    const slow = engine.run(SLOW, { dslVersion: 2, signal: controller.signal });
    await new Promise((r) => setTimeout(r, 30));
    controller.abort(new Error('client went away'));
    await assert.rejects(slow, (e: unknown) => e instanceof QuarryError && e.code === 'ENGINE_CANCELLED');
    assert.equal(await running(), 0);
  });

  test('an unreachable server is a coded error, not a crash', async () => {
    const gone = createPostgresEngine({ url: 'postgres://postgres@127.0.0.1:1/none' });
    try {
      assert.equal(await gone.ready(), false);
      await assert.rejects(
        gone.run(FAST, { dslVersion: 2 }),
        (e: unknown) => e instanceof QuarryError && e.code === 'ENGINE_DATABASE_UNAVAILABLE',
      );
    } finally {
      await gone.close();
    }
  });
});
