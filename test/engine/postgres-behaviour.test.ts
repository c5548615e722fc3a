import { after } from 'node:test';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import type { TestPgDatabase } from '../fixtures/pg-db.ts';
import { runBehaviourSuite } from './behaviour.cases.ts';
import { tinyPgDatabase } from './fixtures/tiny-db.ts';

let db: TestPgDatabase | undefined;
after(() => db?.drop());

runBehaviourSuite('postgres (pg pool)', async () => {
  db = await tinyPgDatabase('behaviour');
  return createPostgresEngine({ url: db.url });
});
