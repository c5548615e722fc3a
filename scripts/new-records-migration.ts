// Writes the next records migration of both engines for what the storage layout declares and
// the frozen migrations do not make yet: a new source's tables, link tables, full text, narrow
// and value-count tables, and new indexes.
//
//   npx tsx scripts/new-records-migration.ts --source patents "patents: their table, link tables, full text and narrow table"
//   npx tsx scripts/new-records-migration.ts "value counts for the facets of patents, datasets and trials"
//
// The name is what `schema_migrations` records (one line). For each engine the script brings a
// new database through every frozen migration, compares it with one built from the declared
// layout (`declaredRecordSchemaSql`, `declaredPgRecordSchemaSql`), and writes the declared
// statements of the objects the migrated one lacks, in declared order, as
// `src/sources/<name>/migrations/<engine>/NNNN-<slug>.sql` with `--source <name>` (the tables
// of that source alone), else `src/store/<engine>/migrations/records/NNNN-<slug>.sql` (tables
// of no source, or of several). NNNN is the next number of the engine's one sequence across
// the store's folder and every source's. A table both hold in different forms
// (a column added to an old table) is not something a CREATE statement can mend: the script
// names it and writes nothing, and that migration is written by hand (docs/storage.md,
// "Migrations are frozen"). PostgreSQL is the server at QUARRY_TEST_PG (default
// postgres://postgres@127.0.0.1:5432); its two scratch databases are dropped afterwards.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { frozenHeader, slugOf, SOURCES_DIR, type MigrationEngine } from '../src/store/migration-files.ts';
import { declaredPgRecordSchemaSql } from '../src/store/postgres/declared-schema.ts';
import { declaredRecordSchemaSql } from '../src/store/sqlite/declared-schema.ts';
import { RECORD_MIGRATIONS_DIR } from '../src/store/sqlite/frozen-migrations.ts';
import { migrate } from '../src/store/sqlite/migrate.ts';
import { registerPostingFunctions } from '../src/store/sqlite/posting-lists.ts';
import { RECORD_MIGRATIONS } from '../src/store/sqlite/records-schema.ts';
import { listMigrations, MIGRATIONS_DIR } from '../src/store/postgres/migrate.ts';
import { applyRecordMigrations, createTestPgDatabase } from '../test/fixtures/pg-db.ts';
import { pgSchemaShape, shapeDifferences, sqliteSchemaShape } from '../test/fixtures/schema-shape.ts';

const USAGE =
  'usage: npx tsx scripts/new-records-migration.ts [--source <name>] "<what the migration makes, one line>"';
const { values, positionals } = (() => {
  try {
    return parseArgs({ options: { source: { type: 'string' } }, allowPositionals: true });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
})();
const name = positionals.join(' ').trim();
if (name === '' || name.includes('\n')) {
  console.error(USAGE);
  process.exit(2);
}
const source = values.source;
if (source !== undefined && !existsSync(new URL(`${source}/`, SOURCES_DIR))) {
  console.error(`no source folder src/sources/${source}/\n${USAGE}`);
  process.exit(2);
}

/** Where an engine's new migration goes: the source's folder (made when new), or the store's. */
function targetDir(engine: MigrationEngine, storeDir: URL): URL {
  if (source === undefined) return storeDir;
  const dir = new URL(`${source}/migrations/${engine}/`, SOURCES_DIR);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The object a CREATE statement makes: `CREATE [VIRTUAL] TABLE|VIEW|[UNIQUE] INDEX [IF NOT EXISTS] <name>`. */
function objectOf(statement: string): { readonly kind: 'table' | 'index'; readonly name: string } {
  const match = /^\s*CREATE\s+(?:VIRTUAL\s+)?(?:UNIQUE\s+)?(TABLE|VIEW|INDEX)\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)/i.exec(
    statement,
  );
  if (match === null) throw new Error(`not a CREATE statement: ${statement.slice(0, 80)}`);
  return { kind: (match[1] as string).toUpperCase() === 'INDEX' ? 'index' : 'table', name: match[2] as string };
}

/**
 * The declared statements of what `held` lacks; throws naming the tables both hold in different
 * forms, beyond the indexes the statements add.
 */
function missingStatements(
  declared: readonly string[],
  held: ReadonlySet<string>,
  differences: readonly string[],
  engine: string,
): string[] {
  const missing = declared.filter((statement) => !held.has(objectOf(statement).name));
  const added = new Set(missing.map((s) => objectOf(s).name));
  const addedIndexTables = new Set(
    missing.filter((s) => objectOf(s).kind === 'index').map((s) => /\bON\s+(\w+)/i.exec(s)?.[1] ?? ''),
  );
  // A virtual table (FTS5) makes its shadow tables (`<name>_data`, `<name>_idx`, ...) itself.
  const addedVirtual = missing.filter((s) => /^\s*CREATE\s+VIRTUAL\s/i.test(s)).map((s) => objectOf(s).name);
  const shadowOfAdded = (table: string): boolean =>
    addedVirtual.some(
      (v) => /^(config|data|docsize|idx|content)$/.test(table.slice(v.length + 1)) && table.startsWith(`${v}_`),
    );
  const changed = differences
    .map((d) => d.slice(0, d.indexOf(':')))
    .filter((table) => !added.has(table) && !addedIndexTables.has(table) && !shadowOfAdded(table));
  if (changed.length > 0)
    throw new Error(
      `${engine}: ${changed.join(', ')} exist(s) in another form than declared; write that migration by hand`,
    );
  return missing;
}

/**
 * A CREATE TABLE statement that does nothing where the table exists: a migration adding a
 * source's tables then also runs on a database that holds them already, as one the upgrade
 * tests roll back to an older version does (its later tables stay).
 */
function rerunnable(statement: string): string {
  return statement.replace(/^(\s*CREATE\s+(?:VIRTUAL\s+)?TABLE\s+)(?!IF\s+NOT\s+EXISTS\b)/i, '$1IF NOT EXISTS ');
}

/** The highest version of a set (every folder of it), 0 for none. */
function lastVersion(migrations: readonly { readonly version: number }[]): number {
  return Math.max(0, ...migrations.map((m) => m.version));
}

function writeMigration(dir: URL, version: number, statements: readonly string[], engine: string): void {
  const file = new URL(`${String(version).padStart(4, '0')}-${slugOf(name)}.sql`, dir);
  const header = frozenHeader(name, [
    `Records migration ${version} (${engine}): written by scripts/new-records-migration.ts from the declared layout.`,
    'Never edit it; a change of the layout is a new migration (docs/storage.md).',
  ]);
  writeFileSync(file, header + statements.map((s) => `${rerunnable(s).trim()};\n`).join(''));
  console.log(`${engine}: ${statements.length} statements → ${file.pathname}`);
}

function sqlite(): void {
  const migrated = new Database(':memory:');
  migrate(migrated, 'records', RECORD_MIGRATIONS);
  const declared = new Database(':memory:');
  registerPostingFunctions(declared);
  const statements = declaredRecordSchemaSql();
  for (const statement of statements) declared.exec(statement);
  const held = new Set(migrated.prepare('SELECT name FROM sqlite_schema').pluck().all() as string[]);
  const missing = missingStatements(
    statements,
    held,
    shapeDifferences(sqliteSchemaShape(migrated), sqliteSchemaShape(declared)),
    'SQLite',
  );
  if (missing.length === 0) console.log('SQLite: the frozen migrations already make the declared layout');
  else
    writeMigration(targetDir('sqlite', RECORD_MIGRATIONS_DIR), lastVersion(RECORD_MIGRATIONS) + 1, missing, 'SQLite');
}

async function postgres(): Promise<void> {
  const migrated = await createTestPgDatabase('new_migration_migrated');
  const declared = await createTestPgDatabase('new_migration_declared');
  try {
    await applyRecordMigrations(migrated.url);
    const statements = declaredPgRecordSchemaSql();
    const client = new pg.Client({ connectionString: declared.url });
    await client.connect();
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
    const reader = new pg.Client({ connectionString: migrated.url });
    await reader.connect();
    let held: Set<string>;
    try {
      const rows = await reader.query<{ name: string }>(
        "SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'v', 'i')",
      );
      held = new Set(rows.rows.map((r) => r.name));
    } finally {
      await reader.end();
    }
    const missing = missingStatements(
      statements,
      held,
      shapeDifferences(await pgSchemaShape(migrated.url), await pgSchemaShape(declared.url)),
      'PostgreSQL',
    );
    const version = lastVersion(listMigrations({ sets: ['records'] }).get('records') ?? []) + 1;
    if (missing.length === 0) console.log('PostgreSQL: the frozen migrations already make the declared layout');
    else writeMigration(targetDir('postgres', new URL('records/', MIGRATIONS_DIR)), version, missing, 'PostgreSQL');
  } finally {
    await migrated.drop();
    await declared.drop();
  }
}

try {
  sqlite();
  await postgres();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
