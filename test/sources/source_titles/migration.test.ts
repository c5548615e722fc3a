// A database that held journals before source titles were a source keeps them: records
// migrations 29 (SQLite) and 21 (PostgreSQL) move the journals' rows to source_titles, with
// their ISSNs as `issn` values and their titles searchable, and the table `journals` is gone.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { migrate } from '../../../src/store/sqlite/migrate.ts';
import { registerPostingFunctions } from '../../../src/store/sqlite/posting-lists.ts';
import { RECORD_MIGRATIONS } from '../../../src/store/sqlite/records-schema.ts';
import { applyRecordMigrations, createTestPgDatabase, queryPg, type TestPgDatabase } from '../../fixtures/pg-db.ts';

const JOURNALS = `INSERT INTO journals (pk, id, title, publisher, n_publications, doc) VALUES
  (7, 'jour.1900001', 'Journal of Cells', 'Porto Press', 3, '{"issn":["1234-5678","8765-4321"]}'),
  (9, 'S137773608', 'Nature', NULL, NULL, '{}')`;

test('SQLite: the journals held before migration 29 become source titles', () => {
  const db = new Database(':memory:');
  registerPostingFunctions(db);
  migrate(db, 'records', RECORD_MIGRATIONS.slice(0, 28));
  db.exec(JOURNALS);
  migrate(db, 'records', RECORD_MIGRATIONS);
  const all = (sql: string): unknown[] => db.prepare(sql).raw().all();
  assert.deepEqual(all("SELECT name FROM sqlite_master WHERE name = 'journals'"), []);
  assert.deepEqual(all('SELECT pk, id, title, publisher, n_publications, type FROM source_titles ORDER BY pk'), [
    [7, 'jour.1900001', 'Journal of Cells', 'Porto Press', 3, null],
    [9, 'S137773608', 'Nature', null, null, null],
  ]);
  assert.deepEqual(all('SELECT source_title_pk, field, value FROM source_title_values ORDER BY 1, 3'), [
    [7, '1', '1234-5678'],
    [7, '1', '8765-4321'],
  ]);
  assert.deepEqual(all("SELECT rowid FROM source_titles_fts WHERE source_titles_fts MATCH 'cells'"), [[7]]);
  // A record written after the move takes the next pk.
  db.exec("INSERT INTO source_titles (id, title) VALUES ('jour.1900002', 'Annals of Ecology')");
  assert.deepEqual(all("SELECT pk FROM source_titles WHERE id = 'jour.1900002'"), [[10]]);
});

describe('PostgreSQL: the journals held before migration 21 become source titles', { timeout: 120_000 }, () => {
  let older: TestPgDatabase;
  before(async () => {
    older = await createTestPgDatabase('journals_moved');
  });
  after(async () => {
    await older.drop();
  });

  test('rows, ISSN values, title vectors and the identity after them', async () => {
    await applyRecordMigrations(older.url, 20);
    const client = new pg.Client({ connectionString: older.url });
    await client.connect();
    try {
      await client.query(JOURNALS);
    } finally {
      await client.end();
    }
    await applyRecordMigrations(older.url);
    assert.deepEqual(await queryPg(older.url, "SELECT to_regclass('journals') AS t"), [{ t: null }]);
    assert.deepEqual(
      await queryPg(
        older.url,
        'SELECT pk::int, id, title, publisher, n_publications::int AS n FROM source_titles ORDER BY pk',
      ),
      [
        { pk: 7, id: 'jour.1900001', title: 'Journal of Cells', publisher: 'Porto Press', n: 3 },
        { pk: 9, id: 'S137773608', title: 'Nature', publisher: null, n: null },
      ],
    );
    assert.deepEqual(
      await queryPg(
        older.url,
        'SELECT source_title_pk::int AS pk, field, value FROM source_title_values ORDER BY 1, 3',
      ),
      [
        { pk: 7, field: '1', value: '1234-5678' },
        { pk: 7, field: '1', value: '8765-4321' },
      ],
    );
    assert.deepEqual(
      await queryPg(older.url, "SELECT pk::int FROM source_titles WHERE fts @@ to_tsquery('simple', 'cells')"),
      [{ pk: 7 }],
    );
    const added = await queryPg<{ pk: number }>(
      older.url,
      "INSERT INTO source_titles (id, title) VALUES ('jour.1900002', 'Annals of Ecology') RETURNING pk::int",
    );
    assert.deepEqual(added, [{ pk: 10 }]);
  });
});
