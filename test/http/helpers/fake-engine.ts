/**
 * A TEST DOUBLE of the query engine for the HTTP protocol tests. These tests are about the
 * protocol (routes, auth, limits, versions, error bodies), not about query results, so the
 * double parses with the real DSL parser (real syntax errors with positions) and answers
 * fixed results. The real engine is exercised over HTTP by test/e2e.
 *
 * Behaviour by query text:
 *   describe version        → {"release": ..., "version": ...} of the requested DSL version
 *   ...titel...             → SCHEMA_UNKNOWN_FIELD (a semantic query error, 400, with position)
 *   ...SLOW...              → waits until aborted or the time limit passes → ENGINE_TIMEOUT
 *   ...HANG...              → never answers unless aborted (the HTTP deadline must step in)
 *   ...CRASH...             → throws a plain Error carrying a secret (must not leak, 500)
 *   ...BUSY...              → ENGINE_PRINCIPAL_BUSY (the caller is at its cap of queries at once, 429)
 *   anything else parsable  → one publication, `_stats`, `_version` (labelled publications/records
 *                             in the cheap lane, having waited 0.25 ms for a worker)
 * Its load is fixed: 3 queued, 1 active of 2 workers.
 */
import { parse } from '../../../src/dsl/index.ts';
import { outcomeFromResult } from '../../../src/engine/outcome.ts';
import type { QueryEngine, QueryOptions, QueryOutcome } from '../../../src/engine/types.ts';
import { QuarryError } from '../../../src/errors/index.ts';

export interface FakeEngine extends QueryEngine {
  readonly calls: Array<{ text: string; options: QueryOptions }>;
  readyAnswer: boolean;
  closed: boolean;
}

export function fakeEngine(): FakeEngine {
  const calls: Array<{ text: string; options: QueryOptions }> = [];
  const engine: FakeEngine = {
    calls,
    readyAnswer: true,
    closed: false,
    async run(text, options): Promise<QueryOutcome> {
      calls.push({ text, options });
      const version = {
        release: options.dslVersion === 1 ? '1.0' : '2.0',
        version: options.dslVersion === 1 ? '1.0.0' : '2.0.0',
      };
      if (text.includes('CRASH')) throw new Error('database password is hunter2 at /secret/path');
      if (text.includes('BUSY'))
        throw QuarryError.of('ENGINE_PRINCIPAL_BUSY', { params: { running: 4, retryAfter: 1 } });
      if (text.includes('SLOW')) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.timeoutMs ?? 30_000);
          options.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        });
        throw QuarryError.of('ENGINE_TIMEOUT', { params: { limitMs: options.timeoutMs ?? 30_000 } });
      }
      if (text.includes('HANG')) {
        await new Promise<void>((resolve) => options.signal?.addEventListener('abort', () => resolve()));
        throw QuarryError.of('ENGINE_CANCELLED', { params: { reason: 'aborted' } });
      }
      parse(text);
      const misspelt = text.indexOf('titel');
      if (misspelt >= 0) {
        throw QuarryError.of('SCHEMA_UNKNOWN_FIELD', {
          params: { name: 'titel', source: 'publications', hint: " Did you mean 'title'?" },
          span: { start: misspelt, end: misspelt + 5 },
          source: text,
        });
      }
      if (text.trim().startsWith('describe version'))
        return outcomeFromResult(version, { parseMs: 0.1, executeMs: 0.2 });
      return outcomeFromResult(
        {
          publications: [{ id: 'pub.1000000001', title: 'Graphene batteries', year: 2020 }],
          _stats: { total_count: 1 },
          _version: version,
        },
        { parseMs: 0.5, executeMs: 1.5, queueMs: 0.25 },
        { source: 'publications', result: 'records', cost: 'cheap' },
      );
    },
    ready: () => Promise.resolve(engine.readyAnswer),
    queueDepth: () => 3,
    load: () => ({ queued: 3, active: 1, workers: 2 }),
    close: () => {
      engine.closed = true;
      return Promise.resolve();
    },
  };
  return engine;
}
