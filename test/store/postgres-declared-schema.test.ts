// The frozen PostgreSQL records migrations against the layout the model declares today: a
// database brought through every migration must hold what `declaredPgRecordSchemaSql`
// derives from model/storage.ts. A layout change without a migration fails here.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { declaredPgRecordSchemaSql } from '../../src/store/postgres/declared-schema.ts';
import { applyRecordMigrations, createTestPgDatabase, queryPg, type TestPgDatabase } from '../fixtures/pg-db.ts';
import { pgSchemaShape, shapeDifferences } from '../fixtures/schema-shape.ts';
import { pgRecordVersionsFrom } from '../fixtures/record-versions.ts';

describe('PostgreSQL records migrations and the declared layout', { timeout: 120_000 }, () => {
  let migrated: TestPgDatabase;
  let declared: TestPgDatabase;
  let older: TestPgDatabase;
  before(async () => {
    migrated = await createTestPgDatabase('declared_migrated');
    declared = await createTestPgDatabase('declared_layout');
    older = await createTestPgDatabase('declared_older');
    const client = new pg.Client({ connectionString: declared.url });
    await client.connect();
    try {
      for (const statement of declaredPgRecordSchemaSql()) await client.query(statement);
    } finally {
      await client.end();
    }
  });
  after(async () => {
    await migrated.drop();
    await declared.drop();
    await older.drop();
  });

  test('a new database brought through every frozen migration holds the layout the model declares', async () => {
    await applyRecordMigrations(migrated.url);
    const differences = shapeDifferences(await pgSchemaShape(migrated.url), await pgSchemaShape(declared.url));
    assert.deepEqual(
      differences,
      [],
      'the layout (model/storage.ts) and the records migrations disagree: add a migration (docs/storage.md, "Migrations are frozen")',
    );
  });

  test('a database made at version 8 and holding records upgrades to the declared layout with its records', async () => {
    await applyRecordMigrations(older.url, 8);
    const client = new pg.Client({ connectionString: older.url });
    await client.connect();
    try {
      await client.query(`INSERT INTO publications (pk, id, title, year) VALUES (1, 'pub.1', 'A', 2020), (2, 'pub.2', 'B', 2021);
        INSERT INTO publication_concepts (publication_pk, concept, score) VALUES (1, 'graphene', 0.9), (2, 'graphene', NULL);
        INSERT INTO publication_references (publication_pk, cited_id) VALUES (1, 'pub.2'), (2, 'W9')`);
    } finally {
      await client.end();
    }
    assert.deepEqual(await applyRecordMigrations(older.url), pgRecordVersionsFrom(9));
    assert.deepEqual(shapeDifferences(await pgSchemaShape(older.url), await pgSchemaShape(declared.url)), []);
    assert.deepEqual(
      await queryPg(
        older.url,
        'SELECT c.publication_pk::int AS pk, n.name FROM publication_concepts c JOIN concept_names n ON n.id = c.concept_id ORDER BY 1',
      ),
      [
        { pk: 1, name: 'graphene' },
        { pk: 2, name: 'graphene' },
      ],
    );
    assert.deepEqual(
      await queryPg(
        older.url,
        'SELECT r.publication_pk::int AS pk, v.cited_id FROM publication_references r JOIN cited_ids v ON v.id = r.cited_key ORDER BY 1',
      ),
      [
        { pk: 1, cited_id: 'pub.2' },
        { pk: 2, cited_id: 'W9' },
      ],
    );
  });
});
