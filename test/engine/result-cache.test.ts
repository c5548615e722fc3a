// The result cache in front of a QueryEngine: what it keys on, when it must not answer from
// memory, its memory bound and its metrics; and, with the real SQLite store and engine,
// that an import's write makes the next identical query run again.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createSqliteEngine } from '../../src/engine/backends/sqlite/engine.ts';
import { outcomeFromResult } from '../../src/engine/outcome.ts';
import { normaliseQueryText, withResultCache } from '../../src/engine/result-cache.ts';
import type { QueryEngine, QueryOptions, QueryResult } from '../../src/engine/types.ts';
import { QuarryError } from '../../src/errors/index.ts';
import { createMetrics } from '../../src/http/metrics.ts';
import { openRecordStore } from '../../src/store/sqlite/records-store.ts';

/** An engine that answers with its call number, so a cached answer is told from a fresh one. */
function countingEngine(answer: (text: string, call: number) => QueryResult = (_t, call) => ({ call })) {
  const calls: Array<{ text: string; options: QueryOptions }> = [];
  const engine: QueryEngine = {
    run(text, options) {
      calls.push({ text, options });
      if (text.includes('mistake')) return Promise.reject(QuarryError.of('ENGINE_TIMEOUT', { params: { limitMs: 1 } }));
      return Promise.resolve(outcomeFromResult(answer(text, calls.length), { parseMs: 0, executeMs: 1 }));
    },
    ready: () => Promise.resolve(true),
    queueDepth: () => 0,
    close: () => Promise.resolve(),
  };
  return { engine, calls };
}

const v2: QueryOptions = { dslVersion: 2 };

describe('withResultCache', () => {
  test('a repeated identical query is answered from memory, whatever its spacing', async () => {
    const { engine, calls } = countingEngine();
    const cached = withResultCache(engine, { maxBytes: 1 << 20, epoch: () => 'e1' });
    const first = await cached.run('search publications return year', v2);
    const again = await cached.run('  search   publications\n\treturn year ', v2);
    assert.equal(calls.length, 1);
    assert.deepEqual(again.result, first.result);
    assert.equal(again.timings.executeMs, 0);
    assert.deepEqual(cached.cacheStats(), {
      hits: 1,
      misses: 1,
      entries: 1,
      bytes: first.json.length * 2,
      maxBytes: 1 << 20,
    });
  });

  test('spacing inside strings, the language version and the entitled sources each make another entry', async () => {
    const { engine, calls } = countingEngine();
    const cached = withResultCache(engine, { maxBytes: 1 << 20, epoch: () => 'e1' });
    await cached.run('search publications for "a b" return year', v2);
    await cached.run('search publications for "a  b" return year', v2);
    await cached.run('search publications for "a b" return year', { dslVersion: 1 });
    await cached.run('search publications for "a b" return year', {
      dslVersion: 2,
      permissions: { sources: ['grants'] },
    });
    await cached.run('search publications for "a b" return year', {
      dslVersion: 2,
      permissions: { sources: ['grants', 'publications'] },
    });
    // The same sources in another order are the same entitlement.
    await cached.run('search publications for "a b" return year', {
      dslVersion: 2,
      permissions: { sources: ['publications', 'grants'] },
    });
    assert.equal(calls.length, 5);
  });

  test('two different sets of entitled sources never share an entry, however the names are written', async () => {
    const { engine, calls } = countingEngine();
    const cached = withResultCache(engine, { maxBytes: 1 << 20, epoch: () => 'e1' });
    const text = 'search publications return researchers[basics + extras]';
    await cached.run(text, { dslVersion: 2, permissions: { sources: ['publications', 'researchers'] } });
    // One name holding a comma is not the two names: the caller may read neither source.
    const other = await cached.run(text, { dslVersion: 2, permissions: { sources: ['publications,researchers'] } });
    assert.equal(calls.length, 2);
    assert.deepEqual(other.result, { call: 2 });
    // A name given twice is the same set.
    await cached.run(text, { dslVersion: 2, permissions: { sources: ['researchers', 'publications', 'researchers'] } });
    assert.equal(calls.length, 2);
  });

  test('a new epoch (an import) makes every query run again and drops what was kept', async () => {
    const { engine, calls } = countingEngine();
    let epoch = 'e1';
    const cached = withResultCache(engine, { maxBytes: 1 << 20, epoch: () => epoch });
    await cached.run('search grants return grants', v2);
    await cached.run('search grants return grants', v2);
    epoch = 'e2';
    const fresh = await cached.run('search grants return grants', v2);
    assert.equal(calls.length, 2);
    assert.deepEqual(fresh.result, { call: 2 });
    assert.equal(cached.cacheStats().entries, 1);
  });

  test('errors are not kept: the query runs again', async () => {
    const { engine, calls } = countingEngine();
    const cached = withResultCache(engine, { maxBytes: 1 << 20, epoch: () => 'e1' });
    await assert.rejects(cached.run('a mistake', v2), QuarryError);
    await assert.rejects(cached.run('a mistake', v2), QuarryError);
    assert.equal(calls.length, 2);
    assert.equal(cached.cacheStats().entries, 0);
  });

  test('a result with warnings is reused only for the exact same text (its positions refer to it)', async () => {
    const { engine, calls } = countingEngine((_t, call) => ({ call, _warnings: ['at 7'] }));
    const cached = withResultCache(engine, { maxBytes: 1 << 20, epoch: () => 'e1' });
    await cached.run('search  publications return year', v2);
    await cached.run('search  publications return year', v2);
    await cached.run('search publications return year', v2);
    assert.equal(calls.length, 2);
  });

  test('memory stays within maxBytes: the least recently used results go first', async () => {
    const big = 'x'.repeat(1000);
    const { engine, calls } = countingEngine((text) => ({ text, big }));
    const cached = withResultCache(engine, { maxBytes: 10_000, maxEntryBytes: 10_000, epoch: () => 'e1' });
    for (let i = 0; i < 20; i++) await cached.run(`search publications where year = ${2000 + i} return year`, v2);
    const stats = cached.cacheStats();
    assert.ok(stats.bytes <= 10_000, JSON.stringify(stats));
    assert.ok(stats.entries >= 3 && stats.entries < 20, JSON.stringify(stats));
    await cached.run('search publications where year = 2019 return year', v2);
    assert.equal(calls.length, 20, 'the newest result is still held');
    await cached.run('search publications where year = 2000 return year', v2);
    assert.equal(calls.length, 21, 'the oldest result was dropped');
  });

  test('a result larger than the entry limit is answered but not kept', async () => {
    const { engine, calls } = countingEngine(() => ({ big: 'x'.repeat(5000) }));
    const cached = withResultCache(engine, { maxBytes: 8000, epoch: () => 'e1' });
    await cached.run('search publications return year', v2);
    await cached.run('search publications return year', v2);
    assert.equal(calls.length, 2);
  });

  test('/metrics shows hits, misses, entries and bytes', async () => {
    const { engine } = countingEngine();
    const cached = withResultCache(engine, { maxBytes: 1 << 20, epoch: () => 'e1' });
    await cached.run('search grants return grants', v2);
    await cached.run('search grants return grants', v2);
    await cached.run('search grants return grants', v2);
    const text = await createMetrics(cached).registry.metrics();
    assert.match(text, /^quarry_result_cache_hits_total 2$/m);
    assert.match(text, /^quarry_result_cache_misses_total 1$/m);
    assert.match(text, /^quarry_result_cache_entries 1$/m);
    assert.match(text, /^quarry_result_cache_bytes \d+$/m);
  });
});

describe('normaliseQueryText', () => {
  const cases: Array<[string, string]> = [
    ['  search  publications\n\treturn year  ', 'search publications return year'],
    ['search publications for "a  b\\"  c"  return year', 'search publications for "a  b\\"  c" return year'],
    [
      'search publications for """say "hi  there"  ok"""  return year',
      'search publications for """say "hi  there"  ok""" return year',
    ],
    ['search publications for "unterminated  ', 'search publications for "unterminated  '],
  ];
  for (const [input, expected] of cases) {
    test(JSON.stringify(input), () => assert.equal(normaliseQueryText(input), expected));
  }
});

describe('the result cache over the SQLite engine', () => {
  test('an import between two identical queries makes the second one see the new records', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'quarry-cache-')), 'records.db');
    const store = openRecordStore(path);
    store.upsert('publications', [{ id: 'pub.1', title: 'one', year: 2020 }]);
    store.finish();
    const sqlite = createSqliteEngine({ dbPath: path, workers: 1 });
    const engine = withResultCache(sqlite, { maxBytes: 1 << 20, epoch: () => sqlite.dataEpoch() });
    try {
      const query = 'search publications return publications[id] limit 5';
      const count = async () => ((await engine.run(query, v2)).result._stats as { total_count: number }).total_count;
      assert.equal(await count(), 1);
      assert.equal(await count(), 1);
      assert.equal(engine.cacheStats().hits, 1);
      store.upsert('publications', [{ id: 'pub.2', title: 'two', year: 2021 }]);
      assert.equal(await count(), 2);
      assert.equal(engine.cacheStats().misses, 2);
    } finally {
      store.close();
      await engine.close();
    }
  });
});
