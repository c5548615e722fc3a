/**
 * Queries on a local record database, run in this process (`quarry query --db FILE`). It is
 * a client QueryChannel, so `--all`, `--out` and `--resume` page a local database with the
 * very code that pages a service.
 */
import type { QueryChannel } from '../client/client.ts';
import { runQuery } from '../engine/backends/sqlite/query-context.ts';
import type { DslVersion } from '../engine/types.ts';
import { openReadOnly } from '../store/sqlite/open.ts';
import { upgradeRecordDatabase } from '../store/sqlite/records-store.ts';

export interface LocalQueries extends QueryChannel {
  close(): void;
}

/**
 * Opens the database read-only for queries in language version `dslVersion`; a database from
 * an older Quarry first gets its missing migrations, as `quarry serve` does.
 *
 * @example
 * const local = openLocalQueries('records.db', 2);
 * await local.post('search publications return year'); // { year: [...], _stats: {...} }
 * local.close();
 */
export function openLocalQueries(dbPath: string, dslVersion: DslVersion): LocalQueries {
  upgradeRecordDatabase(dbPath);
  const db = openReadOnly(dbPath);
  return {
    login: () => Promise.resolve(),
    post: (text) => Promise.resolve().then(() => runQuery(db, text, { dslVersion })),
    close: () => db.close(),
  };
}
