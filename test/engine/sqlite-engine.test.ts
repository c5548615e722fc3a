// The SQLite engine end to end through its worker pool: time limits, cancellation, other
// queries answered while one is slow, errors reported before queueing, readiness, timings.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createSqliteEngine } from '../../src/engine/backends/sqlite/engine.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { QuarryError } from '../../src/errors/index.ts';
import { openRecordStore } from '../../src/store/sqlite/records-store.ts';

/** A database with many rows, so a substring filter over all of them takes a while. */
function bigDatabase(rows: number): string {
  const path = join(mkdtempSync(join(tmpdir(), 'quarry-big-')), 'big.db');
  const store = openRecordStore(path);
  store.db.exec(`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows})
    INSERT INTO publications (id, year, type, doi, issue, doc)
    SELECT printf('pub.19%08d', i), 1995 + i % 30, 'article', printf('10.99999/syn.%08d-%x', i, i * 7919), printf('%d', i % 97), '{}' FROM n`);
  store.close();
  return path;
}

// A filter no index helps with: every row's doi is scanned with several LIKE patterns.
const SLOW = `search publications where ${Array.from({ length: 10 }, (_v, i) => `doi ~ "zq${i}"`).join(' or ')} return type`;
const FAST = 'search publications where year = 2000 return publications[id] limit 1';

describe('createSqliteEngine', () => {
  let path: string;
  let engine: QueryEngine;
  before(() => {
    path = bigDatabase(300_000);
    engine = createSqliteEngine({ dbPath: path, workers: 2, timeoutMs: 60_000 });
  });
  after(() => engine.close());

  test('is ready and answers with timings', async () => {
    assert.equal(await engine.ready(), true);
    const { result, timings } = await engine.run(FAST, { dslVersion: 2 });
    assert.equal((result._stats as { total_count: number }).total_count, 300_000 / 30);
    assert.ok(timings.parseMs >= 0 && timings.executeMs > 0);
  });

  test('gives the result as JSON text too, and the same text for answers made without a worker', async () => {
    const ran = await engine.run(FAST, { dslVersion: 2 });
    assert.match(
      ran.json,
      /^\{"publications":\[\{"id":"pub\.19\d{8}"\}\],"_stats":\{"total_count":10000,"limit":1,"offset":0\}\}$/,
    );
    assert.deepEqual(JSON.parse(ran.json), ran.result);
    const described = await engine.run('describe version', { dslVersion: 2 });
    assert.deepEqual(JSON.parse(described.json), described.result);
  });

  test('a query over its time limit is cancelled with a timeout error that says how to narrow it', async () => {
    const t0 = Date.now();
    await assert.rejects(engine.run(SLOW, { dslVersion: 2, timeoutMs: 30 }), (e: unknown) => {
      assert.ok(e instanceof QuarryError);
      assert.equal(e.code, 'ENGINE_TIMEOUT');
      assert.match(e.message, /30 ms/);
      return true;
    });
    assert.ok(Date.now() - t0 < 5_000);
    // the worker was replaced: the engine still answers
    assert.equal((await engine.run(FAST, { dslVersion: 2 })).result._stats !== undefined, true);
  });

  test('other queries are answered while one is slow', async () => {
    // both workers started (a replaced worker takes a moment to load)
    await Promise.all([1, 2, 3, 4].map(() => engine.run(FAST, { dslVersion: 2 })));
    let slowDone = false;
    const slow = engine.run(SLOW, { dslVersion: 2 }).finally(() => (slowDone = true));
    const fastTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = Date.now();
      await engine.run(FAST, { dslVersion: 2 });
      fastTimes.push(Date.now() - t0);
    }
    const answeredWhileSlowRan = !slowDone;
    const { result } = await slow;
    assert.equal((result._stats as { total_count: number }).total_count, 0);
    assert.ok(answeredWhileSlowRan, `fast queries took ${fastTimes.join(', ')} ms but the slow one finished first`);
  });

  test('an aborted request cancels its query', async () => {
    const controller = new AbortController();
    const running = engine.run(SLOW, { dslVersion: 2, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('client closed the connection')), 20);
    await assert.rejects(running, (e: unknown) => e instanceof QuarryError && e.code === 'ENGINE_CANCELLED');
  });

  test('query mistakes are reported without a worker', async () => {
    await assert.rejects(
      engine.run('search publications wher year = 1 return year', { dslVersion: 2 }),
      (e: unknown) => e instanceof QuarryError && e.category === 'syntax',
    );
  });

  test('a missing database file is a coded error', () => {
    assert.throws(
      () => createSqliteEngine({ dbPath: join(tmpdir(), 'no-such-quarry.db') }),
      (e: unknown) => e instanceof QuarryError && e.code === 'ENGINE_DATABASE_UNAVAILABLE',
    );
  });
});
