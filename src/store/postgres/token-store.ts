/**
 * The token records in PostgreSQL: the `tokens` table of migration set 'accounts', on the
 * primary, because a revoked key or a suspended account must be refused on the very next
 * request, which a lagging replica could not promise.
 */
import type pg from 'pg';
import type { TokenRow, TokenStore, TokenView } from '../tokens.ts';

/**
 * The token store on a PostgreSQL pool whose database the 'accounts' migrations have
 * reached. It holds no connection of its own: the pool's owner ends it.
 *
 * @example const tokens = postgresTokenStore(openPostgres({ url }).primary);
 */
export function postgresTokenStore(pool: pg.Pool): TokenStore {
  return {
    async insertToken(row: TokenRow): Promise<void> {
      await pool.query(
        `INSERT INTO tokens (id, kind, account_id, key_id, family, issued_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [row.id, row.kind, row.accountId, row.keyId, row.family, row.issuedAt, row.expiresAt],
      );
    },

    async tokenById(id: string): Promise<TokenView | undefined> {
      const { rows } = await pool.query<TokenView>(
        `SELECT t.id, t.kind, t.account_id AS "accountId", t.key_id AS "keyId", t.family, t.issued_at AS "issuedAt",
                t.expires_at AS "expiresAt", a.state AS "accountState", k.revoked_at AS "keyRevokedAt"
         FROM tokens t JOIN accounts a ON a.id = t.account_id LEFT JOIN api_keys k ON k.id = t.key_id
         WHERE t.id = $1`,
        [id],
      );
      return rows[0];
    },

    async deleteTokensExpiredBefore(at: number): Promise<number> {
      const result = await pool.query('DELETE FROM tokens WHERE expires_at < $1', [at]);
      return result.rowCount ?? 0;
    },
  };
}
