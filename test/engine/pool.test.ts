import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { QuarryError } from '../../src/errors/index.ts';
import { WorkerPool } from '../../src/engine/pool.ts';
import type { BusyTask } from './fixtures/busy-worker.ts';

describe('WorkerPool', () => {
  const pool = new WorkerPool<BusyTask, string>({
    filename: new URL('./fixtures/busy-worker.ts', import.meta.url),
    workers: 2,
  });
  after(() => pool.close());

  test('runs tasks in a worker', async () => {
    assert.equal(await pool.run({ kind: 'echo', value: 'hi' }), 'hi');
  });

  test('rebuilds QuarryErrors from the worker', async () => {
    await assert.rejects(
      pool.run({ kind: 'fail' }),
      (e: unknown) => e instanceof QuarryError && e.code === 'ENGINE_DATABASE_UNAVAILABLE',
    );
  });

  test('other failures are plain errors (internal)', async () => {
    await assert.rejects(
      pool.run({ kind: 'crash' }),
      (e: unknown) => !(e instanceof QuarryError) && /boom/.test(String(e)),
    );
  });

  test('a stuck task times out while other tasks are still answered', async () => {
    const started = Date.now();
    let stuckSettled = false;
    // The limit counts from when a worker starts the task; long enough that five answers
    // from the other worker come first even on a busy machine.
    const stuck = pool.run({ kind: 'block', ms: 60_000 }, { timeoutMs: 1500 });
    stuck.catch(() => undefined).finally(() => (stuckSettled = true));
    // the other worker keeps answering while one is blocked
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = Date.now();
      assert.equal(await pool.run({ kind: 'echo', value: String(i) }), String(i));
      answers.push(Date.now() - t0);
    }
    assert.equal(stuckSettled, false, 'the other answers came while the stuck task was still running');
    await assert.rejects(stuck, (e: unknown) => {
      assert.ok(e instanceof QuarryError);
      assert.equal(e.code, 'ENGINE_TIMEOUT');
      assert.equal(e.category, 'timeout');
      assert.match(e.message, /1500 ms/);
      return true;
    });
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 5_000, `timeout took ${elapsed} ms`);
    // the terminated worker was replaced: both workers can block at once and still finish
    assert.deepEqual(await Promise.all([pool.run({ kind: 'block', ms: 50 }), pool.run({ kind: 'block', ms: 50 })]), [
      'done',
      'done',
    ]);
  });

  test('an aborted signal cancels a running task', async () => {
    const controller = new AbortController();
    const running = pool.run({ kind: 'block', ms: 60_000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('client went away')), 100);
    await assert.rejects(
      running,
      (e: unknown) => e instanceof QuarryError && e.code === 'ENGINE_CANCELLED' && /client went away/.test(e.message),
    );
    assert.equal(await pool.run({ kind: 'echo', value: 'still here' }), 'still here');
  });

  test('an already aborted signal never runs the task', async () => {
    await assert.rejects(
      pool.run({ kind: 'echo', value: 'x' }, { signal: AbortSignal.abort('gone') }),
      (e: unknown) => e instanceof QuarryError && e.code === 'ENGINE_CANCELLED',
    );
  });

  test('a closed pool refuses work', async () => {
    const other = new WorkerPool<BusyTask, string>({
      filename: new URL('./fixtures/busy-worker.ts', import.meta.url),
      workers: 1,
    });
    await other.close();
    await assert.rejects(
      other.run({ kind: 'echo', value: 'x' }),
      (e: unknown) => e instanceof QuarryError && e.code === 'ENGINE_CLOSED',
    );
  });

  test("a new worker's module loading does not count against the first task's time limit", async () => {
    // Loading the worker's modules through tsx takes far longer than 50 ms.
    const fresh = new WorkerPool<BusyTask, string>({
      filename: new URL('./fixtures/busy-worker.ts', import.meta.url),
      workers: 2,
      warmUpTask: { kind: 'echo', value: 'warm' } satisfies BusyTask,
    });
    try {
      assert.deepEqual(
        await Promise.all([
          fresh.run({ kind: 'echo', value: 'a' }, { timeoutMs: 50 }),
          fresh.run({ kind: 'echo', value: 'b' }, { timeoutMs: 50 }),
        ]),
        ['a', 'b'],
      );
      await fresh.warm();
    } finally {
      await fresh.close();
    }
  });

  test('after a burst of timeouts, the next tasks are not charged for the restarted workers', async () => {
    const burst = await Promise.allSettled([
      pool.run({ kind: 'block', ms: 60_000 }, { timeoutMs: 100 }),
      pool.run({ kind: 'block', ms: 60_000 }, { timeoutMs: 100 }),
    ]);
    assert.deepEqual(
      burst.map((r) => r.status === 'rejected' && (r.reason as QuarryError).code),
      ['ENGINE_TIMEOUT', 'ENGINE_TIMEOUT'],
    );
    // Both workers are restarting now (loading modules takes longer than 100 ms: about
    // 200 ms on a quiet machine, more under load); the limit counts from when a worker
    // starts each task, so these still succeed.
    const waits: number[] = [];
    const answers = await Promise.all(
      ['a', 'b', 'c'].map((value) =>
        pool.run({ kind: 'echo', value }, { timeoutMs: 100, onStarted: (ms) => waits.push(ms) }),
      ),
    );
    assert.deepEqual(answers, ['a', 'b', 'c']);
    assert.equal(waits.length, 3);
    assert.ok(Math.max(...waits) > 100, `the tasks waited up to ${Math.max(...waits).toFixed(0)} ms for a worker`);
    assert.deepEqual(pool.load(), { queued: 0, active: 0, workers: 2 });
  });
});

test('a TypeScript worker starts when the process runs from outside the project (tsx found by address)', async () => {
  const home = process.cwd();
  const outside = mkdtempSync(join(tmpdir(), 'quarry-outside-'));
  process.chdir(outside);
  const pool = new WorkerPool<BusyTask, string>({
    filename: new URL('./fixtures/busy-worker.ts', import.meta.url),
    workers: 1,
  });
  try {
    assert.equal(await pool.run({ kind: 'echo', value: 'from elsewhere' }), 'from elsewhere');
  } finally {
    process.chdir(home);
    await pool.close();
    rmSync(outside, { recursive: true, force: true });
  }
});
