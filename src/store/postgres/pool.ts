/**
 * PostgreSQL connection pools. Numbers come back as numbers (`count(*)` is bigint and
 * `avg()` numeric, which node-postgres would otherwise hand over as strings); `json`
 * columns come back as their text, parsed only by whoever needs the object.
 */
import pg from 'pg';

const INT8 = 20;
const NUMERIC = 1700;
const JSON_OID = 114;

const textParser = (oid: number): ((value: string) => unknown) => {
  if (oid === INT8 || oid === NUMERIC) return (value) => Number(value);
  if (oid === JSON_OID) return (value) => value;
  return pg.types.getTypeParser(oid, 'text') as (value: string) => unknown;
};

const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    format === 'binary'
      ? (pg.types.getTypeParser(oid, 'binary') as (value: Buffer) => unknown)
      : textParser(oid)) as pg.CustomTypesConfig['getTypeParser'],
};

export interface PgPoolOptions {
  /** Most connections open at once (default 10). */
  readonly max?: number;
  /** Set on every connection (`application_name` in pg_stat_activity). */
  readonly applicationName?: string;
}

/** A pool over one server, e.g. `openPgPool('postgres://postgres@127.0.0.1:5432/quarry')`. */
export function openPgPool(url: string, options: PgPoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    types,
    application_name: options.applicationName ?? 'quarry',
  });
  // An idle connection the server drops (restart, failover) must not crash the process.
  pool.on('error', () => undefined);
  return pool;
}

/** Whether a `--db` / `database` value names a PostgreSQL server rather than a file. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}
