/**
 * Connections to PostgreSQL. `openPgPool` makes one pool over one server; `openPostgres`
 * makes the set a deployment uses: a pool on the primary (every write, and reads that must
 * see the latest write: tokens, keys, sessions) and, when `readUrls` name replicas, one pool
 * per replica for reads that may lag (record queries), taken in turn. Without replicas,
 * reads go to the primary.
 *
 * Numbers come back as numbers (`count(*)` is bigint and `avg()` numeric, which
 * node-postgres would otherwise hand over as strings; Quarry's bigints are ids, counts and
 * millisecond times, far below 2^53); `json` columns come back as their text, parsed only by
 * whoever needs the object.
 *
 * @example
 * const pg = openPostgres({ url: 'postgres://postgres@127.0.0.1/quarry', readUrls: [replica] });
 * await pg.primary.query('SELECT 1');
 * await pg.reader().query('SELECT count(*) FROM publications');
 * await pg.close();
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
    // A server that is down must fail a request, not hang it.
    connectionTimeoutMillis: 10_000,
  });
  // An idle connection the server drops (restart, failover) must not crash the process.
  pool.on('error', () => undefined);
  return pool;
}

export interface PostgresOptions extends PgPoolOptions {
  readonly url: string;
  /** Read replicas; reads are spread over them in turn. */
  readonly readUrls?: readonly string[];
}

export interface PostgresPools {
  /** Writes, and reads that must see the latest write. */
  readonly primary: pg.Pool;
  /** A pool for reads that may lag behind the primary: the next replica, or the primary. */
  reader(): pg.Pool;
  /** Every pool, primary first, for start-up checks and health. */
  readonly all: readonly pg.Pool[];
  close(): Promise<void>;
}

/** Opens the pools (lazily: no connection is made before the first query). */
export function openPostgres(options: PostgresOptions): PostgresPools {
  const primary = openPgPool(options.url, options);
  const replicas = (options.readUrls ?? []).map((url) => openPgPool(url, options));
  let next = 0;
  let closed: Promise<void> | undefined;
  return {
    primary,
    reader() {
      if (replicas.length === 0) return primary;
      const chosen = replicas[next % replicas.length] as pg.Pool;
      next++;
      return chosen;
    },
    all: [primary, ...replicas],
    close() {
      closed ??= Promise.all([primary, ...replicas].map((p) => p.end())).then(() => undefined);
      return closed;
    },
  };
}

/**
 * Runs `work` in one transaction on one connection of `pool`: COMMIT when it resolves,
 * ROLLBACK when it throws.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
