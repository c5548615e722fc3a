// Every query of the conformance file (conformance/queries.txt) runs end to end on the SQLite engine (in
// process): queries marked `# expected: error` fail with a coded error of a query category,
// queries on sources this deployment does not hold are `unsupported`, all others answer
// in the protocol's shape.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { readQueryCorpus } from '../../src/dsl/index.ts';
import { runQuery } from '../../src/engine/backends/sqlite/query-context.ts';
import { QuarryError } from '../../src/errors/index.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { tinyDatabase } from './fixtures/tiny-db.ts';

const CORPUS = new URL('../../conformance/queries.txt', import.meta.url).pathname;
const HELD = /^\s*(search\s+(publications|grants|researchers|organizations)\b|describe\b)/;

describe(
  'conformance queries',
  { skip: existsSync(CORPUS) ? false : `${CORPUS} is not present on this machine` },
  () => {
    const db = openReadOnly(tinyDatabase());
    after(() => db.close());
    const corpus = existsSync(CORPUS) ? readQueryCorpus(readFileSync(CORPUS, 'utf8')) : [];
    for (const { query, expected, line } of corpus) {
      test(`line ${line}: ${query}`, () => {
        if (expected !== undefined || !HELD.test(query)) {
          assert.throws(
            () => runQuery(db, query, { dslVersion: 2 }),
            (e: unknown) =>
              e instanceof QuarryError &&
              ['syntax', 'semantic', 'unsupported', 'budget'].includes(e.category) &&
              (HELD.test(query) || e.category === 'unsupported'),
          );
          return;
        }
        const result = runQuery(db, query, { dslVersion: 2 });
        if (/^\s*describe/.test(query)) {
          assert.ok(Object.keys(result).length > 0);
          return;
        }
        const stats = result._stats as { total_count: unknown };
        assert.equal(typeof stats.total_count, 'number');
        for (const [key, value] of Object.entries(result)) {
          if (!key.startsWith('_')) assert.ok(Array.isArray(value), `${key} is an array`);
        }
      });
    }
  },
);
