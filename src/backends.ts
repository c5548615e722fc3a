/**
 * The composition root's back ends: the one module that reads the configured `database`
 * (a SQLite file or a PostgreSQL URL) and `redisUrl`, and opens the concrete query engine,
 * account store, web store, session and login-code stores, rate-limit store and record
 * writer. `src/main.ts` (the service) and the command line (`quarry accounts`, `keys`,
 * `query --db`, `import --db`, `migrate`) get every back end from here; nothing else in
 * `src/` imports a concrete back end, and the lint checks it (eslint.config.js).
 *
 * Each kind of database is one object (`src/backends/sqlite.ts`, `postgres.ts`) behind the
 * `DatabaseBackend` interface, looked up in `BACKENDS` by the kind the setting names; Redis,
 * when configured, is layered on whichever kind is open.
 *
 * @example
 * const backends = await openServiceBackends(loadConfig({ env: process.env }));
 * const app = await build({ config, engine: backends.engine, accounts: new AccountService({ store: backends.accountStore }), ... });
 */
import { readSecretFile } from './auth/secret-file.ts';
import { isPostgresUrl, type QuarryConfig } from './config.ts';
import type { DslVersion } from './engine/types.ts';
import { MemoryRateLimitStore } from './ratelimit/memory-store.ts';
import type { RateLimitStore } from './store/rate-limits.ts';
import type { SessionStore } from './store/accounts.ts';
import type { RecordTarget } from './store/record-writer.ts';
import type { BackupReport } from './store/sqlite/backup.ts';
import type { Redis } from './store/redis/connect.ts';
import type { LoginCodeStore } from './store/web.ts';
import { closeInOrder } from './backends/close-in-order.ts';
import type {
  DatabaseAccounts,
  DatabaseBackend,
  DatabaseKind,
  DatabaseService,
  DatabaseTarget,
  LocalQueries,
  MigrationStep,
} from './backends/database-backend.ts';
import { postgresBackend } from './backends/postgres.ts';
import { openRedis, quitRedis, rateLimitsOnRedis, refusingShared, sessionsOnRedis } from './backends/redis.ts';
import { sqliteBackend } from './backends/sqlite.ts';
import type { QuarryError } from './errors/index.ts';

export type { DatabaseTarget, LocalQueries, MigrationStep } from './backends/database-backend.ts';
export { redactUrl } from './backends/start-errors.ts';

/** Every kind of database, by the kind a `database` setting names. */
export const BACKENDS: { readonly [K in DatabaseKind]: DatabaseBackend<DatabaseTarget<K>> } = {
  sqlite: sqliteBackend,
  postgres: postgresBackend,
};

/** The back end of the target's kind, typed for that target. */
function backendOf<K extends DatabaseKind>(target: DatabaseTarget<K>): DatabaseBackend<DatabaseTarget<K>> {
  return BACKENDS[target.kind];
}

/**
 * A `postgres://` / `postgresql://` URL names PostgreSQL; anything else is a SQLite file path.
 *
 * @example databaseTarget('postgres://postgres@127.0.0.1/quarry') // { kind: 'postgres', url: ..., readUrls: [] }
 */
export function databaseTarget(database: string, readUrls: readonly string[] = []): DatabaseTarget {
  return isPostgresUrl(database) ? { kind: 'postgres', url: database, readUrls } : { kind: 'sqlite', path: database };
}

/** Everything `quarry serve` runs on. */
export interface ServiceBackends extends DatabaseService {
  /** Web sessions: the account store itself, or Redis when `redisUrl` is set. */
  readonly sessions: SessionStore;
  /** Login codes: the web store itself, or Redis when `redisUrl` is set. */
  readonly loginCodes: LoginCodeStore;
  /** Rate-limit counters: in memory, or Redis when `redisUrl` is set. */
  readonly rateLimitStore: RateLimitStore;
}

/**
 * Opens the service's back ends from the configuration. The token-signing secret is never
 * from the database: `tokens.jwtSecret`, else the file `tokens.jwtSecretFile`, else (SQLite)
 * `<db>.jwt-secret` beside the database; PostgreSQL refuses to start without one configured.
 */
export async function openServiceBackends(config: QuarryConfig): Promise<ServiceBackends> {
  // Redis first: connecting is quick, and an instance that cannot share its counters must
  // not start counting alone.
  const redis = config.redisUrl === null ? undefined : await openRedis(config.redisUrl);
  if (redis === undefined) return alone(await openDatabaseService(config));
  try {
    const database = await openDatabaseService(config);
    const prefix = config.redisKeyPrefix;
    return {
      ...database,
      ...sessionsOnRedis(redis, prefix),
      rateLimitStore: rateLimitsOnRedis(redis, prefix),
      close: () => closeInOrder([() => database.close(), () => quitRedis(redis)]),
    };
  } catch (error) {
    redis.disconnect();
    throw error;
  }
}

/** The service's back ends on the configured database. */
function openDatabaseService(config: QuarryConfig): Promise<DatabaseService> {
  const target = databaseTarget(config.database, config.readUrls);
  return backendOf(target).openService(target, { config, jwtSecret: configuredJwtSecret(config) });
}

/** One instance alone: sessions and login codes in the database, rate-limit counters in memory. */
function alone(database: DatabaseService): ServiceBackends {
  const rateLimitStore = new MemoryRateLimitStore();
  return {
    ...database,
    sessions: database.accountStore,
    loginCodes: database.webStore,
    rateLimitStore,
    close: () => closeInOrder([() => database.close(), () => rateLimitStore.close()]),
  };
}

/**
 * The token-signing secret the configuration gives: `tokens.jwtSecret`, else the content of
 * `tokens.jwtSecretFile`; undefined when neither is set.
 */
function configuredJwtSecret(config: QuarryConfig): string | undefined {
  if (config.tokens.jwtSecret !== null) return config.tokens.jwtSecret;
  if (config.tokens.jwtSecretFile !== null) return readSecretFile(config.tokens.jwtSecretFile);
  return undefined;
}

/**
 * `quarry jwt-secret --from-database`: the token-signing secret an earlier Quarry kept in a
 * PostgreSQL database, to configure outside it on upgrade. Nothing is changed.
 */
export async function databaseJwtSecret(config: QuarryConfig): Promise<string> {
  const target = databaseTarget(config.database, config.readUrls);
  return backendOf(target).legacyJwtSecret(target);
}

/** What the administration commands (`quarry accounts`, `quarry keys`) work on. */
export interface AccountBackends extends DatabaseAccounts {
  readonly sessions: SessionStore;
  readonly loginCodes: LoginCodeStore;
}

/**
 * Opens the account side only. A SQLite file must exist: administering a mistyped path
 * would silently create an empty database.
 */
export async function openAccountBackends(config: QuarryConfig): Promise<AccountBackends> {
  const target = databaseTarget(config.database, config.readUrls);
  const database = await backendOf(target).openAccounts(target);
  const inDatabase = { ...database, sessions: database.accountStore, loginCodes: database.webStore };
  if (config.redisUrl === null) return inDatabase;
  // Login codes made here (`quarry accounts login-code`) must be where the service reads
  // them. Without Redis the other commands still work (revoking a key during an outage):
  // only what needs Redis fails, with the coded error.
  let redis: Redis;
  try {
    redis = await openRedis(config.redisUrl);
  } catch (error) {
    return { ...inDatabase, ...refusingShared(error as QuarryError) }; // openRedis fails only with its coded error
  }
  return {
    ...inDatabase,
    ...sessionsOnRedis(redis, config.redisKeyPrefix),
    close: () => closeInOrder([() => database.close(), () => quitRedis(redis)]),
  };
}

/**
 * `quarry migrate [--dry-run]`: applies (or lists) the schema migrations the database has not
 * seen, PostgreSQL or SQLite. A SQLite file must exist (\`quarry import\` creates one); a
 * PostgreSQL database must exist (\`createdb\`), its tables are made here.
 */
export async function migrateDatabase(
  config: QuarryConfig,
  options: { dryRun?: boolean } = {},
): Promise<{ target: string; steps: MigrationStep[] }> {
  const target = databaseTarget(config.database, config.readUrls);
  const backend = backendOf(target);
  return { target: backend.name(target), steps: await backend.migrate(target, options) };
}

/**
 * `quarry query --db`: queries in language version `dslVersion` on a database, in this
 * process. A SQLite database from an older Quarry first gets its missing migrations, as
 * `quarry serve` does.
 *
 * @example
 * const local = await openLocalQueries('records.db', 2);
 * await local.post('search publications return year'); // { year: [...], _stats: {...} }
 * local.close();
 */
export async function openLocalQueries(database: string, dslVersion: DslVersion): Promise<LocalQueries> {
  const target = databaseTarget(database);
  return backendOf(target).openLocalQueries(target, dslVersion);
}

/**
 * The record database `importFiles()` loads into, for `quarry import --db` and the demo.
 * A new SQLite file loads in bulk (indexes built once at the end); an existing one stays
 * queryable while it loads.
 */
export function recordWriterFor(database: string): RecordTarget {
  const target = databaseTarget(database);
  return backendOf(target).recordWriter(target);
}

/**
 * `quarry backup`: an online, consistent copy of a SQLite database. A PostgreSQL database is
 * backed up with PostgreSQL's own tools (pg_dump, base backups), not by Quarry.
 */
export function backupDatabase(
  database: string,
  outPath: string,
  onProgress?: (done: number, total: number) => void,
): Promise<BackupReport> {
  const target = databaseTarget(database);
  return backendOf(target).backup(target, outPath, onProgress);
}

/**
 * The file `npm start` creates with the demo dataset: the configured SQLite file when it
 * does not exist yet; undefined otherwise.
 */
export function demoDatabaseFile(database: string): string | undefined {
  const target = databaseTarget(database);
  return backendOf(target).demoFile(target);
}
