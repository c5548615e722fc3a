/** The web tables in PostgreSQL (migration set 'web'); every statement on the primary. */
import type pg from 'pg';
import type { WebStore } from '../web.ts';
import { inTransaction } from './pool.ts';

/**
 * The web store on a PostgreSQL pool whose database the 'web' migrations have reached.
 * Closing it leaves the pool open: its owner ends it.
 */
export function postgresWebStore(pool: pg.Pool): WebStore {
  return {
    async isAdmin(accountId) {
      const { rowCount } = await pool.query('SELECT 1 FROM web_admins WHERE account_id = $1', [accountId]);
      return (rowCount ?? 0) > 0;
    },
    async setAdmin(accountId, admin, now) {
      if (admin)
        await pool.query(
          'INSERT INTO web_admins (account_id, granted_at) VALUES ($1, $2) ON CONFLICT (account_id) DO NOTHING',
          [accountId, now],
        );
      else await pool.query('DELETE FROM web_admins WHERE account_id = $1', [accountId]);
    },
    async adminIds() {
      const { rows } = await pool.query<{ account_id: number }>('SELECT account_id FROM web_admins');
      return new Set(rows.map((r) => r.account_id));
    },
    saveLoginCode(row) {
      return inTransaction(pool, async (client) => {
        await client.query('DELETE FROM web_login_codes WHERE account_id = $1 OR expires_at < $2', [
          row.accountId,
          row.createdAt,
        ]);
        await client.query(
          'INSERT INTO web_login_codes (code_hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
          [row.codeHash, row.accountId, row.createdAt, row.expiresAt],
        );
      });
    },
    async consumeLoginCode(codeHash, now) {
      // One statement: two sign-ins racing with the same code cannot both get the account.
      const { rows } = await pool.query<{ account_id: number }>(
        `UPDATE web_login_codes SET used_at = $2
         WHERE code_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING account_id`,
        [codeHash, now],
      );
      return rows[0]?.account_id;
    },
    close: () => Promise.resolve(),
  };
}
