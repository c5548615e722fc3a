/**
 * The web tables in SQLite (migration set 'web', in the same file as records and accounts).
 * better-sqlite3 is synchronous; the methods wrap their answers in Promises to meet the
 * asynchronous `WebStore`.
 */
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import type { WebStore } from '../web.ts';
import { migrate, type Migration } from './migrate.ts';
import { createPrivateFile } from './private-file.ts';

export const WEB_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'login codes and administrators',
    up: `
      CREATE TABLE web_login_codes (
        code_hash TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        used_at INTEGER
      );
      CREATE INDEX web_login_codes_account ON web_login_codes (account_id);
      CREATE TABLE web_admins (
        account_id INTEGER PRIMARY KEY,
        granted_at INTEGER NOT NULL
      );
    `,
  },
];

/**
 * Opens (and migrates) the web tables in the SQLite file at `dbPath`.
 *
 * @example const store = openSqliteWebStore('./data/quarry.db'); await store.isAdmin(1);
 */
export function openSqliteWebStore(dbPath: string): WebStore {
  createPrivateFile(dbPath);
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  migrate(db, 'web', WEB_MIGRATIONS);
  return new SqliteWebStore(db);
}

class SqliteWebStore implements WebStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  isAdmin(accountId: number): Promise<boolean> {
    return Promise.resolve(
      this.#db.prepare('SELECT 1 FROM web_admins WHERE account_id = ?').get(accountId) !== undefined,
    );
  }

  setAdmin(accountId: number, admin: boolean, now: number): Promise<void> {
    if (admin)
      this.#db.prepare('INSERT OR IGNORE INTO web_admins (account_id, granted_at) VALUES (?, ?)').run(accountId, now);
    else this.#db.prepare('DELETE FROM web_admins WHERE account_id = ?').run(accountId);
    return Promise.resolve();
  }

  adminIds(): Promise<Set<number>> {
    const rows = this.#db.prepare<[], { account_id: number }>('SELECT account_id FROM web_admins').all();
    return Promise.resolve(new Set(rows.map((r) => r.account_id)));
  }

  saveLoginCode(row: { codeHash: string; accountId: number; createdAt: number; expiresAt: number }): Promise<void> {
    this.#db.transaction(() => {
      this.#db
        .prepare('DELETE FROM web_login_codes WHERE account_id = ? OR expires_at < ?')
        .run(row.accountId, row.createdAt);
      this.#db
        .prepare('INSERT INTO web_login_codes (code_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
        .run(row.codeHash, row.accountId, row.createdAt, row.expiresAt);
    })();
    return Promise.resolve();
  }

  consumeLoginCode(codeHash: string, now: number): Promise<number | undefined> {
    const accountId = this.#db.transaction(() => {
      const row = this.#db
        .prepare<[string], { account_id: number; expires_at: number; used_at: number | null }>(
          'SELECT account_id, expires_at, used_at FROM web_login_codes WHERE code_hash = ?',
        )
        .get(codeHash);
      if (!row || row.used_at !== null || row.expires_at <= now) return undefined;
      this.#db.prepare('UPDATE web_login_codes SET used_at = ? WHERE code_hash = ?').run(now, codeHash);
      return row.account_id;
    })();
    return Promise.resolve(accountId);
  }

  close(): Promise<void> {
    if (this.#db.open) this.#db.close();
    return Promise.resolve();
  }
}
