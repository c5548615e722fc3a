import { createSqliteEngine } from '../../src/engine/backends/sqlite/engine.ts';
import { runBehaviourSuite } from './behaviour.cases.ts';
import { tinyDatabase } from './fixtures/tiny-db.ts';

runBehaviourSuite('sqlite (worker pool)', () =>
  Promise.resolve(createSqliteEngine({ dbPath: tinyDatabase(), workers: 2 })),
);
