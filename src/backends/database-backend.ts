/**
 * What the composition root asks of a kind of database. Each kind is one object implementing
 * `DatabaseBackend` (`sqlite.ts`, `postgres.ts`), and `BACKENDS` in src/backends.ts looks it
 * up by the kind a `database` setting names, so a new kind is a line in `DatabaseSettings`,
 * one object, and one entry in `BACKENDS`: the compiler lists what the object must provide.
 * Redis is no kind of database: src/backends.ts layers it on whichever kind is open.
 */
import type { QuarryConfig } from '../config.ts';
import type { DslVersion, QueryEngine } from '../engine/types.ts';
import type { QueryChannel } from '../client/client.ts';
import type { AccountStore } from '../store/accounts.ts';
import type { ExportJobStore } from '../store/exports.ts';
import type { RecordTarget } from '../store/record-writer.ts';
import type { BackupReport } from '../store/sqlite/backup.ts';
import type { TokenStore } from '../store/tokens.ts';
import type { WebStore } from '../store/web.ts';

/** The settings of each kind, as a `database` setting (or a `--db` flag) gives them. */
export interface DatabaseSettings {
  readonly sqlite: { readonly path: string };
  readonly postgres: { readonly url: string; readonly readUrls: readonly string[] };
}

export type DatabaseKind = keyof DatabaseSettings;

/** Which database a `database` setting names: its kind and that kind's settings. */
export type DatabaseTarget<K extends DatabaseKind = DatabaseKind> = {
  [P in K]: { readonly kind: P } & DatabaseSettings[P];
}[K];

/** One schema migration, applied or (dry run) pending: its set (accounts, web, records), number and name. */
export interface MigrationStep {
  readonly set: string;
  readonly version: number;
  readonly name: string;
}

/**
 * What a database holds for `quarry serve`: the engine and the stores kept in the database.
 * src/backends.ts adds the state several instances may share elsewhere (sessions, login
 * codes, rate-limit counters).
 */
export interface DatabaseService {
  readonly engine: QueryEngine;
  readonly accountStore: AccountStore;
  /** The token records, beside the accounts they belong to. */
  readonly tokenStore: TokenStore;
  readonly webStore: WebStore;
  /** The bulk-export jobs, beside the accounts that own them. */
  readonly exportStore: ExportJobStore;
  /** Record-table migrations applied while opening, for the start-up log. */
  readonly upgraded: readonly number[];
  /** The token-signing secret: the configured one, or the kind's own place for it. */
  readonly jwtSecret: string;
  /**
   * This start removed the secret an earlier Quarry kept in the database; `same` when the
   * configured one is that secret, `different` when not. Undefined: there was none.
   */
  readonly removedDatabaseSecret: 'same' | 'different' | undefined;
  /** Why the records must not be served now (an import that did not finish), or undefined. */
  readonly recordsNotReady: () => string | undefined;
  /** Closes the engine (after in-flight queries), then every store. */
  close(): Promise<void>;
}

/** What a database holds for the administration commands (`quarry accounts`, `quarry keys`). */
export interface DatabaseAccounts {
  readonly accountStore: AccountStore;
  readonly webStore: WebStore;
  close(): Promise<void>;
}

/** Queries on a database run in this process: a client QueryChannel, so `--all`, `--out` and `--resume` page it as they page a service. */
export interface LocalQueries extends QueryChannel {
  close(): Promise<void>;
}

/** One kind of database, for targets of that kind. */
export interface DatabaseBackend<Target> {
  /** The database for messages and logs: a file path, or a URL without its password. */
  name(target: Target): string;
  /**
   * Opens what `quarry serve` runs on in this database. `jwtSecret` is the configured
   * token-signing secret, if any; the kind decides where one comes from otherwise.
   */
  openService(
    target: Target,
    options: { config: QuarryConfig; jwtSecret: string | undefined },
  ): Promise<DatabaseService>;
  /** Opens the account side alone; refuses a database that should exist and does not. */
  openAccounts(target: Target): Promise<DatabaseAccounts>;
  /** `quarry migrate [--dry-run]`: applies (or lists) the migrations the database has not seen. */
  migrate(target: Target, options: { dryRun?: boolean }): Promise<MigrationStep[]>;
  /** `quarry query --db`: queries in language version `dslVersion`, in this process. */
  openLocalQueries(target: Target, dslVersion: DslVersion): Promise<LocalQueries>;
  /** The record database `importFiles()` loads into (`quarry import --db`, the demo). */
  recordWriter(target: Target): RecordTarget;
  /** `quarry backup`: a consistent copy while in use, or the coded refusal naming the kind's own tools. */
  backup(target: Target, outPath: string, onProgress?: (done: number, total: number) => void): Promise<BackupReport>;
  /** `quarry jwt-secret --from-database`: the secret an earlier Quarry kept in the database. */
  legacyJwtSecret(target: Target): Promise<string>;
  /** The file `npm start` fills with the demo dataset: one that does not exist yet; undefined for none. */
  demoFile(target: Target): string | undefined;
}
