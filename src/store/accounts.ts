/**
 * The account side's storage contract: what the account service and the web pages need
 * from a database, whichever database it is. The token records have their own contract
 * (`tokens.ts`).
 */
import type { AccountState } from '../identity/account-types.ts';

/**
 * Persistence for accounts, API keys, usage counters and service settings, plus the web
 * sessions of `SessionStore`. Asynchronous so a networked back end fits: SQLite
 * (`sqlite/account-store.ts`) and PostgreSQL implement it; the composition root
 * (`src/backends.ts`) picks one. Implementations never see a secret: keys and sessions
 * arrive hashed. All times are milliseconds since the epoch.
 */
export interface AccountStore extends SessionStore {
  insertAccount(row: NewAccountRow): Promise<number>;
  accountById(id: number): Promise<AccountRow | undefined>;
  accountByEmail(email: string): Promise<AccountRow | undefined>;
  accountByUsername(username: string): Promise<AccountRow | undefined>;
  listAccounts(): Promise<AccountRow[]>;
  updateAccount(id: number, patch: AccountPatch): Promise<void>;

  insertKey(row: NewKeyRow): Promise<number>;
  keyByHash(hash: string): Promise<KeyRow | undefined>;
  keysOf(accountId: number): Promise<KeyRow[]>;
  /** Sets when the key stops working (now to revoke, later for a grace period); an earlier end stands. */
  revokeKey(id: number, at: number): Promise<void>;
  touchKey(id: number, at: number): Promise<void>;

  addUsage(accountId: number, day: string, requests: number, rejections: number): Promise<void>;
  usageOf(accountId: number, fromDay: string): Promise<UsageRow[]>;

  setting(name: string): Promise<string | undefined>;
  /** Stores a setting unless one exists; returns the value that is stored afterwards. */
  settingOrInsert(name: string, value: string): Promise<string>;

  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Web sessions, apart from the other account tables so that several instances can keep them
 * in a shared store (Redis) while accounts stay in the database.
 */
export interface SessionStore {
  insertSession(row: SessionRow): Promise<void>;
  /** The session, or undefined when unknown (an expired one may still be returned; callers check). */
  sessionById(id: string): Promise<SessionRow | undefined>;
  deleteSession(id: string): Promise<void>;
  /** Ends every session of the account (it was suspended or closed); returns how many there were. */
  deleteSessionsOf(accountId: number): Promise<number>;
}

export interface NewAccountRow {
  readonly email: string;
  readonly name: string | null;
  readonly username: string | null;
  readonly passwordHash: string | null;
  readonly state: AccountState;
  /** JSON array of families. */
  readonly families: string;
  /** JSON array of sources, or null for all. */
  readonly sources: string | null;
  /** JSON object of limit overrides. */
  readonly limits: string;
  readonly createdAt: number;
}

export interface AccountRow extends NewAccountRow {
  readonly id: number;
  readonly stateChangedAt: number;
}

export type AccountPatch = Partial<
  Pick<
    AccountRow,
    'name' | 'username' | 'passwordHash' | 'state' | 'stateChangedAt' | 'families' | 'sources' | 'limits'
  >
>;

export interface NewKeyRow {
  readonly accountId: number;
  readonly name: string;
  readonly keyHash: string;
  readonly prefix: string;
  readonly createdAt: number;
  /** When the key stops working, if that is known at creation (an expiry). */
  readonly revokedAt?: number | null;
}

export interface KeyRow extends NewKeyRow {
  readonly id: number;
  readonly lastUsedAt: number | null;
  /**
   * When the key stops (or stopped) working: a past instant for a revoked key, a future one
   * for a key that expires or was rotated and is in its grace period; null: no end.
   */
  readonly revokedAt: number | null;
}

export interface SessionRow {
  /** SHA-256 of the session secret held in the browser's cookie. */
  readonly id: string;
  readonly accountId: number;
  readonly createdAt: number;
  readonly expiresAt: number;
}

export interface UsageRow {
  readonly day: string;
  readonly requests: number;
  readonly rejections: number;
}
