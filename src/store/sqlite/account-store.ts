/**
 * The account tables in SQLite (migration set 'accounts'), in the same file as the records,
 * on a read-write connection owned by the main thread. better-sqlite3 is synchronous; the
 * methods wrap their answers in Promises to meet the asynchronous `AccountStore`.
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { createPrivateFile } from './private-file.ts';
import type { Database as Db } from 'better-sqlite3';
import type {
  AccountPatch,
  AccountRow,
  AccountStore,
  KeyRow,
  NewAccountRow,
  NewKeyRow,
  SessionRow,
  UsageRow,
} from '../accounts.ts';
import { SESSION_PURGE_BATCH, SessionPurgeSchedule } from '../session-purge.ts';
import type { TokenStore } from '../tokens.ts';
import { migrate, type Migration } from './migrate.ts';
import { SqliteTokenStore } from './token-store.ts';

export const ACCOUNT_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, api keys, tokens, sessions, usage, settings',
    up: `
      CREATE TABLE accounts (
        id INTEGER PRIMARY KEY,
        email TEXT NOT NULL UNIQUE COLLATE NOCASE,
        name TEXT,
        username TEXT UNIQUE COLLATE NOCASE,
        password_hash TEXT,
        state TEXT NOT NULL CHECK (state IN ('pending', 'active', 'suspended', 'closed')),
        families TEXT NOT NULL,
        sources TEXT,
        limits TEXT NOT NULL DEFAULT '{}',
        created_at INTEGER NOT NULL,
        state_changed_at INTEGER NOT NULL
      );
      CREATE TABLE api_keys (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts (id),
        name TEXT NOT NULL,
        key_hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER,
        revoked_at INTEGER
      );
      CREATE INDEX api_keys_account ON api_keys (account_id);
      CREATE TABLE tokens (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('opaque', 'jwt')),
        account_id INTEGER NOT NULL REFERENCES accounts (id),
        key_id INTEGER REFERENCES api_keys (id),
        family TEXT NOT NULL,
        issued_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX tokens_expiry ON tokens (expires_at);
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts (id),
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE account_usage (
        account_id INTEGER NOT NULL REFERENCES accounts (id),
        day TEXT NOT NULL,
        requests INTEGER NOT NULL DEFAULT 0,
        rejections INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (account_id, day)
      ) WITHOUT ROWID;
      CREATE TABLE service_settings (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    name: 'jwt token ids hashed, the unused signing secret removed',
    // A JWT's record was keyed by its `jti` in clear, which with the signing secret signs a
    // live token; the key becomes the SHA-256 of the `jti` (base64url, as hashSecret() in
    // src/auth/secrets.ts computes it), so tokens issued before keep working. The secret an
    // earlier Quarry kept in service_settings has not been read since it moved to
    // `<db>.jwt-secret`: no live token is signed with it.
    up: (db) => {
      db.function('quarry_sha256_base64url', { deterministic: true }, (value: unknown) =>
        createHash('sha256').update(String(value), 'utf8').digest('base64url'),
      );
      db.exec(`
        UPDATE tokens SET id = quarry_sha256_base64url(id) WHERE kind = 'jwt';
        DELETE FROM service_settings WHERE name = 'jwt_secret';
      `);
    },
  },
];

const ACCOUNT_COLUMNS = `id, email, name, username, password_hash AS passwordHash, state, families, sources, limits,
  created_at AS createdAt, state_changed_at AS stateChangedAt`;
const KEY_COLUMNS = `id, account_id AS accountId, name, key_hash AS keyHash, prefix, created_at AS createdAt,
  last_used_at AS lastUsedAt, revoked_at AS revokedAt`;

const PATCH_COLUMNS: Record<keyof AccountPatch, string> = {
  name: 'name',
  username: 'username',
  passwordHash: 'password_hash',
  state: 'state',
  stateChangedAt: 'state_changed_at',
  families: 'families',
  sources: 'sources',
  limits: 'limits',
};

/**
 * Opens (creating if needed) the account tables in a SQLite file and applies the
 * 'accounts' migrations. `':memory:'` works for tests.
 *
 * @example const store = openSqliteAccountStore('./data/quarry.db');
 */
export function openSqliteAccountStore(dbPath: string): AccountStore {
  return openSqliteAccountStores(dbPath).accountStore;
}

/** The account store and the token store on its connection; closing the account store closes both. */
export interface SqliteAccountStores {
  readonly accountStore: AccountStore;
  readonly tokenStore: TokenStore;
}

/**
 * Opens the account tables as `openSqliteAccountStore()` does, with the token store on the
 * same connection (a token's look-up joins its account and key).
 *
 * @example const { accountStore, tokenStore } = openSqliteAccountStores('./data/quarry.db');
 */
export function openSqliteAccountStores(dbPath: string): SqliteAccountStores {
  createPrivateFile(dbPath);
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db, 'accounts', ACCOUNT_MIGRATIONS);
  return { accountStore: new SqliteAccountStore(db), tokenStore: new SqliteTokenStore(db) };
}

class SqliteAccountStore implements AccountStore {
  readonly #db: Db;
  readonly #statements = new Map<string, Database.Statement>();
  readonly #sessionPurge = new SessionPurgeSchedule();

  constructor(db: Db) {
    this.#db = db;
  }

  /** Prepared statements are cached: key and session look-ups run on many requests. */
  #prepare(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  insertAccount(row: NewAccountRow): Promise<number> {
    const result = this.#prepare(
      `INSERT INTO accounts (email, name, username, password_hash, state, families, sources, limits, created_at, state_changed_at)
       VALUES (@email, @name, @username, @passwordHash, @state, @families, @sources, @limits, @createdAt, @createdAt)`,
    ).run(row);
    return Promise.resolve(Number(result.lastInsertRowid));
  }

  accountById(id: number): Promise<AccountRow | undefined> {
    return Promise.resolve(
      this.#prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = ?`).get(id) as AccountRow | undefined,
    );
  }

  accountByEmail(email: string): Promise<AccountRow | undefined> {
    return Promise.resolve(
      this.#prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE email = ?`).get(email) as AccountRow | undefined,
    );
  }

  accountByUsername(username: string): Promise<AccountRow | undefined> {
    return Promise.resolve(
      this.#prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE username = ?`).get(username) as
        AccountRow | undefined,
    );
  }

  listAccounts(): Promise<AccountRow[]> {
    return Promise.resolve(this.#prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY id`).all() as AccountRow[]);
  }

  updateAccount(id: number, patch: AccountPatch): Promise<void> {
    const keys = (Object.keys(patch) as Array<keyof AccountPatch>).filter((k) => patch[k] !== undefined);
    if (keys.length === 0) return Promise.resolve();
    const assignments = keys.map((k) => `${PATCH_COLUMNS[k]} = @${k}`).join(', ');
    this.#prepare(`UPDATE accounts SET ${assignments} WHERE id = @id`).run({ ...patch, id });
    return Promise.resolve();
  }

  insertKey(row: NewKeyRow): Promise<number> {
    const result = this.#prepare(
      `INSERT INTO api_keys (account_id, name, key_hash, prefix, created_at, revoked_at) VALUES (@accountId, @name, @keyHash, @prefix, @createdAt, @revokedAt)`,
    ).run({ ...row, revokedAt: row.revokedAt ?? null });
    return Promise.resolve(Number(result.lastInsertRowid));
  }

  keyByHash(hash: string): Promise<KeyRow | undefined> {
    return Promise.resolve(
      this.#prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = ?`).get(hash) as KeyRow | undefined,
    );
  }

  keysOf(accountId: number): Promise<KeyRow[]> {
    return Promise.resolve(
      this.#prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE account_id = ? ORDER BY id`).all(accountId) as KeyRow[],
    );
  }

  revokeKey(id: number, at: number): Promise<void> {
    // An earlier end stands; a later one (an expiry after a revocation) never extends it.
    this.#prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND (revoked_at IS NULL OR revoked_at > ?)').run(
      at,
      id,
      at,
    );
    return Promise.resolve();
  }

  touchKey(id: number, at: number): Promise<void> {
    this.#prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(at, id);
    return Promise.resolve();
  }

  insertSession(row: SessionRow): Promise<void> {
    if (this.#sessionPurge.due(row.createdAt)) {
      // Expired sessions are never read again. No index on expires_at: the table holds a
      // week of sign-ins, and this scan runs at most once a minute.
      this.#prepare('DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at <= ? LIMIT ?)').run(
        row.createdAt,
        SESSION_PURGE_BATCH,
      );
    }
    this.#prepare(
      'INSERT INTO sessions (id, account_id, created_at, expires_at) VALUES (@id, @accountId, @createdAt, @expiresAt)',
    ).run(row);
    return Promise.resolve();
  }

  sessionById(id: string): Promise<SessionRow | undefined> {
    return Promise.resolve(
      this.#prepare(
        'SELECT id, account_id AS accountId, created_at AS createdAt, expires_at AS expiresAt FROM sessions WHERE id = ?',
      ).get(id) as SessionRow | undefined,
    );
  }

  deleteSession(id: string): Promise<void> {
    this.#prepare('DELETE FROM sessions WHERE id = ?').run(id);
    return Promise.resolve();
  }

  deleteSessionsOf(accountId: number): Promise<number> {
    // No index on account_id: this runs when an account is suspended or closed, rarely.
    return Promise.resolve(this.#prepare('DELETE FROM sessions WHERE account_id = ?').run(accountId).changes);
  }

  addUsage(accountId: number, day: string, requests: number, rejections: number): Promise<void> {
    this.#prepare(
      `INSERT INTO account_usage (account_id, day, requests, rejections) VALUES (?, ?, ?, ?)
       ON CONFLICT (account_id, day) DO UPDATE SET requests = requests + excluded.requests, rejections = rejections + excluded.rejections`,
    ).run(accountId, day, requests, rejections);
    return Promise.resolve();
  }

  usageOf(accountId: number, fromDay: string): Promise<UsageRow[]> {
    return Promise.resolve(
      this.#prepare(
        'SELECT day, requests, rejections FROM account_usage WHERE account_id = ? AND day >= ? ORDER BY day',
      ).all(accountId, fromDay) as UsageRow[],
    );
  }

  setting(name: string): Promise<string | undefined> {
    const row = this.#prepare('SELECT value FROM service_settings WHERE name = ?').get(name) as
      { value: string } | undefined;
    return Promise.resolve(row?.value);
  }

  settingOrInsert(name: string, value: string): Promise<string> {
    this.#prepare('INSERT INTO service_settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING').run(
      name,
      value,
    );
    return this.setting(name).then((stored) => stored ?? value);
  }

  ping(): Promise<boolean> {
    try {
      this.#prepare('SELECT 1').get();
      return Promise.resolve(true);
    } catch {
      return Promise.resolve(false);
    }
  }

  close(): Promise<void> {
    if (this.#db.open) this.#db.close();
    return Promise.resolve();
  }
}
