/**
 * The token records in SQLite: the `tokens` table the 'accounts' migrations make
 * (account-store.ts), on the account store's connection, because a look-up joins the
 * token's account and key and an in-memory database (tests) lives on one connection. That
 * connection's owner, the account store, closes it.
 */
import type Database from 'better-sqlite3';
import type { TokenRow, TokenStore, TokenView } from '../tokens.ts';

export class SqliteTokenStore implements TokenStore {
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();

  constructor(db: Database.Database) {
    this.#db = db;
  }

  /** Prepared statements are cached: token look-ups run on every query request. */
  #prepare(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  insertToken(row: TokenRow): Promise<void> {
    this.#prepare(
      `INSERT INTO tokens (id, kind, account_id, key_id, family, issued_at, expires_at)
       VALUES (@id, @kind, @accountId, @keyId, @family, @issuedAt, @expiresAt)`,
    ).run(row);
    return Promise.resolve();
  }

  tokenById(id: string): Promise<TokenView | undefined> {
    return Promise.resolve(
      this.#prepare(
        `SELECT t.id, t.kind, t.account_id AS accountId, t.key_id AS keyId, t.family, t.issued_at AS issuedAt,
                t.expires_at AS expiresAt, a.state AS accountState, k.revoked_at AS keyRevokedAt
         FROM tokens t JOIN accounts a ON a.id = t.account_id LEFT JOIN api_keys k ON k.id = t.key_id
         WHERE t.id = ?`,
      ).get(id) as TokenView | undefined,
    );
  }

  deleteTokensExpiredBefore(at: number): Promise<number> {
    return Promise.resolve(this.#prepare('DELETE FROM tokens WHERE expires_at < ?').run(at).changes);
  }
}
