/**
 * Numbered migrations for PostgreSQL, the counterpart of `../sqlite/migrate.ts`: each named
 * set (`records`, `accounts`, ...) applies the versions the database has not seen, each in its
 * own transaction, recorded in `schema_migrations`. An advisory lock per set makes two
 * instances starting at once apply each version exactly once.
 *
 * @example await migratePg(pool, 'records', RECORD_PG_MIGRATIONS) // → [1, 2] the first time, [] after
 */
import type pg from 'pg';

export interface PgMigration {
  readonly version: number;
  readonly name: string;
  /** Statements run in order inside the migration's transaction. */
  readonly up: readonly string[] | ((client: pg.PoolClient) => Promise<void>);
}

/** @returns the versions applied by this call */
export async function migratePg(pool: pg.Pool, set: string, migrations: readonly PgMigration[]): Promise<number[]> {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`migration set '${set}' must number its versions 1, 2, 3, ...; found ${m.version}`);
  });
  const client = await pool.connect();
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      migration_set text NOT NULL,
      version integer NOT NULL,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (migration_set, version)
    )`);
    const applied: number[] = [];
    for (const m of sorted) {
      await client.query('BEGIN');
      try {
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`quarry-migrate-${set}`]);
        const seen = await client.query('SELECT 1 FROM schema_migrations WHERE migration_set = $1 AND version = $2', [
          set,
          m.version,
        ]);
        if (seen.rowCount === 0) {
          if (typeof m.up === 'function') await m.up(client);
          else for (const statement of m.up) await client.query(statement);
          await client.query('INSERT INTO schema_migrations (migration_set, version, name) VALUES ($1, $2, $3)', [
            set,
            m.version,
            m.name,
          ]);
          applied.push(m.version);
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
    return applied;
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
