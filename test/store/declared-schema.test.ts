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

test('a database made at version 10 and holding records upgrades to the declared layout with its records', () => {
  const older = new Database(':memory:');
  registerPostingFunctions(older);
  migrate(older, 'records', RECORD_MIGRATIONS.slice(0, 10));
  older.exec(`INSERT INTO publications (pk, id, title, abstract, year) VALUES (1, 'pub.1', 'A', 'About A', 2020), (2, 'pub.2', 'B', NULL, 2021);
    INSERT INTO publication_concepts (publication_pk, concept, score) VALUES (1, 'graphene', 0.9), (2, 'graphene', NULL);
    INSERT INTO publication_references (publication_pk, cited_id) VALUES (1, 'pub.2'), (2, 'W9');
    INSERT INTO publication_research_orgs (publication_pk, org_id, year) VALUES (1, 'grid.1', 2020)`);
  assert.deepEqual(
    migrate(older, 'records', RECORD_MIGRATIONS),
    RECORD_MIGRATIONS.slice(10).map((m) => m.version),
  );
  assert.deepEqual(shapeDifferences(sqliteSchemaShape(older), sqliteSchemaShape(declaredDatabase())), []);
  const rows = (sql: string): unknown[] => older.prepare(sql).raw().all();
  assert.deepEqual(rows('SELECT pk, abstract FROM publication_abstracts'), [[1, 'About A']]);
  assert.deepEqual(
    rows(
      'SELECT c.publication_pk, n.name FROM publication_concepts c JOIN concept_names n ON n.id = c.concept_id ORDER BY 1',
    ),
    [
      [1, 'graphene'],
      [2, 'graphene'],
    ],
  );
  assert.deepEqual(
    rows(
      'SELECT r.publication_pk, v.cited_id FROM publication_references r JOIN cited_ids v ON v.id = r.cited_key ORDER BY 1',
    ),
    [
      [1, 'pub.2'],
      [2, 'W9'],
    ],
  );
  assert.deepEqual(rows('SELECT publication_pk, org_id, year FROM publication_research_orgs'), [[1, 'grid.1', 2020]]);
});
