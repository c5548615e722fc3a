/**
 * Numbered schema migrations for PostgreSQL, the counterpart of `../sqlite/migrate.ts`, run
 * by `quarry migrate`, at `quarry serve` start and by the record writer.
 *
 * A set is a part of the schema that evolves on its own (`accounts`, `web`, `imports`,
 * `records`); versions within a set are 1, 2, 3, ... without gaps, and a released version is
 * never edited: a change is the next version. Each set is a folder of files,
 * `src/store/postgres/migrations/<set>/<NNNN>-<what-it-does>.<sql|ts>`. A `.sql` file runs
 * as written, as one query (several statements and `DO` blocks are fine), and is recorded
 * under the name its first line gives (`-- name: ...`), else its file name's words; a `.ts`
 * file exports `default async function up(client: pg.PoolClient)` for what SQL alone cannot
 * express. The `records` files are the statements the code once generated from the storage
 * layout, frozen (docs/storage.md, "Migrations are frozen"); a source's own are in its folder,
 * `src/sources/<name>/migrations/postgres/`, numbered in the set's one sequence. A list in code can be given too
 * (`code`), as tests do to apply a set only up to a version.
 * Each migration runs in its own transaction, so a failed one leaves nothing of itself.
 * Applied versions are recorded in `schema_migrations` (migration_set, version, name,
 * applied_at). An advisory lock makes instances that start together apply each version once.
 *
 * @example
 * await migratePostgres(pool);                                   // [{ set: 'accounts', version: 1, name: ... }, ...]
 * await migratePostgres(pool, { dryRun: true });                 // what would run; nothing changes
 * await migratePostgres(pool, { sets: ['records'] });            // one set
 * await migratePostgres(pool, { sets: [], code: { records: upTo10 } }); // a list in code: records 1–10 only
 */
import { readFileSync, readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type pg from 'pg';
import { packageFile } from '../../package-root.ts';
import { migrationFilesOf, migrationName, SOURCES_DIR, sourceMigrationDirs } from '../migration-files.ts';

/** Found from the package root: compiled, this module lives in a bundle chunk under dist/. */
export const MIGRATIONS_DIR = pathToFileURL(packageFile('src/store/postgres/migrations/'));

export interface PgMigration {
  readonly version: number;
  readonly name: string;
  /** Statements run in order inside the migration's transaction, or a function that runs them. */
  readonly up: readonly string[] | ((client: pg.PoolClient) => Promise<void>);
}

export interface MigrationStep {
  readonly set: string;
  readonly version: number;
  readonly name: string;
}

/** The set whose migrations source folders hold too. */
const SOURCE_SET = 'records';

/**
 * The file-defined sets (all, or those named in `sets`), each as its ordered list: the files
 * of `<dir>/<set>/`, and for `records` those of the source folders too (`sourcesDir`; with
 * the default `dir`, `src/sources/`). Throws when a set's numbers are not 1, 2, 3, ... or two
 * files hold one number.
 */
export function listMigrations(
  options: { sets?: readonly string[]; dir?: URL; sourcesDir?: URL } = {},
): Map<string, readonly PgMigration[]> {
  const dir = options.dir ?? MIGRATIONS_DIR;
  const sourcesDir = options.sourcesDir ?? (options.dir === undefined ? SOURCES_DIR : undefined);
  const sets = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && (options.sets === undefined || options.sets.includes(e.name)))
    .map((e) => e.name)
    .sort();
  const out = new Map<string, readonly PgMigration[]>();
  for (const set of sets) {
    const dirs = [new URL(`${set}/`, dir)];
    if (set === SOURCE_SET && sourcesDir !== undefined) dirs.push(...sourceMigrationDirs('postgres', sourcesDir));
    const migrations = migrationFilesOf(dirs, ['sql', 'ts', 'js']).map(({ version, path: file, slug }): PgMigration => {
      if (!file.pathname.endsWith('.sql'))
        return { version, name: migrationName('', slug), up: (client) => runModule(file, client) };
      const sql = readFileSync(file, 'utf8');
      return { version, name: migrationName(sql, slug), up: [sql] };
    });
    out.set(set, checkNumbering(set, migrations));
  }
  return out;
}

async function runModule(file: URL, client: pg.PoolClient): Promise<void> {
  const module = (await import(file.href)) as { default?: (client: pg.PoolClient) => Promise<void> };
  if (typeof module.default !== 'function')
    throw new Error(`${file.pathname} must export default async function up(client)`);
  await module.default(client);
}

function checkNumbering(set: string, migrations: readonly PgMigration[]): PgMigration[] {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(
        `PostgreSQL migration set '${set}' must number its files 1, 2, 3, ...; found ${m.version} at position ${i + 1}`,
      );
  });
  return sorted;
}

/** An arbitrary constant: the advisory lock that serialises migration runs. */
const MIGRATION_LOCK = 7_402_114_555;

/**
 * Applies what the database has not seen of every file-defined set (or those named in
 * `sets`) plus the `code` sets (which take the place of a file set of their name), or with
 * `dryRun` only lists it (creating nothing, not even `schema_migrations`). Returns the steps
 * applied (or pending).
 */
export async function migratePostgres(
  pool: pg.Pool,
  options: {
    sets?: readonly string[];
    dir?: URL;
    code?: Readonly<Record<string, readonly PgMigration[]>>;
    dryRun?: boolean;
  } = {},
): Promise<MigrationStep[]> {
  const all = listMigrations(options);
  for (const [set, migrations] of Object.entries(options.code ?? {})) all.set(set, checkNumbering(set, migrations));
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      const done = await appliedVersions(client, options.dryRun !== true);
      const steps: MigrationStep[] = [];
      for (const [set, migrations] of all) {
        for (const m of migrations) {
          if (done.has(`${set}:${m.version}`)) continue;
          steps.push({ set, version: m.version, name: m.name });
          if (options.dryRun !== true) await apply(client, set, m);
        }
      }
      return steps;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** The highest applied version of a set (0 when none), e.g. to refuse a database older than the code. */
export async function pgSchemaVersion(pool: pg.Pool, set: string): Promise<number> {
  const exists = await pool.query("SELECT to_regclass('schema_migrations') IS NOT NULL AS ok");
  if ((exists.rows[0] as { ok: boolean }).ok !== true) return 0;
  const r = await pool.query('SELECT coalesce(max(version), 0) AS v FROM schema_migrations WHERE migration_set = $1', [
    set,
  ]);
  return (r.rows[0] as { v: number }).v;
}

async function appliedVersions(client: pg.PoolClient, create: boolean): Promise<Set<string>> {
  const exists = await client.query("SELECT to_regclass('schema_migrations') IS NOT NULL AS ok");
  if ((exists.rows[0] as { ok: boolean }).ok !== true) {
    if (create)
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        migration_set text NOT NULL,
        version integer NOT NULL,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (migration_set, version)
      )`);
    return new Set();
  }
  const { rows } = await client.query<{ migration_set: string; version: number }>(
    'SELECT migration_set, version FROM schema_migrations',
  );
  return new Set(rows.map((r) => `${r.migration_set}:${r.version}`));
}

async function apply(client: pg.PoolClient, set: string, m: PgMigration): Promise<void> {
  await client.query('BEGIN');
  try {
    if (typeof m.up === 'function') await m.up(client);
    else for (const statement of m.up) await client.query(statement);
    await client.query('INSERT INTO schema_migrations (migration_set, version, name) VALUES ($1, $2, $3)', [
      set,
      m.version,
      m.name,
    ]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
