// The records migrations a source brings live in its own folder
// (src/sources/<name>/migrations/<engine>/), numbered in each engine's one sequence with the
// store's own (src/store/<engine>/migrations/records/). These tests check that both engines
// read them from there, refuse a number held twice, and that the migrations moved there from
// the store's folders kept the versions and names databases recorded them under.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { SOURCE_TABLES } from '../../src/model/storage.ts';
import { SOURCE_NAMES } from '../../src/model/sources.ts';
import { migrationFilesOf, SOURCES_DIR, sourceMigrationDirs } from '../../src/store/migration-files.ts';
import { listMigrations, migratePostgres } from '../../src/store/postgres/migrate.ts';
import { openPostgres } from '../../src/store/postgres/pool.ts';
import { frozenMigrations } from '../../src/store/sqlite/frozen-migrations.ts';
import { migrate } from '../../src/store/sqlite/migrate.ts';
import { LEGACY_RECORD_KINDS, RECORD_MIGRATIONS } from '../../src/store/sqlite/records-schema.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../fixtures/pg-db.ts';

/** A folder of files of its own: `{ 'records/0001-a.sql': '...' }`. */
function folder(files: Record<string, string>): URL {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-source-migrations-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return pathToFileURL(`${dir}/`);
}

/**
 * The migrations moved from the store's folders to their sources' folders, as every database
 * made before the move recorded them in `schema_migrations`: their versions and names are
 * history and must not change with the folder that holds them.
 */
const MOVED = {
  sqlite: [
    [20, 'patents', 'patents: their table, link tables, full text, narrow table and value counts'],
    [21, 'datasets', 'datasets: their table, link tables, full text, narrow table and repositories'],
    [22, 'clinical_trials', 'clinical trials: their table, link tables, full text, narrow'],
  ],
  postgres: [
    [12, 'patents', 'patents: their table, link tables, full text, narrow table and value counts'],
    [13, 'datasets', 'datasets: their table, link tables, full text, narrow table and repositories'],
    [14, 'clinical_trials', 'clinical trials: their table, link tables, full text, narrow'],
  ],
} as const;

const pgRecords = () => listMigrations({ sets: ['records'] }).get('records') ?? [];

describe('records migrations in source folders', () => {
  test('a number held by two folders is refused, naming both files', () => {
    const root = folder({
      'store/0001-first.sql': '-- name: first\nCREATE TABLE a (x INTEGER);',
      'store/0002-second.sql': '-- name: second\nCREATE TABLE b (x INTEGER);',
      'sources/things/migrations/sqlite/0002-things.sql': '-- name: things\nCREATE TABLE things (x INTEGER);',
    });
    const dirs = [new URL('store/', root), ...sourceMigrationDirs('sqlite', new URL('sources/', root))];
    assert.throws(
      () => frozenMigrations(dirs),
      (error: Error) =>
        /migration 2 is numbered twice/.test(error.message) &&
        error.message.includes(fileURLToPath(new URL('store/0002-second.sql', root))) &&
        error.message.includes(fileURLToPath(new URL('sources/things/migrations/sqlite/0002-things.sql', root))),
    );
    const pg = folder({
      'migrations/records/0001-first.sql': 'SELECT 1;',
      'sources/things/migrations/postgres/0001-things.sql': 'SELECT 1;',
    });
    assert.throws(
      () => listMigrations({ dir: new URL('migrations/', pg), sourcesDir: new URL('sources/', pg) }),
      /migration 1 is numbered twice: .*migrations\/records\/0001-first\.sql and .*things\/migrations\/postgres\/0001-things\.sql/,
    );
  });

  test("a source folder's migrations run in the number order of the one sequence, each engine its own", () => {
    const root = folder({
      'store/0001-first.sql': '-- name: first\nCREATE TABLE a (x INTEGER);',
      'store/0003-third.sql': '-- name: third\nCREATE TABLE c (x INTEGER);',
      'sources/things/migrations/sqlite/0002-things.sql': '-- name: things\nCREATE TABLE things (x INTEGER);',
      'sources/things/migrations/postgres/0001-things-pg.sql': 'SELECT 1;',
      'sources/plain/model.ts': '',
    });
    const sources = new URL('sources/', root);
    const migrations = frozenMigrations([new URL('store/', root), ...sourceMigrationDirs('sqlite', sources)]);
    assert.deepEqual(
      migrations.map((m) => [m.version, m.name]),
      [
        [1, 'first'],
        [2, 'things'],
        [3, 'third'],
      ],
    );
    const db = new Database(':memory:');
    assert.deepEqual(migrate(db, 'records', migrations), [1, 2, 3]);
    assert.deepEqual(
      db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name = 'things'").pluck().all(),
      ['things'],
    );
    assert.deepEqual(
      sourceMigrationDirs('postgres', sources).map((d) => d.href),
      [new URL('things/migrations/postgres/', sources).href],
      'a folder without migrations/ adds nothing',
    );
  });

  test('every file of a source folder is in its engine’s records set, numbered 1, 2, 3, ... across the folders', () => {
    for (const engine of ['sqlite', 'postgres'] as const) {
      const listed = engine === 'sqlite' ? RECORD_MIGRATIONS.map((m) => m.version) : pgRecords().map((m) => m.version);
      assert.deepEqual(
        listed,
        listed.map((_, i) => i + 1),
        engine,
      );
      const inSources = migrationFilesOf(sourceMigrationDirs(engine), ['sql']);
      assert.ok(inSources.length >= 3, `${engine}: the source folders hold their migrations`);
      for (const f of inSources) assert.ok(listed.includes(f.version), `${engine}: ${f.file}`);
    }
  });

  test('the migrations moved to source folders keep the versions and names databases recorded', () => {
    for (const [version, source, name] of MOVED.sqlite) {
      const m = RECORD_MIGRATIONS.find((r) => r.version === version);
      assert.equal(m?.name, name);
      assert.ok(m.path.href.startsWith(new URL(`${source}/migrations/sqlite/`, SOURCES_DIR).href), m.path.href);
    }
    const pg = pgRecords();
    for (const [version, , name] of MOVED.postgres) assert.equal(pg.find((r) => r.version === version)?.name, name);
    for (const [, source, name] of MOVED.postgres) {
      const [file] = migrationFilesOf(sourceMigrationDirs('postgres'), ['sql']).filter((f) =>
        f.path.href.startsWith(new URL(`${source}/`, SOURCES_DIR).href),
      );
      assert.ok(file !== undefined && readFileSync(file.path, 'utf8').startsWith(`-- name: ${name}\n`), source);
    }
  });

  test('a SQLite database that held every migration before the move has nothing to run, under the same names', () => {
    const db = new Database(':memory:');
    migrate(db, 'records', RECORD_MIGRATIONS);
    // As the store recorded them when every file was in its own folder.
    const recorded = db.prepare("SELECT version, name FROM schema_migrations WHERE migration_set = 'records'").all();
    for (const [version, , name] of MOVED.sqlite) assert.deepEqual(recorded[version - 1], { version, name });
    assert.deepEqual(migrate(db, 'records', RECORD_MIGRATIONS), []);
  });

  test('every source added after the first four gets its table from a migration in its own folder, on both engines', () => {
    const later = SOURCE_NAMES.filter((name) => !LEGACY_RECORD_KINDS.has(name));
    assert.ok(later.length >= 3);
    for (const engine of ['sqlite', 'postgres'] as const) {
      const files = migrationFilesOf(
        [new URL(`../../src/store/${engine}/migrations/records/`, import.meta.url), ...sourceMigrationDirs(engine)],
        ['sql'],
      );
      for (const name of later) {
        const table = SOURCE_TABLES[name].table;
        const creates = new RegExp(`^CREATE TABLE (?:IF NOT EXISTS )?${table} \\(`, 'm');
        const making = files.filter((f) => creates.test(readFileSync(f.path, 'utf8')));
        assert.equal(making.length, 1, `${engine}: one migration makes ${table}`);
        assert.ok(
          making[0]?.path.href.startsWith(new URL(`${name}/migrations/${engine}/`, SOURCES_DIR).href),
          `${engine}: the migration making ${table} is in src/sources/${name}/migrations/${engine}/ (move it there, keeping its name and number: docs/adding-a-source.md)`,
        );
      }
    }
  });

  describe('PostgreSQL', () => {
    let database: TestPgDatabase;
    before(async () => {
      database = await createTestPgDatabase('source_migrations');
    });
    after(async () => {
      await database.drop();
    });

    test('a database that held every migration before the move has nothing to run, under the same names', async () => {
      const pools = openPostgres({ url: database.url, max: 2 });
      try {
        await migratePostgres(pools.primary);
        const { rows } = await pools.primary.query<{ version: number; name: string }>(
          "SELECT version, name FROM schema_migrations WHERE migration_set = 'records' ORDER BY version",
        );
        for (const [version, , name] of MOVED.postgres) assert.deepEqual(rows[version - 1], { version, name });
        assert.deepEqual(await migratePostgres(pools.primary, { dryRun: true }), []);
      } finally {
        await pools.close();
      }
    });
  });
});
