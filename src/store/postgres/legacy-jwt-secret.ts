/**
 * The token-signing secret an earlier Quarry generated and kept in `service_settings`
 * (`jwt_secret`), where a read of the database (a dump, a backup, a replica, an injection)
 * found it. The secret now comes from outside the database; what is left there is read once
 * for the upgrade (`quarry jwt-secret --from-database`) and removed by the first start with
 * a configured secret.
 */
import type pg from 'pg';

const SETTING = 'jwt_secret';

/** The secret still in the database, or undefined (none, or no account tables yet). */
export async function legacyJwtSecret(pool: pg.Pool): Promise<string | undefined> {
  const exists = await pool.query<{ ok: boolean }>("SELECT to_regclass('service_settings') IS NOT NULL AS ok");
  if (exists.rows[0]?.ok !== true) return undefined;
  const { rows } = await pool.query<{ value: string }>('SELECT value FROM service_settings WHERE name = $1', [SETTING]);
  return rows[0]?.value;
}

/** Removes the secret from the database; returns it, or undefined when there was none. */
export async function dropLegacyJwtSecret(pool: pg.Pool): Promise<string | undefined> {
  const { rows } = await pool.query<{ value: string }>('DELETE FROM service_settings WHERE name = $1 RETURNING value', [
    SETTING,
  ]);
  return rows[0]?.value;
}
