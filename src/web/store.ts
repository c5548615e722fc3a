/**
 * The web pages' own tables (migration set 'web', in the same SQLite file as records and
 * accounts): one-time login codes an administrator issues, and which accounts may use the
 * administration page. Sessions themselves belong to the account service.
 */
import { randomInt } from 'node:crypto';
import Database from 'better-sqlite3';
import { createPrivateFile } from '../store/sqlite/private-file.ts';
import type { Database as Db } from 'better-sqlite3';
import { hashSecret } from '../auth/secrets.ts';
import { migrate, type Migration } from '../store/sqlite/migrate.ts';

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

/** How long a login code stays usable. */
export const LOGIN_CODE_LIFETIME_MS = 30 * 60 * 1000;

/** Letters and digits that cannot be mistaken for each other when read out or typed. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 12;

/** Upper-cases and drops spaces and dashes, so `abcd-efgh-jkmn` equals `ABCDEFGHJKMN`. */
export function normaliseLoginCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

/**
 * A new login code: 12 characters from a 32-letter alphabet (60 bits), shown in groups of
 * four (`ABCD-EFGH-JKMN`). Only its hash is stored.
 */
export function newLoginCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code.replace(/(.{4})(?=.)/g, '$1-');
}

export class WebStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
    migrate(db, 'web', WEB_MIGRATIONS);
  }

  /** Opens (and migrates) the web tables in the database file at `dbPath`. */
  static open(dbPath: string): WebStore {
    createPrivateFile(dbPath);
    const db = new Database(dbPath);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    return new WebStore(db);
  }

  isAdmin(accountId: number): boolean {
    return this.#db.prepare('SELECT 1 FROM web_admins WHERE account_id = ?').get(accountId) !== undefined;
  }

  setAdmin(accountId: number, admin: boolean, now: number): void {
    if (admin)
      this.#db.prepare('INSERT OR IGNORE INTO web_admins (account_id, granted_at) VALUES (?, ?)').run(accountId, now);
    else this.#db.prepare('DELETE FROM web_admins WHERE account_id = ?').run(accountId);
  }

  adminIds(): Set<number> {
    return new Set(
      this.#db
        .prepare<[], { account_id: number }>('SELECT account_id FROM web_admins')
        .all()
        .map((r) => r.account_id),
    );
  }

  /** Issues a one-time login code for the account; earlier unused codes stop working. */
  issueLoginCode(accountId: number, now: number): { code: string; expiresAt: number } {
    const code = newLoginCode();
    const expiresAt = now + LOGIN_CODE_LIFETIME_MS;
    this.#db.transaction(() => {
      this.#db.prepare('DELETE FROM web_login_codes WHERE account_id = ? OR expires_at < ?').run(accountId, now);
      this.#db
        .prepare('INSERT INTO web_login_codes (code_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
        .run(hashSecret(normaliseLoginCode(code)), accountId, now, expiresAt);
    })();
    return { code, expiresAt };
  }

  /**
   * The account a login code belongs to, marking the code used; undefined for an unknown,
   * used or expired code.
   */
  consumeLoginCode(code: string, now: number): number | undefined {
    const hash = hashSecret(normaliseLoginCode(code));
    return this.#db.transaction(() => {
      const row = this.#db
        .prepare<[string], { account_id: number; expires_at: number; used_at: number | null }>(
          'SELECT account_id, expires_at, used_at FROM web_login_codes WHERE code_hash = ?',
        )
        .get(hash);
      if (!row || row.used_at !== null || row.expires_at <= now) return undefined;
      this.#db.prepare('UPDATE web_login_codes SET used_at = ? WHERE code_hash = ?').run(now, hash);
      return row.account_id;
    })();
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
