// A task is stopped without its worker being terminated inside zlib (Node 20 aborts the
// whole process when that happens: node_zlib.cc "close before init"). The worker's guarded
// calls refuse to start once the pool has raised STOP; the pool waits while one is running.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isQuarryError } from '../../src/errors/index.ts';
import { WorkerPool } from '../../src/engine/pool.ts';
import {
  newStopFlags,
  runWithStopFlags,
  stopAndWait,
  taskNativeGuard,
  TaskStopped,
} from '../../src/engine/stop-handshake.ts';
import type { InflateTask } from './fixtures/inflate-worker.ts';

const INSIDE = 1;

describe('stop handshake', () => {
  test('a guarded call runs until the pool raises STOP, then refuses to start', async () => {
    const flags = newStopFlags();
    const view = new Int32Array(flags);
    runWithStopFlags(flags, () => {
      taskNativeGuard.enter();
      assert.equal(Atomics.load(view, INSIDE), 1);
      taskNativeGuard.leave();
      assert.equal(Atomics.load(view, INSIDE), 0);
    });
    await stopAndWait(flags);
    runWithStopFlags(flags, () => {
      assert.throws(() => taskNativeGuard.enter(), TaskStopped);
      assert.equal(Atomics.load(view, INSIDE), 0, 'a refused call leaves INSIDE down');
    });
    // Outside a task the guard does nothing.
    taskNativeGuard.enter();
    taskNativeGuard.leave();
  });

  test('the pool waits while the worker is inside a guarded call, and no longer', async () => {
    const flags = newStopFlags();
    const view = new Int32Array(flags);
    Atomics.store(view, INSIDE, 1);
    setTimeout(() => Atomics.store(view, INSIDE, 0), 60);
    let started = performance.now();
    await stopAndWait(flags);
    assert.ok(performance.now() - started >= 50, 'waited for the call to end');

    const idle = newStopFlags();
    started = performance.now();
    await stopAndWait(idle);
    assert.ok(performance.now() - started < 50, 'no call running: no wait');

    const stuck = newStopFlags();
    Atomics.store(new Int32Array(stuck), INSIDE, 1);
    started = performance.now();
    await stopAndWait(stuck, 30);
    assert.ok(performance.now() - started < 1000, 'the wait is bounded');
  });

  test('stopping workers that inflate all the time: every task times out and the process lives on', async () => {
    const pool = new WorkerPool<InflateTask, string>({
      filename: new URL('./fixtures/inflate-worker.ts', import.meta.url),
      workers: 2,
    });
    try {
      assert.equal(await pool.run({ kind: 'inflate', ms: 5 }), 'done');
      for (let round = 0; round < 10; round++) {
        const outcomes = await Promise.allSettled(
          [3, 11, 23, 41].map((timeoutMs) => pool.run({ kind: 'inflate', ms: 60_000 }, { timeoutMs })),
        );
        for (const outcome of outcomes) {
          assert.equal(outcome.status, 'rejected');
          const error = outcome.reason as unknown;
          assert.ok(isQuarryError(error) && error.code === 'ENGINE_TIMEOUT', String(error));
        }
      }
      assert.equal(await pool.run({ kind: 'inflate', ms: 5 }), 'done', 'the pool still answers');
    } finally {
      await pool.close();
    }
  });
});
