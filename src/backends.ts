/**
 * The composition root's back ends: the one module that reads the configured `database`
 * (a SQLite file or a PostgreSQL URL) and `redisUrl`, and opens the concrete query engine,
 * account store, web store, session and login-code stores, rate-limit store and record
 * writer. `src/main.ts` (the service) and the command line (`quarry accounts`, `keys`,
 * `query --db`, `import --db`, `migrate`) get every back end from here; nothing else in
 * `src/` imports a concrete back end, and the lint checks it (eslint.config.js).
 *
 * @example
 * const backends = await openServiceBackends(loadConfig({ env: process.env }));
 * const app = await build({ config, engine: backends.engine, accounts: new AccountService({ store: backends.accountStore }), ... });
 */
import { existsSync } from 'node:fs';
import { isPostgresUrl, type QuarryConfig } from './config.ts';
import { runQuery } from './engine/backends/sqlite/query-context.ts';
import { createSqliteEngine } from './engine/backends/sqlite/engine.ts';
import { createPostgresEngine } from './engine/backends/postgres/engine.ts';
import { withResultCache } from './engine/result-cache.ts';
import type { DslVersion, QueryEngine } from './engine/types.ts';
import type { QueryChannel } from './client/client.ts';
import { QuarryError } from './errors/index.ts';
import { MemoryRateLimitStore } from './ratelimit/memory-store.ts';
import type { RateLimitStore } from './ratelimit/store.ts';
import { readOrCreateSecretFile, readSecretFile, secretFileFor } from './auth/secret-file.ts';
import type { AccountStore, SessionStore } from './store/accounts.ts';
import { describeUnfinished, type ImportRun, type RecordTarget } from './store/record-writer.ts';
import { unfinishedImports } from './store/sqlite/import-journal.ts';
import { openSqliteRecordWriter } from './store/sqlite/record-writer.ts';
import { openPostgres, type PostgresPools } from './store/postgres/pool.ts';
import { migratePostgres, type MigrationStep } from './store/postgres/migrate.ts';
import { unfinishedPgImports } from './store/postgres/import-journal.ts';
import { openPgRecordWriter } from './store/postgres/records-writer.ts';
import { postgresAccountStore } from './store/postgres/account-store.ts';
import { dropLegacyJwtSecret, legacyJwtSecret } from './store/postgres/legacy-jwt-secret.ts';
import { postgresWebStore } from './store/postgres/web-store.ts';
import { openSqliteAccountStore } from './store/sqlite/account-store.ts';
import { migrateSqliteDatabase } from './store/sqlite/migrate-database.ts';
import { openReadOnly } from './store/sqlite/open.ts';
import { upgradeRecordDatabase } from './store/sqlite/records-store.ts';
import { backupDatabase as backupSqlite, type BackupReport } from './store/sqlite/backup.ts';
import { openSqliteWebStore } from './store/sqlite/web-store.ts';
import type { LoginCodeStore, WebStore } from './store/web.ts';
import { connectRedis, type Redis } from './store/redis/connect.ts';
import { redisLoginCodeStore } from './store/redis/login-code-store.ts';
import { RedisRateLimitStore } from './store/redis/rate-limit-store.ts';
import { redisSessionStore } from './store/redis/session-store.ts';

/** Which database a `database` setting (or a `--db` flag) names. */
export type DatabaseTarget =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string; readonly readUrls: readonly string[] };

/**
 * A `postgres://` / `postgresql://` URL names PostgreSQL; anything else is a SQLite file path.
 *
 * @example databaseTarget('postgres://postgres@127.0.0.1/quarry') // { kind: 'postgres', url: ..., readUrls: [] }
 */
export function databaseTarget(database: string, readUrls: readonly string[] = []): DatabaseTarget {
  return isPostgresUrl(database) ? { kind: 'postgres', url: database, readUrls } : { kind: 'sqlite', path: database };
}

/** A URL fit for messages and logs: the password replaced. */
export function redactUrl(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}

/** A SQLite file that should exist and does not: a mistyped path must not become an empty database. */
function missingFile(path: string): QuarryError {
  return QuarryError.of('SERVICE_CONFIG_INVALID', {
    params: {
      detail: `the database ${path} does not exist; pass --db FILE (or a postgres:// URL), or create it with \`npm start\` or \`quarry import\``,
    },
  });
}

/** A back end that did not answer at start, as the coded error an operator can act on. */
export function unreachable(backend: string, url: string, cause: unknown): QuarryError {
  const reason = cause instanceof Error ? cause.message || cause.constructor.name : String(cause);
  return QuarryError.of('SERVICE_BACKEND_UNREACHABLE', { params: { backend, url: redactUrl(url), reason } }, { cause });
}

/**
 * Applies (or with `dryRun` lists) every PostgreSQL migration the database has not seen: the
 * sets accounts, web, imports and records (src/store/postgres/migrations/).
 */
function migrateAll(pool: PostgresPools['primary'], options: { dryRun?: boolean } = {}): Promise<MigrationStep[]> {
  return migratePostgres(pool, options);
}

/** The imports that did not finish, as the coded start-up error. */
function importUnfinished(db: string, runs: readonly ImportRun[]): QuarryError {
  return QuarryError.of('DATA_IMPORT_UNFINISHED', { params: { db, detail: describeUnfinished(runs) } });
}

/**
 * Opens the PostgreSQL pools, checks that the primary and every replica answer, and brings
 * the primary's schema up to date (numbered migrations, src/store/postgres/migrate.ts).
 */
async function openPostgresDatabase(
  target: Extract<DatabaseTarget, { kind: 'postgres' }>,
  options: { migrate: boolean },
): Promise<{ pools: PostgresPools; applied: readonly MigrationStep[] }> {
  const pools = openPostgres({ url: target.url, readUrls: target.readUrls });
  const urls = [target.url, ...target.readUrls];
  try {
    for (const [i, pool] of pools.all.entries()) {
      try {
        await pool.query('SELECT 1');
      } catch (error) {
        throw unreachable(i === 0 ? 'PostgreSQL database' : 'PostgreSQL read replica', urls[i] as string, error);
      }
    }
    const applied = options.migrate ? await migrateAll(pools.primary) : [];
    return { pools, applied };
  } catch (error) {
    await pools.close();
    throw error;
  }
}

/** Everything `quarry serve` runs on. */
export interface ServiceBackends {
  readonly engine: QueryEngine;
  readonly accountStore: AccountStore;
  /** Web sessions: the account store itself, or Redis when `redisUrl` is set. */
  readonly sessions: SessionStore;
  readonly webStore: WebStore;
  /** Login codes: the web store itself, or Redis when `redisUrl` is set. */
  readonly loginCodes: LoginCodeStore;
  readonly rateLimitStore: RateLimitStore;
  /** Record-table migrations applied while opening, for the start-up log. */
  readonly upgraded: readonly number[];
  /**
   * The token-signing secret, never from the database: `tokens.jwtSecret`, else the file
   * `tokens.jwtSecretFile`, else (SQLite) `<db>.jwt-secret` beside the database.
   */
  readonly jwtSecret: string;
  /**
   * PostgreSQL: this start removed the secret an earlier Quarry kept in the database; `same`
   * when the configured one is that secret (tokens issued before stay valid), `different`
   * when not (they are refused). Undefined: there was none.
   */
  readonly removedDatabaseSecret: 'same' | 'different' | undefined;
  /** Why the records must not be served now (an import that did not finish), or undefined. */
  readonly recordsNotReady: () => string | undefined;
  /** Closes the engine (after in-flight queries), then every store. */
  close(): Promise<void>;
}

/**
 * Opens the service's back ends from the configuration. The engine opens first: it refuses
 * a missing or foreign SQLite file with a clear coded error, before the account store would
 * create an empty file in its place.
 */
export async function openServiceBackends(config: QuarryConfig): Promise<ServiceBackends> {
  // Redis first: connecting is quick, and an instance that cannot share its counters must
  // not start counting alone.
  const redis = config.redisUrl === null ? undefined : await openRedis(config.redisUrl);
  if (redis === undefined) return openDatabaseBackends(config);
  try {
    return sharingRedis(await openDatabaseBackends(config), redis, config.redisKeyPrefix);
  } catch (error) {
    redis.disconnect();
    throw error;
  }
}

/** Connects to Redis, or fails with the coded start-up error naming it. */
async function openRedis(url: string): Promise<Redis> {
  try {
    return await connectRedis(url);
  } catch (error) {
    throw unreachable('Redis server', url, error);
  }
}

/**
 * The back ends with the state several instances must share moved to Redis: rate-limit
 * counters, web sessions and login codes. Accounts, keys and tokens stay in the database
 * every instance reads on each request, so a revocation through one instance is refused by
 * all on their next request.
 */
function sharingRedis(backends: ServiceBackends, redis: Redis, prefix: string): ServiceBackends {
  return {
    ...backends,
    sessions: redisSessionStore(redis, prefix),
    loginCodes: redisLoginCodeStore(redis, prefix),
    rateLimitStore: new RedisRateLimitStore(redis, prefix),
    close: () => closeInOrder([() => backends.close(), () => quitRedis(redis)]),
  };
}

/** Closes the connection politely, or at once when Redis does not answer. */
async function quitRedis(redis: Redis): Promise<void> {
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
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

/** The service's back ends on the configured database alone (no Redis). */
async function openDatabaseBackends(config: QuarryConfig): Promise<ServiceBackends> {
  const target = databaseTarget(config.database, config.readUrls);
  const configuredSecret = configuredJwtSecret(config);
  if (target.kind === 'postgres') return openPostgresServiceBackends(config, target, configuredSecret);
  // A database with an import that did not finish is incomplete (records without their
  // links), whatever imports ended after it: refuse it before anything is served.
  const unfinished = unfinishedImports(target.path);
  if (unfinished.length > 0) throw importUnfinished(target.path, unfinished);
  // A database from an older Quarry gets the layout's later migrations (indexes) first.
  const upgraded = upgradeRecordDatabase(target.path);
  const sqlite = createSqliteEngine({
    dbPath: target.path,
    timeoutMs: config.query.timeoutMs,
    pageCacheMb: config.query.pageCacheMb,
    mmapMb: config.query.mmapMb,
    facetColumnsMb: config.query.facetColumnsMb,
    maxPerPrincipal: config.query.maxPerPrincipal,
    cheapRowLimit: config.query.cheapRowLimit,
    ...(config.query.workers > 0 ? { workers: config.query.workers } : {}),
  });
  const engine: QueryEngine =
    config.query.cacheMb > 0
      ? withResultCache(sqlite, { maxBytes: config.query.cacheMb * 2 ** 20, epoch: () => sqlite.dataEpoch() })
      : sqlite;
  const closers: Array<() => Promise<void>> = [() => engine.close()];
  try {
    const accountStore = openSqliteAccountStore(target.path);
    closers.push(() => accountStore.close());
    const webStore = openSqliteWebStore(target.path);
    closers.push(() => webStore.close());
    const rateLimitStore = new MemoryRateLimitStore();
    closers.push(() => rateLimitStore.close());
    return {
      engine,
      accountStore,
      sessions: accountStore,
      webStore,
      loginCodes: webStore,
      rateLimitStore,
      upgraded,
      // Beside the database, never in it: a copied or backed-up database does not carry it.
      jwtSecret: configuredSecret ?? readOrCreateSecretFile(secretFileFor(target.path)),
      removedDatabaseSecret: undefined,
      recordsNotReady: () => {
        const runs = unfinishedImports(target.path);
        return runs.length === 0 ? undefined : describeUnfinished(runs);
      },
      close: () => closeInOrder(closers),
    };
  } catch (error) {
    await closeInOrder(closers);
    throw error;
  }
}

/** How often a PostgreSQL service looks for an unfinished import (an import elsewhere may start or stop). */
const IMPORT_WATCH_MS = 5_000;

/**
 * The service on PostgreSQL: every migration applied first (instances starting together
 * apply each once, under an advisory lock), then the engine (reads on the replicas when
 * `readUrls` names any) and the account stores on the primary. The result cache is left
 * out: its key is a data epoch that only the SQLite store keeps, and several instances
 * would each need to see an import elsewhere.
 *
 * The token-signing secret must be configured (`jwtSecret` or `jwtSecretFile`, the same on
 * every instance), never kept in the database: without one the service refuses to start,
 * before any migration, saying how to get one (and how to keep the one an earlier Quarry
 * kept in the database). With one, that old copy is removed from the database.
 */
async function openPostgresServiceBackends(
  config: QuarryConfig,
  target: Extract<DatabaseTarget, { kind: 'postgres' }>,
  jwtSecret: string | undefined,
): Promise<ServiceBackends> {
  const { pools, applied } = await openPostgresDatabase(target, { migrate: jwtSecret !== undefined });
  const closers: Array<() => Promise<void>> = [() => pools.close()];
  try {
    if (jwtSecret === undefined) throw await jwtSecretRequired(pools.primary);
    const name = redactUrl(target.url);
    const unfinished = await unfinishedPgImports(pools.primary);
    if (unfinished.length > 0) throw importUnfinished(name, unfinished);
    // After the refusals above: a start refused for another reason leaves the old copy in place.
    const removed = await dropLegacyJwtSecret(pools.primary);
    // /readyz follows an import started (or completed) after start-up.
    let notReady: string | undefined;
    const watch = setInterval(() => {
      unfinishedPgImports(pools.primary).then(
        (runs) => (notReady = runs.length === 0 ? undefined : describeUnfinished(runs)),
        () => undefined, // an unreachable database shows in /readyz through the engine
      );
    }, IMPORT_WATCH_MS);
    watch.unref();
    closers.unshift(() => Promise.resolve(clearInterval(watch)));
    const engine = createPostgresEngine({
      url: target.url,
      readUrls: target.readUrls,
      timeoutMs: config.query.timeoutMs,
    });
    closers.unshift(() => engine.close());
    const accountStore = postgresAccountStore(pools.primary);
    const webStore = postgresWebStore(pools.primary);
    const rateLimitStore = new MemoryRateLimitStore();
    closers.push(
      () => webStore.close(),
      () => accountStore.close(),
      () => rateLimitStore.close(),
    );
    return {
      engine,
      accountStore,
      sessions: accountStore,
      webStore,
      loginCodes: webStore,
      rateLimitStore,
      upgraded: applied.filter((step) => step.set === 'records').map((step) => step.version),
      jwtSecret,
      removedDatabaseSecret: removed === undefined ? undefined : removed === jwtSecret ? 'same' : 'different',
      recordsNotReady: () => notReady,
      close: () => closeInOrder(closers),
    };
  } catch (error) {
    await closeInOrder(closers);
    throw error;
  }
}

/** The refusal to serve PostgreSQL without a configured secret; it names the upgrade path when the database holds one. */
async function jwtSecretRequired(pool: PostgresPools['primary']): Promise<QuarryError> {
  const upgrade =
    (await legacyJwtSecret(pool)) === undefined
      ? ''
      : ' This database still holds the secret an earlier Quarry kept in it: `quarry jwt-secret --from-database --db <database URL>` prints it, to configure on every instance so that tokens issued before the upgrade stay valid (or make a new one: every JWT holder then logs in again); the first start with a configured secret removes it from the database.';
  return QuarryError.of('SERVICE_JWT_SECRET_REQUIRED', { params: { upgrade } });
}

/**
 * `quarry jwt-secret --from-database`: the token-signing secret an earlier Quarry kept in a
 * PostgreSQL database, to configure outside it on upgrade. Nothing is changed.
 */
export async function databaseJwtSecret(config: QuarryConfig): Promise<string> {
  const target = databaseTarget(config.database, config.readUrls);
  if (target.kind === 'sqlite')
    throw QuarryError.of('SERVICE_CONFIG_INVALID', {
      params: {
        detail: `--from-database reads a PostgreSQL database; a SQLite database's secret is the file ${secretFileFor(target.path)} beside it`,
      },
    });
  const { pools } = await openPostgresDatabase(target, { migrate: false });
  try {
    const secret = await legacyJwtSecret(pools.primary);
    if (secret === undefined)
      throw QuarryError.of('SERVICE_JWT_SECRET_NOT_IN_DATABASE', { params: { database: redactUrl(target.url) } });
    return secret;
  } finally {
    await pools.close();
  }
}

/** What the administration commands (`quarry accounts`, `quarry keys`) work on. */
export interface AccountBackends {
  readonly accountStore: AccountStore;
  readonly sessions: SessionStore;
  readonly webStore: WebStore;
  readonly loginCodes: LoginCodeStore;
  close(): Promise<void>;
}

/**
 * Opens the account side only. A SQLite file must exist: administering a mistyped path
 * would silently create an empty database.
 */
export async function openAccountBackends(config: QuarryConfig): Promise<AccountBackends> {
  const backends = await openDatabaseAccountBackends(config);
  if (config.redisUrl === null) return backends;
  // Login codes made here (`quarry accounts login-code`) must be where the service reads
  // them. Without Redis the other commands still work (revoking a key during an outage):
  // only what needs Redis fails, with the coded error.
  let redis: Redis;
  try {
    redis = await openRedis(config.redisUrl);
  } catch (error) {
    const refusal = error as QuarryError; // openRedis fails only with its coded error
    const fail = () => Promise.reject(refusal);
    return {
      ...backends,
      sessions: { insertSession: fail, sessionById: fail, deleteSession: fail, deleteSessionsOf: fail },
      loginCodes: { saveLoginCode: fail, consumeLoginCode: fail },
    };
  }
  return {
    ...backends,
    sessions: redisSessionStore(redis, config.redisKeyPrefix),
    loginCodes: redisLoginCodeStore(redis, config.redisKeyPrefix),
    close: () => closeInOrder([() => backends.close(), () => quitRedis(redis)]),
  };
}

function openDatabaseAccountBackends(config: QuarryConfig): Promise<AccountBackends> {
  const target = databaseTarget(config.database, config.readUrls);
  if (target.kind === 'postgres') return openPostgresAccountBackends(target);
  if (!existsSync(target.path)) {
    return Promise.reject(missingFile(target.path));
  }
  const accountStore = openSqliteAccountStore(target.path);
  const webStore = openSqliteWebStore(target.path);
  return Promise.resolve({
    accountStore,
    sessions: accountStore,
    webStore,
    loginCodes: webStore,
    close: () => closeInOrder([() => webStore.close(), () => accountStore.close()]),
  });
}

async function openPostgresAccountBackends(
  target: Extract<DatabaseTarget, { kind: 'postgres' }>,
): Promise<AccountBackends> {
  const { pools } = await openPostgresDatabase(target, { migrate: true });
  const accountStore = postgresAccountStore(pools.primary);
  const webStore = postgresWebStore(pools.primary);
  return {
    accountStore,
    sessions: accountStore,
    webStore,
    loginCodes: webStore,
    close: () => closeInOrder([() => webStore.close(), () => accountStore.close(), () => pools.close()]),
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
  if (target.kind === 'sqlite') {
    if (!existsSync(target.path)) {
      throw missingFile(target.path);
    }
    return { target: target.path, steps: migrateSqliteDatabase(target.path, options) };
  }
  const { pools } = await openPostgresDatabase(target, { migrate: false });
  try {
    return { target: redactUrl(target.url), steps: await migrateAll(pools.primary, options) };
  } finally {
    await pools.close();
  }
}

/** Queries on a database run in this process: a client QueryChannel, so `--all`, `--out` and `--resume` page it as they page a service. */
export interface LocalQueries extends QueryChannel {
  close(): Promise<void>;
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
  if (target.kind === 'postgres') {
    // As `quarry serve` does: the database answers and has every migration.
    await (await openPostgresDatabase(target, { migrate: true })).pools.close();
    const engine = createPostgresEngine({ url: target.url });
    return {
      login: () => Promise.resolve(),
      post: async (text: string) => (await engine.run(text, { dslVersion })).result,
      close: () => engine.close(),
    };
  }
  upgradeRecordDatabase(target.path);
  const db = openReadOnly(target.path);
  return {
    login: () => Promise.resolve(),
    post: (text: string) => Promise.resolve().then(() => runQuery(db, text, { dslVersion })),
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}

/**
 * The record database `importFiles()` loads into, for `quarry import --db` and the demo.
 * A new SQLite file loads in bulk (indexes built once at the end); an existing one stays
 * queryable while it loads.
 */
export function recordWriterFor(database: string): RecordTarget {
  const target = databaseTarget(database);
  if (target.kind === 'postgres') return postgresRecordTarget(target);
  const path = target.path;
  return {
    name: path,
    preparation: 'sqlite',
    unfinished: () => Promise.resolve(unfinishedImports(path)),
    isNew: () => Promise.resolve(!existsSync(path)),
    open: (options) => Promise.resolve(openSqliteRecordWriter(path, options)),
  };
}

/**
 * A PostgreSQL database to import into: loaded with COPY, one transaction per batch with its
 * journal checkpoint. The database must exist (`createdb`); its tables are made here.
 */
function postgresRecordTarget(target: Extract<DatabaseTarget, { kind: 'postgres' }>): RecordTarget<'native'> {
  /** Runs `look` on a short-lived connection that has every migration. */
  const inspect = async <T>(look: (pools: PostgresPools) => Promise<T>): Promise<T> => {
    const { pools } = await openPostgresDatabase(target, { migrate: true });
    try {
      return await look(pools);
    } finally {
      await pools.close();
    }
  };
  return {
    name: redactUrl(target.url),
    preparation: 'native',
    unfinished: () => inspect((pools) => unfinishedPgImports(pools.primary)),
    isNew: () =>
      inspect(async (pools) => {
        const { rows } = await pools.primary.query<{ empty: boolean }>(
          'SELECT NOT EXISTS (SELECT 1 FROM publications) AND NOT EXISTS (SELECT 1 FROM grants) AS empty',
        );
        return rows[0]?.empty === true;
      }),
    open: async ({ bulk }) => {
      // The reachability check gives an unreachable server its coded error.
      await (await openPostgresDatabase(target, { migrate: false })).pools.close();
      const writer = await openPgRecordWriter(target.url, { bulk });
      return {
        ...writer,
        finish: async (onStep) => void (await writer.finish(onStep === undefined ? {} : { onStep })),
      };
    },
  };
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
  if (target.kind === 'postgres')
    return Promise.reject(
      QuarryError.of('SERVICE_CONFIG_INVALID', {
        params: {
          detail: `quarry backup copies a SQLite file; back up the PostgreSQL database ${redactUrl(target.url)} with pg_dump or base backups`,
        },
      }),
    );
  return backupSqlite(target.path, outPath, onProgress);
}

/** Runs every closer even when one fails, then rethrows the first failure. */
async function closeInOrder(closers: ReadonlyArray<() => Promise<void>>): Promise<void> {
  let first: Error | undefined;
  for (const close of closers) {
    try {
      await close();
    } catch (error) {
      first ??= error instanceof Error ? error : new Error('closing a back end failed', { cause: error });
    }
  }
  if (first !== undefined) throw first;
}
