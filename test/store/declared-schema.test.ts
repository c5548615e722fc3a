// The frozen records migrations against the layout the model declares today: a database
// brought through every migration must hold what `declaredRecordSchemaSql` derives from
// model/storage.ts. A layout change without a migration fails here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { declaredRecordSchemaSql } from '../../src/store/sqlite/declared-schema.ts';
import { migrate } from '../../src/store/sqlite/migrate.ts';
import { registerPostingFunctions } from '../../src/store/sqlite/posting-lists.ts';
import { RECORD_MIGRATIONS } from '../../src/store/sqlite/records-schema.ts';
import { shapeDifferences, sqliteSchemaShape } from '../fixtures/schema-shape.ts';

function declaredDatabase(): Database.Database {
  const db = new Database(':memory:');
  registerPostingFunctions(db);
  for (const statement of declaredRecordSchemaSql()) db.exec(statement);
  return db;
}

test('a new database brought through every frozen migration holds the layout the model declares', () => {
  const migrated = new Database(':memory:');
  migrate(migrated, 'records', RECORD_MIGRATIONS);
  const differences = shapeDifferences(sqliteSchemaShape(migrated), sqliteSchemaShape(declaredDatabase()));
  assert.deepEqual(
    differences,
    [],
    'the layout (model/storage.ts) and the records migrations disagree: add a migration (docs/storage.md, "Migrations are frozen")',
  );
});
