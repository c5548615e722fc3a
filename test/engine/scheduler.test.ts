import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { QuarryError } from '../../src/errors/index.ts';
import { FairScheduler } from '../../src/engine/scheduler.ts';

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Jobs the test finishes by hand; `log` records the order they started in. */
function jobs() {
  const log: string[] = [];
  const finishers = new Map<string, () => void>();
  const job = (name: string) => async () => {
    log.push(name);
    await new Promise<void>((resolve) => finishers.set(name, resolve));
    return name;
  };
  const finish = async (name: string) => {
    await settle();
    const finisher = finishers.get(name);
    assert.ok(finisher, `${name} has started`);
    finisher();
    await settle();
  };
  return { log, job, finish };
}

describe('FairScheduler', () => {
  test('a principal past its cap gets ENGINE_PRINCIPAL_BUSY (429) at once, others still queue; a finished query frees a place', async () => {
    const scheduler = new FairScheduler({ slots: { cheap: 1, expensive: 1 }, maxPerPrincipal: 2 });
    const { log, job, finish } = jobs();
    const a = scheduler.run({ principal: 'p', costClass: 'cheap' }, job('a'));
    const b = scheduler.run({ principal: 'p', costClass: 'cheap' }, job('b'));
    await assert.rejects(
      scheduler.run({ principal: 'p', costClass: 'cheap' }, job('c')),
      (e: unknown) => e instanceof QuarryError && e.code === 'ENGINE_PRINCIPAL_BUSY' && e.category === 'rate_limit',
    );
    const q = scheduler.run({ principal: 'q', costClass: 'cheap' }, job('q'));
    await settle();
    assert.deepEqual(log, ['a']);
    assert.deepEqual(scheduler.load(), { queued: 2, active: 1, workers: 2 });
    await finish('a');
    await finish('b');
    await finish('q');
    assert.deepEqual(await Promise.all([a, b, q]), ['a', 'b', 'q']);
    const again = scheduler.run({ principal: 'p', costClass: 'cheap' }, job('again'));
    await finish('again');
    assert.equal(await again, 'again');
    assert.deepEqual(log, ['a', 'b', 'q', 'again']);
  });

  test('within a lane principals take turns: one caller’s backlog does not delay another’s next query', async () => {
    const scheduler = new FairScheduler({ slots: { cheap: 1, expensive: 1 }, maxPerPrincipal: 10 });
    const { log, job, finish } = jobs();
    const all = [
      scheduler.run({ principal: 'busy', costClass: 'cheap' }, job('busy1')),
      scheduler.run({ principal: 'busy', costClass: 'cheap' }, job('busy2')),
      scheduler.run({ principal: 'busy', costClass: 'cheap' }, job('busy3')),
      scheduler.run({ principal: 'busy', costClass: 'cheap' }, job('busy4')),
      scheduler.run({ principal: 'late', costClass: 'cheap' }, job('late1')),
    ];
    for (const name of ['busy1', 'busy2', 'late1', 'busy3', 'busy4']) await finish(name);
    await Promise.all(all);
    assert.deepEqual(log, ['busy1', 'busy2', 'late1', 'busy3', 'busy4']);
  });

  test('each lane has its own slots: a cheap query starts at once beside expensive ones and waits only for cheap ones', async () => {
    const scheduler = new FairScheduler({ slots: { cheap: 1, expensive: 1 }, maxPerPrincipal: 10 });
    const { log, job, finish } = jobs();
    const all = [
      scheduler.run({ principal: 'h1', costClass: 'expensive' }, job('e1')),
      scheduler.run({ principal: 'h2', costClass: 'expensive' }, job('e2')),
      scheduler.run({ principal: 'h3', costClass: 'expensive' }, job('e3')),
    ];
    await settle();
    assert.deepEqual(log, ['e1'], 'one expensive query at a time on its one slot');
    all.push(scheduler.run({ principal: 'c', costClass: 'cheap' }, job('c1')));
    await settle();
    assert.deepEqual(log, ['e1', 'c1'], 'the cheap query did not wait for the expensive ones');
    all.push(scheduler.run({ principal: 'c', costClass: 'cheap' }, job('c2')));
    await finish('c1');
    assert.deepEqual(log, ['e1', 'c1', 'c2'], 'the next cheap query waited for the cheap one only');
    assert.deepEqual(scheduler.load(), { queued: 2, active: 2, workers: 2 });
    await finish('e1');
    assert.deepEqual(log, ['e1', 'c1', 'c2', 'e2']);
    for (const name of ['c2', 'e2', 'e3']) await finish(name);
    await Promise.all(all);
    assert.deepEqual(log, ['e1', 'c1', 'c2', 'e2', 'e3']);
  });

  test('a query aborted while it waits leaves its lane and its principal’s count, and never starts', async () => {
    const scheduler = new FairScheduler({ slots: { cheap: 1, expensive: 1 }, maxPerPrincipal: 2 });
    const { log, job, finish } = jobs();
    const running = scheduler.run({ principal: 'p', costClass: 'cheap' }, job('running'));
    const controller = new AbortController();
    const waiting = scheduler.run({ principal: 'p', costClass: 'cheap', signal: controller.signal }, job('waiting'));
    controller.abort(new Error('client went away'));
    await assert.rejects(waiting, (e: unknown) => e instanceof QuarryError && e.code === 'ENGINE_CANCELLED');
    assert.deepEqual(scheduler.load(), { queued: 0, active: 1, workers: 2 });
    const next = scheduler.run({ principal: 'p', costClass: 'cheap' }, job('next'));
    await finish('running');
    await finish('next');
    assert.deepEqual(await Promise.all([running, next]), ['running', 'next']);
    assert.deepEqual(log, ['running', 'next']);
  });

  test('a failing query frees its slot and its place', async () => {
    const scheduler = new FairScheduler({ slots: { cheap: 1, expensive: 1 }, maxPerPrincipal: 1 });
    await assert.rejects(
      scheduler.run({ principal: 'p', costClass: 'cheap' }, () => Promise.reject(new Error('boom'))),
    );
    assert.equal(await scheduler.run({ principal: 'p', costClass: 'cheap' }, () => Promise.resolve('ok')), 'ok');
    assert.deepEqual(scheduler.load(), { queued: 0, active: 0, workers: 2 });
  });
});
