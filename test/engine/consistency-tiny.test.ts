import { after, before, describe } from 'node:test';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import { runQuery } from '../../src/engine/backends/sqlite/query-context.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import type { TestPgDatabase } from '../fixtures/pg-db.ts';
import { consistencyTests, type ConsistencyOptions } from './consistency.cases.ts';
import { PUBLICATIONS, tinyDatabase, tinyPgDatabase } from './fixtures/tiny-db.ts';

const options: ConsistencyOptions = {
  words: ['machine', 'learning'],
  researcherCounts: () => {
    const m = new Map<string, number>();
    for (const p of PUBLICATIONS) {
      const ids = new Set(('authors' in p ? p.authors : []).map((a: { researcher_id: string }) => a.researcher_id));
      for (const id of ids) m.set(id, (m.get(id) ?? 0) + 1);
    }
    return m;
  },
};

describe('consistency identities on the hand-written fixture: sqlite', () => {
  const db = openReadOnly(tinyDatabase());
  after(() => db.close());
  consistencyTests(() => (q) => Promise.resolve(runQuery(db, q, { dslVersion: 2 })), options);
});

describe('consistency identities on the hand-written fixture: postgres', () => {
  let pg: TestPgDatabase;
  let engine: QueryEngine;
  before(async () => {
    pg = await tinyPgDatabase('consistency');
    engine = createPostgresEngine({ url: pg.url });
  });
  after(async () => {
    await engine.close();
    await pg.drop();
  });
  consistencyTests(() => async (q) => (await engine.run(q, { dslVersion: 2 })).result, options);
});
