/**
 * A PostgreSQL server as Quarry's database (a `postgres://` URL, with `readUrls` for
 * replicas): records, account and web tables and the import journal on the primary, queries
 * on a `pg` pool over the replicas when there are any. The database must exist (`createdb`);
 * its tables are made here. The token-signing secret is configured, never in the database.
 */
import { createPostgresEngine } from '../engine/backends/postgres/engine.ts';
import type { DslVersion } from '../engine/types.ts';
import { QuarryError } from '../errors/index.ts';
import { postgresAccountStore } from '../store/postgres/account-store.ts';
import { unfinishedPgImports } from '../store/postgres/import-journal.ts';
import { legacyJwtSecret } from '../store/postgres/legacy-jwt-secret.ts';
import { migratePostgres } from '../store/postgres/migrate.ts';
import type { PostgresPools } from '../store/postgres/pool.ts';
import { openPgRecordWriter } from '../store/postgres/records-writer.ts';
import { postgresWebStore } from '../store/postgres/web-store.ts';
import type { RecordTarget } from '../store/record-writer.ts';
import { closeInOrder } from './close-in-order.ts';
import type { DatabaseAccounts, DatabaseBackend, LocalQueries } from './database-backend.ts';
import { openPostgresDatabase, withPostgres, type PostgresTarget } from './postgres-database.ts';
import { openPostgresService } from './postgres-service.ts';
import { notForThisKind, redactUrl } from './start-errors.ts';

export const postgresBackend: DatabaseBackend<PostgresTarget> = {
  name: (target) => redactUrl(target.url),
  openService: openPostgresService,
  openAccounts,
  migrate: (target, options) =>
    withPostgres(target, { migrate: false }, (pools) => migratePostgres(pools.primary, options)),
  openLocalQueries,
  recordWriter,
  backup: (target) =>
    Promise.reject(
      notForThisKind(
        `quarry backup copies a SQLite file; back up the PostgreSQL database ${redactUrl(target.url)} with pg_dump or base backups`,
      ),
    ),
  legacyJwtSecret: (target) => withPostgres(target, { migrate: false }, (pools) => storedJwtSecret(target, pools)),
  // The demo dataset fills a new SQLite file only; a server database is never filled unasked.
  demoFile: () => undefined,
};

/** The account and web stores on the primary, after every migration. */
async function openAccounts(target: PostgresTarget): Promise<DatabaseAccounts> {
  const { pools } = await openPostgresDatabase(target, { migrate: true });
  const accountStore = postgresAccountStore(pools.primary);
  const webStore = postgresWebStore(pools.primary);
  return {
    accountStore,
    webStore,
    close: () => closeInOrder([() => webStore.close(), () => accountStore.close(), () => pools.close()]),
  };
}

/** As `quarry serve` does: the database answers and has every migration; then the engine. */
async function openLocalQueries(target: PostgresTarget, dslVersion: DslVersion): Promise<LocalQueries> {
  await withPostgres(target, { migrate: true }, () => Promise.resolve());
  const engine = createPostgresEngine({ url: target.url });
  return {
    login: () => Promise.resolve(),
    post: async (text: string) => (await engine.run(text, { dslVersion })).result,
    close: () => engine.close(),
  };
}

/** The secret an earlier Quarry kept in the database, or the coded error saying there is none. */
async function storedJwtSecret(target: PostgresTarget, pools: PostgresPools): Promise<string> {
  const secret = await legacyJwtSecret(pools.primary);
  if (secret === undefined)
    throw QuarryError.of('SERVICE_JWT_SECRET_NOT_IN_DATABASE', { params: { database: redactUrl(target.url) } });
  return secret;
}

/** Loaded with COPY, one transaction per batch with its journal checkpoint. */
function recordWriter(target: PostgresTarget): RecordTarget<'native'> {
  /** Runs `look` on a short-lived connection that has every migration. */
  const inspect = <T>(look: (pools: PostgresPools) => Promise<T>): Promise<T> =>
    withPostgres(target, { migrate: true }, look);
  return {
    name: redactUrl(target.url),
    preparation: 'native',
    unfinished: () => inspect((pools) => unfinishedPgImports(pools.primary)),
    isNew: () => inspect(isEmpty),
    open: async ({ bulk }) => {
      // The reachability check gives an unreachable server its coded error.
      await withPostgres(target, { migrate: false }, () => Promise.resolve());
      const writer = await openPgRecordWriter(target.url, { bulk });
      return {
        ...writer,
        finish: async (onStep) => void (await writer.finish(onStep === undefined ? {} : { onStep })),
      };
    },
  };
}

/** No publications and no grants: a new database. */
async function isEmpty(pools: PostgresPools): Promise<boolean> {
  const { rows } = await pools.primary.query<{ empty: boolean }>(
    'SELECT NOT EXISTS (SELECT 1 FROM publications) AND NOT EXISTS (SELECT 1 FROM grants) AS empty',
  );
  return rows[0]?.empty === true;
}
