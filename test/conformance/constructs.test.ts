// Each language construct of issue 13 answers as its fixture says (see constructs.cases.ts).
// Set QUARRY_RECORD_FIXTURES=1 to write missing fixtures from the current answers; review
// every written file by hand before committing it.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { runQuery } from '../../src/engine/backends/sqlite/query-context.ts';
import { QuarryError } from '../../src/errors/index.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { tinyDatabase } from '../engine/fixtures/tiny-db.ts';
import { CONSTRUCT_CASES } from './constructs.cases.ts';

const FIXTURES = new URL('./fixtures/', import.meta.url);
const RECORD = process.env.QUARRY_RECORD_FIXTURES === '1';

function answer(db: Parameters<typeof runQuery>[0], query: string, version: 1 | 2): unknown {
  try {
    return runQuery(db, query, { dslVersion: version });
  } catch (error) {
    if (error instanceof QuarryError) return { error: { code: error.code, category: error.category } };
    throw error;
  }
}

describe('language constructs (issue 13)', () => {
  const db = openReadOnly(tinyDatabase());
  after(() => db.close());
  for (const c of CONSTRUCT_CASES) {
    test(`${c.construct}: ${c.query}`, () => {
      const got = JSON.parse(JSON.stringify(answer(db, c.query, c.version ?? 2))) as unknown;
      const file = new URL(`${c.fixture}.json`, FIXTURES);
      if (RECORD && !existsSync(file)) writeFileSync(file, `${JSON.stringify(got, null, 2)}\n`);
      assert.deepEqual(got, JSON.parse(readFileSync(file, 'utf8')));
    });
  }
});
