/**
 * The account tables in PostgreSQL (migration set 'accounts'). Every statement goes to the
 * primary: a revoked key or a suspended account must be refused on the very next request,
 * which a lagging replica could not promise.
 */
import type pg from 'pg';
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

const ACCOUNT_COLUMNS = `id, email, name, username, password_hash AS "passwordHash", state, families, sources, limits,
  created_at AS "createdAt", state_changed_at AS "stateChangedAt"`;
const KEY_COLUMNS = `id, account_id AS "accountId", name, key_hash AS "keyHash", prefix, created_at AS "createdAt",
  last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`;

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
 * The account store on a PostgreSQL pool whose database the 'accounts' migrations have
 * reached (src/store/postgres/migrate.ts). Closing it leaves the pool open: its owner ends it.
 *
 * @example const store = postgresAccountStore(openPostgres({ url }).primary);
 */
export function postgresAccountStore(pool: pg.Pool): AccountStore {
  return new PostgresAccountStore(pool);
}

class PostgresAccountStore implements AccountStore {
  readonly #pool: pg.Pool;
  readonly #sessionPurge = new SessionPurgeSchedule();

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async #one<T>(sql: string, params: unknown[]): Promise<T | undefined> {
    const { rows } = await this.#pool.query(sql, params);
    return rows[0] as T | undefined;
  }

  async #all<T>(sql: string, params: unknown[]): Promise<T[]> {
    const { rows } = await this.#pool.query(sql, params);
    return rows as T[];
  }

  async insertAccount(row: NewAccountRow): Promise<number> {
    const inserted = await this.#one<{ id: number }>(
      `INSERT INTO accounts (email, name, username, password_hash, state, families, sources, limits, created_at, state_changed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING id`,
      [
        row.email,
        row.name,
        row.username,
        row.passwordHash,
        row.state,
        row.families,
        row.sources,
        row.limits,
        row.createdAt,
      ],
    );
    return (inserted as { id: number }).id;
  }

  accountById(id: number): Promise<AccountRow | undefined> {
    return this.#one(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = $1`, [id]);
  }

  accountByEmail(email: string): Promise<AccountRow | undefined> {
    return this.#one(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE lower(email) = lower($1)`, [email]);
  }

  accountByUsername(username: string): Promise<AccountRow | undefined> {
    return this.#one(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE lower(username) = lower($1)`, [username]);
  }

  listAccounts(): Promise<AccountRow[]> {
    return this.#all(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY id`, []);
  }

  async updateAccount(id: number, patch: AccountPatch): Promise<void> {
    const keys = (Object.keys(patch) as Array<keyof AccountPatch>).filter((k) => patch[k] !== undefined);
    if (keys.length === 0) return;
    const assignments = keys.map((k, i) => `${PATCH_COLUMNS[k]} = $${i + 2}`).join(', ');
    await this.#pool.query(`UPDATE accounts SET ${assignments} WHERE id = $1`, [id, ...keys.map((k) => patch[k])]);
  }

  async insertKey(row: NewKeyRow): Promise<number> {
    const inserted = await this.#one<{ id: number }>(
      `INSERT INTO api_keys (account_id, name, key_hash, prefix, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [row.accountId, row.name, row.keyHash, row.prefix, row.createdAt, row.revokedAt ?? null],
    );
    return (inserted as { id: number }).id;
  }

  keyByHash(hash: string): Promise<KeyRow | undefined> {
    return this.#one(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = $1`, [hash]);
  }

  keysOf(accountId: number): Promise<KeyRow[]> {
    return this.#all(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE account_id = $1 ORDER BY id`, [accountId]);
  }

  async revokeKey(id: number, at: number): Promise<void> {
    // An earlier end stands; a later one (an expiry after a revocation) never extends it.
    await this.#pool.query(
      'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND (revoked_at IS NULL OR revoked_at > $1)',
      [at, id],
    );
  }

  async touchKey(id: number, at: number): Promise<void> {
    await this.#pool.query('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [at, id]);
  }

  async insertSession(row: SessionRow): Promise<void> {
    if (this.#sessionPurge.due(row.createdAt)) {
      // Expired sessions are never read again. No index on expires_at: the table holds a
      // week of sign-ins, and this scan runs at most once a minute per instance.
      await this.#pool.query(
        'DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at <= $1 LIMIT $2)',
        [row.createdAt, SESSION_PURGE_BATCH],
      );
    }
    await this.#pool.query('INSERT INTO sessions (id, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
      row.id,
      row.accountId,
      row.createdAt,
      row.expiresAt,
    ]);
  }

  sessionById(id: string): Promise<SessionRow | undefined> {
    return this.#one(
      'SELECT id, account_id AS "accountId", created_at AS "createdAt", expires_at AS "expiresAt" FROM sessions WHERE id = $1',
      [id],
    );
  }

  async deleteSession(id: string): Promise<void> {
    await this.#pool.query('DELETE FROM sessions WHERE id = $1', [id]);
  }

  async deleteSessionsOf(accountId: number): Promise<number> {
    // No index on account_id: this runs when an account is suspended or closed, rarely.
    const result = await this.#pool.query('DELETE FROM sessions WHERE account_id = $1', [accountId]);
    return result.rowCount ?? 0;
  }

  async addUsage(accountId: number, day: string, requests: number, rejections: number): Promise<void> {
    await this.#pool.query(
      `INSERT INTO account_usage (account_id, day, requests, rejections) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id, day) DO UPDATE
       SET requests = account_usage.requests + excluded.requests, rejections = account_usage.rejections + excluded.rejections`,
      [accountId, day, requests, rejections],
    );
  }

  usageOf(accountId: number, fromDay: string): Promise<UsageRow[]> {
    return this.#all(
      'SELECT day, requests, rejections FROM account_usage WHERE account_id = $1 AND day >= $2 ORDER BY day',
      [accountId, fromDay],
    );
  }

  async setting(name: string): Promise<string | undefined> {
    return (await this.#one<{ value: string }>('SELECT value FROM service_settings WHERE name = $1', [name]))?.value;
  }

  async settingOrInsert(name: string, value: string): Promise<string> {
    await this.#pool.query('INSERT INTO service_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
      name,
      value,
    ]);
    return (await this.setting(name)) ?? value;
  }

  async ping(): Promise<boolean> {
    try {
      await this.#pool.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
