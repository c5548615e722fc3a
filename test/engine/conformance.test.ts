// Every query of the conformance file (conformance/queries.txt) runs end to end on each engine (SQLite
// in process, PostgreSQL): queries marked `# expected: error` fail with a coded error of a query category,
// queries on sources this deployment does not hold are `unsupported`, all others answer
// in the protocol's shape. Calls of the statement functions (extract_grants(...)) answer their
// own JSON object; on SQLite they run through the engine, which they read through.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { readQueryCorpus } from '../../src/dsl/index.ts';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import { createSqliteEngine } from '../../src/engine/backends/sqlite/engine.ts';
import { STATEMENT_FUNCTIONS } from '../../src/functions/registry.ts';
import { runQuery } from '../../src/engine/backends/sqlite/query-context.ts';
import type { QueryResult } from '../../src/engine/types.ts';
import { QuarryError } from '../../src/errors/index.ts';
import { SOURCE_NAMES } from '../../src/model/sources.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { tinyDatabase, tinyPgDatabase } from './fixtures/tiny-db.ts';

const CORPUS = new URL('../../conformance/queries.txt', import.meta.url).pathname;
const CALL = `(${[...STATEMENT_FUNCTIONS.keys()].join('|')})\\s*\\(`;
const FUNCTION_CALL = new RegExp(`^\\s*${CALL}`);
const HELD = new RegExp(`^\\s*(search\\s+(${SOURCE_NAMES.join('|')})\\b|describe\\b|${CALL})`);

type Run = (query: string) => Promise<QueryResult>;

/** The conformance file against one engine. */
function conformance(name: string, open: () => Promise<{ run: Run; close: () => Promise<void> }>): void {
  describe(
    `conformance queries: ${name}`,
    { skip: existsSync(CORPUS) ? false : `${CORPUS} is not present on this machine` },
    () => {
      let engine: { run: Run; close: () => Promise<void> };
      before(async () => {
        engine = await open();
      });
      after(() => engine.close());
      const corpus = existsSync(CORPUS) ? readQueryCorpus(readFileSync(CORPUS, 'utf8')) : [];
      for (const { query, expected, line } of corpus) {
        test(`line ${line}: ${query}`, async () => {
          if (expected !== undefined || !HELD.test(query)) {
            await assert.rejects(
              engine.run(query),
              (e: unknown) =>
                e instanceof QuarryError &&
                ['syntax', 'semantic', 'unsupported', 'budget'].includes(e.category) &&
                (HELD.test(query) || e.category === 'unsupported'),
            );
            return;
          }
          const result = await engine.run(query);
          if (/^\s*describe/.test(query) || FUNCTION_CALL.test(query)) {
            assert.ok(Object.keys(result).length > 0);
            return;
          }
          const stats = result._stats as { total_count: unknown };
          assert.equal(typeof stats.total_count, 'number');
          for (const [key, value] of Object.entries(result)) {
            if (key.startsWith('_')) continue;
            // The per-year functions are the protocol's documented exception: an object keyed by year.
            if (/^(citations|funding)_per_year$/.test(key)) {
              assert.ok(
                value !== null && typeof value === 'object' && !Array.isArray(value),
                `${key} is keyed by year`,
              );
              assert.ok(
                Object.keys(value).every((k) => /^\d{4}$/.test(k)),
                `${key} keys are years`,
              );
            } else assert.ok(Array.isArray(value), `${key} is an array`);
          }
        });
      }
    },
  );
}

conformance('sqlite', () => {
  const db = openReadOnly(tinyDatabase());
  const engine = createSqliteEngine({ dbPath: tinyDatabase(), workers: 1, expensiveWorkers: 1 });
  return Promise.resolve({
    run: async (q) =>
      FUNCTION_CALL.test(q) ? (await engine.run(q, { dslVersion: 2 })).result : runQuery(db, q, { dslVersion: 2 }),
    close: async () => {
      db.close();
      await engine.close();
    },
  });
});

conformance('postgres', async () => {
  const pg = await tinyPgDatabase('conformance');
  const engine = createPostgresEngine({ url: pg.url });
  return {
    run: async (q) => (await engine.run(q, { dslVersion: 2 })).result,
    close: async () => {
      await engine.close();
      await pg.drop();
    },
  };
});
