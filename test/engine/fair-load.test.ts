import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { estimateCost } from '../../src/engine/cost.ts';
import { createSqliteEngine } from '../../src/engine/backends/sqlite/engine.ts';
import { prepareQuery } from '../../src/engine/run-query.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import type { QuarryError } from '../../src/errors/index.ts';
import { syntheticDatabase } from '../e2e/records-db.ts';
import { measureFairLoad } from './helpers/fair-load.ts';

/**
 * Four broad facets with medians under a filter that reads every record's author list from
 * its document: ~1.5 s of CPU on 15k publications, as each of the five statements unpacks
 * every document (store/sqlite/packed-text.ts; ~370 ms with plain-text documents); the facets
 * alone read the narrow table and take ~40 ms.
 */
const EXPENSIVE =
  'search publications where authors != "zzqq" return researchers aggregate citations_total, citations_median limit 1000 return research_orgs aggregate citations_median limit 1000 ' +
  'return year aggregate citations_median return type aggregate citations_median';
/** One record page by a selective filter: a few ms. */
const CHEAP = 'search publications where year = 2010 return publications[id + title + year] limit 5';

// Issue 12, "Must show", on the real SQLite engine, one worker per lane: four principals send
// expensive queries continuously while a fifth sends cheap ones. No cheap query may fail, and
// the cheap class's p50 under load must stay under 10 × its idle p50 + 50 ms. Its p99 is held
// to the stated bound in fair-pool.test.ts, with tasks of fixed cost: here the cheap lookups
// themselves slow down while an expensive statement reads every document beside them on the
// shared 2 cores (at a load average of 14, p50 1.4 → 9.5 ms, p99 130 ms, one expensive query
// taking 3 s), which is the machine, not the queueing. What the queueing must never do is
// make a cheap query wait out an expensive one, so here the cheap p99 must stay under half
// the expensive queries' median service time (a worker's start to the answer), measured in
// the same run. Bounded in time.
describe('fair scheduling under load (real SQLite engine, one worker per lane)', { timeout: 120_000 }, () => {
  let db: string;
  let engine: QueryEngine;
  before(async () => {
    db = syntheticDatabase(15_000);
    engine = createSqliteEngine({ dbPath: db, workers: 1, expensiveWorkers: 1, maxPerPrincipal: 2 });
    // Workers loaded, statements prepared.
    for (const text of [CHEAP, EXPENSIVE, CHEAP]) await engine.run(text, { dslVersion: 2 });
  });
  after(() => engine?.close());

  test('the cost estimate puts the lookup in the cheap lane and the facets in the expensive one', () => {
    const stats = { publications: 15_000 };
    const cost = (text: string) => {
      const prepared = prepareQuery(text, { dslVersion: 2 });
      assert.equal(prepared.kind, 'plan');
      return prepared.kind === 'plan' ? estimateCost(prepared.plan, stats) : undefined;
    };
    assert.equal(cost(CHEAP)?.costClass, 'cheap');
    assert.equal(cost(EXPENSIVE)?.costClass, 'expensive');
    assert.equal(cost('search publications where id = "pub.1" return publications')?.costClass, 'cheap');
    assert.equal(cost('search publications return publications limit 20')?.costClass, 'cheap');
    assert.equal(cost('search publications return year')?.costClass, 'cheap');
    assert.equal(cost('search publications return publications sort by times_cited limit 20')?.costClass, 'cheap');
    assert.equal(cost('search publications return research_orgs aggregate citations_median')?.costClass, 'expensive');
    // Against a million publications, the same year facet is expensive.
    const large = prepareQuery('search publications return year', { dslVersion: 2 });
    assert.ok(large.kind === 'plan' && estimateCost(large.plan, { publications: 1_000_000 }).costClass === 'expensive');
  });

  test('four principals send expensive queries continuously; the fifth one’s cheap queries all succeed, never waiting out an expensive one', async () => {
    const figures = await measureFairLoad(
      async (principal, kind, signal) => {
        const text = kind === 'cheap' ? CHEAP : EXPENSIVE;
        const { timings } = await engine.run(text, { dslVersion: 2, principal, timeoutMs: 30_000, signal });
        return timings.executeMs - (timings.queueMs ?? 0);
      },
      // Two senders each, at the cap: refused queries would each be parsed on this thread first.
      // The load lasts long enough for an expensive query (1.5 s of CPU) to finish on a busy machine.
      { loopsPerPrincipal: 2, idleMs: 3000, loadMs: 6000 },
    );
    console.log(`real SQLite engine: ${figures.summary}`);
    assert.deepEqual(figures.cheapFailures, [], 'no cheap query fails');
    assert.deepEqual(figures.expensiveFailures, [], 'expensive queries answer or are refused with 429, nothing else');
    // The expensive lane is not starved either (one worker is its own; how many finish in 3 s
    // depends on how much CPU the neighbours leave).
    assert.ok(figures.expensiveAnswered >= 1, `the expensive queries made progress: ${figures.summary}`);
    assert.ok(figures.cheapSent >= 50, figures.summary);
    assert.ok(figures.p50 <= figures.medianBound, figures.summary);
    assert.ok(figures.p99 <= figures.expensiveServiceP50 / 2, figures.summary);
  });

  test('after a burst of time-outs the next cheap queries are answered: the restarted worker is the expensive lane’s, and its start-up never counts', async () => {
    const burst = await Promise.allSettled(
      ['t1', 't2', 't3'].map((principal) => engine.run(EXPENSIVE, { dslVersion: 2, principal, timeoutMs: 30 })),
    );
    assert.ok(
      burst.every((r) => r.status === 'rejected' && (r.reason as QuarryError).code === 'ENGINE_TIMEOUT'),
      JSON.stringify(burst.map((r) => (r.status === 'rejected' ? String(r.reason) : 'answered'))),
    );
    // The expensive lane's worker was terminated after each and is loading again (far longer
    // than 200 ms); the cheap lane's worker never ran them.
    const answers = await Promise.all(
      [1, 2, 3, 4].map((i) => engine.run(CHEAP, { dslVersion: 2, principal: `c${i}`, timeoutMs: 200 })),
    );
    for (const outcome of answers) assert.equal((outcome.result.publications as unknown[]).length, 5);
  });
});
