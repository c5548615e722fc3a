import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { QuarryError } from '../../src/errors/index.ts';
import { FULLTEXT_TABLES, LINK_TABLES, SOURCE_TABLES } from '../../src/model/storage.ts';
import { migrate } from '../../src/store/sqlite/migrate.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { RECORD_INDEXES, RECORD_MIGRATIONS } from '../../src/store/sqlite/records-schema.ts';
import { upgradeRecordDatabase } from '../../src/store/sqlite/records-store.ts';

test('the migrations create every table, index and full-text table of the layout', () => {
  const db = new Database(':memory:');
  assert.deepEqual(
    migrate(db, 'records', RECORD_MIGRATIONS),
    RECORD_MIGRATIONS.map((m) => m.version),
  );
  const names = new Set(
    db.prepare("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").pluck().all() as string[],
  );
  const expected = [
    ...Object.values(SOURCE_TABLES).map((s) => s.table),
    ...Object.values(SOURCE_TABLES).flatMap((s) => Object.values(s.keptApart ?? {})),
    ...LINK_TABLES.map((l) => l.table),
    ...FULLTEXT_TABLES.flatMap((f) => [f.table, `${f.table}_vocab`]),
    ...RECORD_INDEXES.map((i) => i.name),
    'countries',
    'cities',
    'states',
    'store_meta',
  ];
  for (const name of expected) assert.ok(names.has(name), `${name} exists`);
  // Scalar columns carry the schema field names.
  const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck();
  assert.deepEqual(columns.all('publications').slice(0, 4), ['pk', 'id', 'title', 'acknowledgements']);
  // Version 15 keeps the abstracts in tables of their own.
  assert.deepEqual(columns.all('publication_abstracts'), ['pk', 'abstract']);
  assert.deepEqual(columns.all('grant_abstracts'), ['pk', 'abstract']);
  assert.ok((columns.all('grants') as string[]).includes('funding_usd'));
  // Version 6 copies the publication's year onto its organization links, version 9 its date.
  assert.deepEqual(columns.all('publication_research_orgs'), ['publication_pk', 'org_id', 'year', 'date']);
});

test('a database made at version 1 is refused for queries until upgraded, and upgrading adds the later indexes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-upgrade-'));
  const path = join(dir, 'v1.db');
  const v1 = new Database(path);
  migrate(v1, 'records', RECORD_MIGRATIONS.slice(0, 1));
  v1.close();
  assert.throws(
    () => openReadOnly(path),
    (e: unknown) =>
      e instanceof QuarryError && e.code === 'ENGINE_DATABASE_UNAVAILABLE' && /version 1.*quarry serve/.test(e.message),
  );
  assert.deepEqual(
    upgradeRecordDatabase(path),
    RECORD_MIGRATIONS.slice(1).map((m) => m.version),
  );
  assert.deepEqual(upgradeRecordDatabase(path), [], 'a current database is left as it is');
  const db = openReadOnly(path);
  const indexes = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").pluck().all() as string[]);
  for (const index of RECORD_INDEXES) assert.ok(indexes.has(index.name), `${index.name} exists`);
  db.close();
  // Files that are not record databases are left for the engine to refuse.
  assert.deepEqual(upgradeRecordDatabase(join(dir, 'missing.db')), []);
  assert.equal(existsSync(join(dir, 'missing.db')), false);
  rmSync(dir, { recursive: true, force: true });
});
