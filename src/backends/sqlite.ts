/**
 * A SQLite file as Quarry's database: the records, the account and web tables and the
 * import journal in one file, the query engine on worker threads over it, and the
 * token-signing secret in a file beside it (`<db>.jwt-secret`), never in it.
 */
import { existsSync } from 'node:fs';
import { readOrCreateSecretFile, secretFileFor } from '../auth/secret-file.ts';
import type { QuarryConfig } from '../config.ts';
import { runPreparedQuery } from '../engine/backends/sqlite/query-context.ts';
import { createSqliteEngine } from '../engine/backends/sqlite/engine.ts';
import { withResultCache } from '../engine/result-cache.ts';
import { prepareQuery } from '../engine/run-query.ts';
import type { DslVersion, QueryEngine } from '../engine/types.ts';
import { describeUnfinished, type RecordTarget } from '../store/record-writer.ts';
import { openSqliteAccountStore, openSqliteAccountStores } from '../store/sqlite/account-store.ts';
import { backupDatabase } from '../store/sqlite/backup.ts';
import { unfinishedImports } from '../store/sqlite/import-journal.ts';
import { migrateSqliteDatabase } from '../store/sqlite/migrate-database.ts';
import { openReadOnly } from '../store/sqlite/open.ts';
import { openSqliteRecordWriter } from '../store/sqlite/record-writer.ts';
import { upgradeRecordDatabase } from '../store/sqlite/records-store.ts';
import { openSqliteWebStore } from '../store/sqlite/web-store.ts';
import { openSqliteExportStore } from '../store/sqlite/export-store.ts';
import { closeInOrder, openOrClose } from './close-in-order.ts';
import type {
  DatabaseAccounts,
  DatabaseBackend,
  DatabaseService,
  DatabaseTarget,
  LocalQueries,
} from './database-backend.ts';
import { importUnfinished, missingFile, notForThisKind } from './start-errors.ts';

type SqliteTarget = DatabaseTarget<'sqlite'>;

export const sqliteBackend: DatabaseBackend<SqliteTarget> = {
  name: (target) => target.path,
  openService: (target, options) => settle(() => openService(target.path, options)),
  openAccounts: (target) => settle(() => openAccounts(existing(target.path))),
  migrate: (target, options) => settle(() => migrateSqliteDatabase(existing(target.path), options)),
  openLocalQueries: (target, dslVersion) => settle(() => openLocalQueries(target.path, dslVersion)),
  recordWriter: (target) => recordWriter(target.path),
  backup: (target, outPath, onProgress) => backupDatabase(target.path, outPath, onProgress),
  legacyJwtSecret: (target) =>
    Promise.reject(
      notForThisKind(
        `--from-database reads a PostgreSQL database; a SQLite database's secret is the file ${secretFileFor(target.path)} beside it`,
      ),
    ),
  demoFile: (target) => (existsSync(target.path) ? undefined : target.path),
};

/** What `open()` returns, or what it throws as a rejection: better-sqlite3 answers at once. */
function settle<T>(open: () => T | Promise<T>): Promise<T> {
  return new Promise((resolve) => resolve(open()));
}

/** The path of a file that exists: administering a mistyped path must not create an empty database. */
function existing(path: string): string {
  if (!existsSync(path)) throw missingFile(path);
  return path;
}

/**
 * The service on a SQLite file. A database with an import that did not finish is refused
 * before anything is served; one from an older Quarry gets the layout's later migrations
 * first. The engine opens before the account store: it refuses a missing or foreign file
 * with a clear coded error, before the account store would create an empty file in its place.
 */
function openService(
  path: string,
  options: { config: QuarryConfig; jwtSecret: string | undefined },
): Promise<DatabaseService> {
  // Incomplete (records without their links), whatever imports ended after it.
  const unfinished = unfinishedImports(path);
  if (unfinished.length > 0) throw importUnfinished(path, unfinished);
  const upgraded = upgradeRecordDatabase(path);
  return openOrClose((closers) => {
    const engine = openEngine(path, options.config.query);
    closers.push(() => engine.close());
    const { accountStore, tokenStore } = openSqliteAccountStores(path);
    closers.push(() => accountStore.close());
    const webStore = openSqliteWebStore(path);
    closers.push(() => webStore.close());
    const exportStore = openSqliteExportStore(path);
    closers.push(() => exportStore.close());
    return {
      engine,
      accountStore,
      tokenStore,
      webStore,
      exportStore,
      upgraded,
      // Beside the database, never in it: a copied or backed-up database does not carry it.
      jwtSecret: options.jwtSecret ?? readOrCreateSecretFile(secretFileFor(path)),
      removedDatabaseSecret: undefined,
      recordsNotReady: () => {
        const runs = unfinishedImports(path);
        return runs.length === 0 ? undefined : describeUnfinished(runs);
      },
      close: () => closeInOrder(closers),
    };
  });
}

/** The engine on worker threads, behind the result cache when it has memory (`query.cacheMb`). */
function openEngine(path: string, query: QuarryConfig['query']): QueryEngine {
  const sqlite = createSqliteEngine({
    dbPath: path,
    timeoutMs: query.timeoutMs,
    pageCacheMb: query.pageCacheMb,
    mmapMb: query.mmapMb,
    facetColumnsMb: query.facetColumnsMb,
    maxPerPrincipal: query.maxPerPrincipal,
    cheapRowLimit: query.cheapRowLimit,
    ...(query.workers > 0 ? { workers: query.workers } : {}),
  });
  if (query.cacheMb <= 0) return sqlite;
  return withResultCache(sqlite, { maxBytes: query.cacheMb * 2 ** 20, epoch: () => sqlite.dataEpoch() });
}

/** The account and web stores, each on its own connection to the file (creating their tables). */
function openAccounts(path: string): DatabaseAccounts {
  const accountStore = openSqliteAccountStore(path);
  const webStore = openSqliteWebStore(path);
  return { accountStore, webStore, close: () => closeInOrder([() => webStore.close(), () => accountStore.close()]) };
}

/** Queries on a read-only connection in this process, after the layout's missing migrations (as `quarry serve` does). */
function openLocalQueries(path: string, dslVersion: DslVersion): LocalQueries {
  upgradeRecordDatabase(path);
  const db = openReadOnly(path);
  // Statement functions (extract_grants(...), classify(...)) read through an engine's
  // FunctionContext; one is started only for them, with a single worker.
  let engine: QueryEngine | undefined;
  return {
    login: () => Promise.resolve(),
    post: async (text: string) => {
      const prepared = prepareQuery(text, { dslVersion });
      if (prepared.kind !== 'function') return runPreparedQuery(db, prepared);
      engine ??= createSqliteEngine({ dbPath: path, workers: 1, expensiveWorkers: 0 });
      return (await engine.run(text, { dslVersion })).result;
    },
    close: async () => {
      await engine?.close();
      db.close();
    },
  };
}

/** A new file loads in bulk (indexes built once at the end); an existing one stays queryable while it loads. */
function recordWriter(path: string): RecordTarget {
  return {
    name: path,
    preparation: 'sqlite',
    unfinished: () => Promise.resolve(unfinishedImports(path)),
    isNew: () => Promise.resolve(!existsSync(path)),
    open: (options) => Promise.resolve(openSqliteRecordWriter(path, options)),
  };
}
