import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FairPool } from '../../src/engine/fair-pool.ts';
import { WorkerPool } from '../../src/engine/pool.ts';
import { isQuarryError } from '../../src/errors/index.ts';
import type { BusyTask } from './fixtures/busy-worker.ts';
import { measureFairLoad } from './helpers/fair-load.ts';

// Issue 12, "Must show": four principals send expensive queries continuously while a fifth
// sends cheap ones; no cheap query fails, the cheap class's p50 under load stays under
// 10 × its idle p50 + 50 ms and its p99 under its idle p99 + 10 × its idle p50 + 50 ms, the
// idle figures measured in the same test (the machine is shared, so a fixed figure would
// measure the neighbours; helpers/fair-load.ts says why the idle p99 is in the bound). The queries here are fixture tasks of
// known cost run through the real scheduler and worker pool: a fixed amount of CPU work,
// ~1.5 ms of one core for a cheap one and ~250 ms for an expensive one on a quiet machine
// (a long synchronous SQLite statement holds its worker the same way), so the outcome
// depends on the scheduling, not on what the data costs today. Both take longer when the
// neighbours take the CPU, and so does the idle p50 the bound is made from.
const WORKER = new URL('./fixtures/busy-worker.ts', import.meta.url);
const TASKS: Readonly<Record<'cheap' | 'expensive', BusyTask>> = {
  cheap: { kind: 'work', units: 10 },
  expensive: { kind: 'work', units: 1600 },
};
const LOAD = { loopsPerPrincipal: 3, idleMs: 3000, loadMs: 3000 } as const;

describe(
  'fair scheduling under load (fixture workers of known cost, one worker per lane)',
  { timeout: 120_000 },
  () => {
    let pool: FairPool<BusyTask, string>;
    before(async () => {
      pool = new FairPool<BusyTask, string>({
        filename: WORKER,
        workers: 1,
        expensiveWorkers: 1,
        warmUpTask: { kind: 'echo', value: 'warm' } satisfies BusyTask,
        maxPerPrincipal: 2,
      });
      await pool.warm();
    });
    after(() => pool?.close());

    test('four principals keep expensive queries going; the fifth one’s cheap queries all succeed within the bounds', async () => {
      const figures = await measureFairLoad(
        (principal, kind, signal) =>
          pool.run(TASKS[kind], { principal, costClass: kind, timeoutMs: 30_000, signal }).then(({ result }) => {
            assert.equal(result, 'done');
          }),
        LOAD,
      );
      console.log(`with the scheduler: ${figures.summary}`);
      assert.deepEqual(figures.cheapFailures, [], 'no cheap query fails');
      assert.deepEqual(
        figures.expensiveFailures,
        [],
        'expensive queries are answered or refused with 429, nothing else',
      );
      assert.ok(figures.expensiveRefused > 0, `three senders per principal against a cap of two: ${figures.summary}`);
      // The expensive lane is not starved either (one worker is its own; how many finish in 3 s
      // depends on how much CPU the neighbours leave).
      assert.ok(figures.expensiveAnswered >= 1, `the expensive queries made progress: ${figures.summary}`);
      assert.ok(figures.cheapSent >= 50, figures.summary);
      assert.ok(figures.p50 <= figures.medianBound, figures.summary);
      assert.ok(figures.p99 <= figures.bound, figures.summary);
      assert.deepEqual(pool.load(), { queued: 0, active: 0, workers: 2 });
    });

    test('the same load straight on one pool of as many workers, without the lanes, breaks that bound (the test can fail)', async () => {
      const plain = new WorkerPool<BusyTask, string>({
        filename: WORKER,
        workers: 2,
        warmUpTask: { kind: 'echo', value: 'warm' } satisfies BusyTask,
      });
      try {
        await plain.warm();
        const figures = await measureFairLoad(
          async (_principal, kind, signal) => {
            await plain.run(TASKS[kind], { timeoutMs: 30_000, signal });
          },
          { loopsPerPrincipal: 1, idleMs: 1000, loadMs: 2000 },
        );
        console.log(`without the scheduler: ${figures.summary}`);
        assert.ok(figures.p99 > figures.bound, figures.summary);
      } finally {
        await plain.close();
      }
    });

    test('a principal past its cap is refused at once with ENGINE_PRINCIPAL_BUSY; its running queries finish', async () => {
      const first = pool.run(TASKS.expensive, { principal: 'p', costClass: 'expensive' });
      const second = pool.run(TASKS.expensive, { principal: 'p', costClass: 'expensive' });
      const t0 = performance.now();
      await assert.rejects(
        pool.run(TASKS.cheap, { principal: 'p', costClass: 'cheap' }),
        (e: unknown) => isQuarryError(e) && e.code === 'ENGINE_PRINCIPAL_BUSY' && e.category === 'rate_limit',
      );
      assert.ok(performance.now() - t0 < 100, 'refused without waiting for a worker');
      assert.deepEqual(
        (await Promise.all([first, second])).map((r) => r.result),
        ['done', 'done'],
      );
      const { result } = await pool.run(TASKS.cheap, { principal: 'p', costClass: 'cheap' });
      assert.equal(result, 'done');
    });

    test('queue wait is reported from hand-in to start: a cheap query beside an expensive one barely waits', async () => {
      const expensive = pool.run(TASKS.expensive, { principal: 'h', costClass: 'expensive' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const cheap = await pool.run(TASKS.cheap, { principal: 'c', costClass: 'cheap' });
      const second = pool.run(TASKS.expensive, { principal: 'h2', costClass: 'expensive' });
      const { queueMs } = await second;
      await expensive;
      assert.ok(cheap.queueMs < 100, `the cheap query waited ${cheap.queueMs.toFixed(1)} ms`);
      assert.ok(queueMs > 100, `the second expensive query waited for the first: ${queueMs.toFixed(1)} ms`);
    });
  },
);
