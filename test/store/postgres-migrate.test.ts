// The PostgreSQL migration runner: numbered files per set, each in its own transaction,
// recorded in schema_migrations, applied once even by instances starting together.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { openPostgres, type PostgresPools } from '../../src/store/postgres/pool.ts';
import { listMigrations, migratePostgres } from '../../src/store/postgres/migrate.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../fixtures/pg-db.ts';

/** A migrations folder of its own: `{ 'things/0001-make-things.sql': 'CREATE ...' }`. */
function migrationsDir(files: Record<string, string>): URL {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-migrations-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return pathToFileURL(`${dir}/`);
}

describe('PostgreSQL migrations', () => {
  let database: TestPgDatabase;
  let pools: PostgresPools;
  before(async () => {
    database = await createTestPgDatabase('migrate');
    pools = openPostgres({ url: database.url, max: 4 });
  });
  after(async () => {
    await pools.close();
    await database.drop();
  });

  test("Quarry's own sets are numbered from 1 without gaps", () => {
    const sets = new Set(listMigrations().keys());
    assert.ok(sets.has('accounts') && sets.has('web'), [...sets].join(', '));
  });

  test('a dry run lists and changes nothing; a run applies once; instances starting together apply once', async () => {
    const dir = migrationsDir({
      'things/0001-make-things.sql': 'CREATE TABLE things (id INTEGER PRIMARY KEY);',
      'things/0002-name-things.ts':
        "export default async function up(client) { await client.query('ALTER TABLE things ADD COLUMN name TEXT'); }\n",
    });
    const dry = await migratePostgres(pools.primary, { dir, dryRun: true });
    assert.deepEqual(
      dry.map((s) => `${s.set} ${s.version} ${s.name}`),
      ['things 1 make things', 'things 2 name things'],
    );
    const { rows } = await pools.primary.query("SELECT to_regclass('schema_migrations') AS t");
    assert.equal(rows[0].t, null, 'a dry run creates nothing');
    const runs = await Promise.all([1, 2, 3].map(() => migratePostgres(pools.primary, { dir })));
    assert.equal(runs.flat().length, 2, 'each migration applied by exactly one of three concurrent runs');
    await pools.primary.query("INSERT INTO things (id, name) VALUES (1, 'x')");
    assert.deepEqual(await migratePostgres(pools.primary, { dir }), []);
    const applied = await pools.primary.query(
      "SELECT version, name FROM schema_migrations WHERE migration_set = 'things' ORDER BY version",
    );
    assert.deepEqual(applied.rows, [
      { version: 1, name: 'make things' },
      { version: 2, name: 'name things' },
    ]);
  });

  test('a failing migration leaves nothing of itself and is not recorded', async () => {
    const dir = migrationsDir({
      'broken/0001-good.sql': 'CREATE TABLE broken_good (id INTEGER);',
      'broken/0002-bad.sql': 'CREATE TABLE broken_half (id INTEGER); SELECT no_such_function();',
    });
    await assert.rejects(migratePostgres(pools.primary, { dir }), /no_such_function/);
    const { rows } = await pools.primary.query(
      "SELECT to_regclass('broken_good') AS good, to_regclass('broken_half') AS half, (SELECT max(version) FROM schema_migrations WHERE migration_set = 'broken') AS version",
    );
    assert.deepEqual(rows[0], { good: 'broken_good', half: null, version: 1 });
  });

  test('numbers with a gap are refused before anything runs', () => {
    const dir = migrationsDir({ 'gappy/0001-a.sql': 'SELECT 1;', 'gappy/0003-c.sql': 'SELECT 1;' });
    assert.throws(() => listMigrations({ dir }), /must number its files 1, 2, 3, ...; found 3 at position 2/);
  });
});
