// The frozen PostgreSQL records migrations against the layout the model declares today: a
// database brought through every migration must hold what `declaredPgRecordSchemaSql`
// derives from model/storage.ts. A layout change without a migration fails here.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { declaredPgRecordSchemaSql } from '../../src/store/postgres/declared-schema.ts';
import { applyRecordMigrations, createTestPgDatabase, type TestPgDatabase } from '../fixtures/pg-db.ts';
import { pgSchemaShape, shapeDifferences } from '../fixtures/schema-shape.ts';

describe('PostgreSQL records migrations and the declared layout', { timeout: 120_000 }, () => {
  let migrated: TestPgDatabase;
  let declared: TestPgDatabase;
  before(async () => {
    migrated = await createTestPgDatabase('declared_migrated');
    declared = await createTestPgDatabase('declared_layout');
  });
  after(async () => {
    await migrated.drop();
    await declared.drop();
  });

  test('a new database brought through every frozen migration holds the layout the model declares', async () => {
    await applyRecordMigrations(migrated.url);
    const client = new pg.Client({ connectionString: declared.url });
    await client.connect();
    try {
      for (const statement of declaredPgRecordSchemaSql()) await client.query(statement);
    } finally {
      await client.end();
    }
    const differences = shapeDifferences(await pgSchemaShape(migrated.url), await pgSchemaShape(declared.url));
    assert.deepEqual(
      differences,
      [],
      'the layout (model/storage.ts) and the records migrations disagree: add a migration (docs/storage.md, "Migrations are frozen")',
    );
  });
});
