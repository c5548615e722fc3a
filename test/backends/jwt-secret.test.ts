// The token-signing secret is never in the database. A read of a PostgreSQL database (every
// table) cannot rebuild a live JWT: the secret comes from QUARRY_JWT_SECRET or the file
// QUARRY_JWT_SECRET_FILE names, the same on every instance, and a JWT's `jti` is stored
// hashed. Without a configured secret a PostgreSQL service refuses to start; a database
// whose secret an earlier Quarry kept in it is upgraded by exporting that secret once.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { decodeJwt } from 'jose';
import { AccountService } from '../../src/accounts/service.ts';
import { systemClock } from '../../src/identity/clock.ts';
import { signJwt } from '../../src/auth/jwt.ts';
import { hashSecret, randomSecret } from '../../src/auth/secrets.ts';
import { openServiceBackends } from '../../src/backends.ts';
import { loadConfig, type DeepPartial, type QuarryConfig } from '../../src/config.ts';
import { isQuarryError } from '../../src/errors/index.ts';
import { startService } from '../../src/main.ts';
import { postgresAccountStore } from '../../src/store/postgres/account-store.ts';
import { listMigrations, migratePostgres, pgSchemaVersion } from '../../src/store/postgres/migrate.ts';
import { openPostgres } from '../../src/store/postgres/pool.ts';
import { postgresTokenStore } from '../../src/store/postgres/token-store.ts';
import { createTestPgDatabase, queryPg, type TestPgDatabase } from '../fixtures/pg-db.ts';

const BIN = fileURLToPath(new URL('../../bin/quarry.js', import.meta.url));
const QUERY = 'search publications return publications[id] limit 1';

function config(database: string, overrides: DeepPartial<QuarryConfig> = {}): QuarryConfig {
  return loadConfig({
    overrides: { database, host: '127.0.0.1', port: 0, logLevel: 'silent', query: { workers: 1 }, ...overrides },
  });
}

/** Every row of every table of the database, as text: what a read of the database yields. */
async function everyRow(url: string): Promise<string> {
  const tables = await queryPg<{ name: string }>(
    url,
    `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
     WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  assert.ok(tables.some((t) => t.name === 'public.tokens'));
  const rows: string[] = [];
  for (const { name } of tables)
    rows.push(...(await queryPg<{ row: string }>(url, `SELECT t::text AS row FROM ${name} t`)).map((r) => r.row));
  return rows.join('\n');
}

async function jwtQuery(base: string, jwt: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${base}/api/dsl/v2`, {
    method: 'POST',
    headers: { authorization: `JWT ${jwt}` },
    body: QUERY,
  });
  return { status: response.status, text: await response.text() };
}

describe('the token-signing secret on PostgreSQL', { timeout: 120_000 }, () => {
  let work: string;
  const databases: TestPgDatabase[] = [];
  const database = async (label: string) => {
    const made = await createTestPgDatabase(label);
    databases.push(made);
    return made;
  };
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'quarry-jwt-secret-'));
  });
  after(async () => {
    for (const made of databases) await made.drop();
    rmSync(work, { recursive: true, force: true });
  });

  test('without one configured the service refuses to start, coded, before it writes anything', async () => {
    const db = await database('no_secret');
    await assert.rejects(openServiceBackends(config(db.url)), (error: unknown) => {
      assert.ok(isQuarryError(error));
      assert.equal(error.code, 'SERVICE_JWT_SECRET_REQUIRED');
      assert.match(error.message, /QUARRY_JWT_SECRET_FILE .*or QUARRY_JWT_SECRET/);
      assert.doesNotMatch(error.message, /earlier Quarry/, 'nothing to upgrade here');
      return true;
    });
    const [made] = await queryPg<{ t: string | null }>(db.url, "SELECT to_regclass('schema_migrations') AS t");
    assert.equal(made?.t, null, 'no migration ran, no secret was stored');
  });

  test('a read of every table rebuilds no live JWT: neither the secret nor a jti is in it', async () => {
    const db = await database('read_all');
    const secret = randomSecret(32);
    const service = await startService(config(db.url, { tokens: { jwtSecret: secret } }), {});
    try {
      const account = await service.accounts.createAccount({ email: 'ana@example.org', activate: true });
      const { key } = await service.accounts.createKey(account.email, 'laptop');
      const opaque = (await (await fetch(`${service.url}/v3/token?api_key=${key}`)).text()).trim();
      const auth = await fetch(`${service.url}/api/auth`, { method: 'POST', body: JSON.stringify({ key }) });
      const jwt = ((await auth.json()) as { token: string }).token;
      assert.equal((await jwtQuery(service.url, jwt)).status, 200);
      const jti = decodeJwt(jwt).jti as string;

      const dump = await everyRow(db.url);
      assert.ok(dump.includes(hashSecret(jti)), 'the JWT is recorded, by the hash of its jti');
      assert.ok(!dump.includes(secret), 'the signing secret is not in the database');
      assert.ok(!dump.includes(jti), 'no jti in clear');
      const clear: Array<[string, string]> = [
        ['JWT', jwt],
        ['opaque token', opaque],
        ['API key', key],
      ];
      for (const [what, value] of clear) assert.ok(!dump.includes(value), `no ${what}`);
    } finally {
      await service.close();
    }
  });

  test('a secret file: read, never created; a missing or short one is a coded error that does not echo it', async () => {
    const db = await database('secret_file');
    const missing = join(work, 'missing-secret');
    const refused = (detail: RegExp, secretText?: string) => (error: unknown) => {
      assert.ok(isQuarryError(error));
      assert.equal(error.code, 'SERVICE_CONFIG_INVALID');
      assert.match(error.message, detail);
      if (secretText !== undefined) assert.doesNotMatch(error.message, new RegExp(secretText));
      return true;
    };
    await assert.rejects(
      openServiceBackends(config(db.url, { tokens: { jwtSecretFile: missing } })),
      refused(/missing-secret cannot be read \(ENOENT\)/),
    );
    const short = join(work, 'short-secret');
    writeFileSync(short, 'tooshort-s3cret\n');
    await assert.rejects(
      openServiceBackends(config(db.url, { tokens: { jwtSecretFile: short } })),
      refused(/at least 32 characters/, 'tooshort-s3cret'),
    );
    assert.throws(
      () => config(db.url, { tokens: { jwtSecretFile: short, jwtSecret: randomSecret(32) } }),
      refused(/not both/),
    );
    const [made] = await queryPg<{ t: string | null }>(db.url, "SELECT to_regclass('schema_migrations') AS t");
    assert.equal(made?.t, null, 'refused before the database was touched');
  });

  test('upgrading a database that holds the secret: refused until configured; exported once, old tokens stay valid; removed at the next start', async () => {
    const db = await database('upgrade');
    // What an earlier Quarry left: the accounts tables at migration 1, its secret in
    // service_settings, and a live JWT recorded under its jti in clear.
    const pools = openPostgres({ url: db.url, max: 2 });
    const oldSecret = randomSecret(32);
    let jwt: string;
    let keyId: number;
    try {
      await migratePostgres(pools.primary, {
        sets: [],
        code: { accounts: (listMigrations({ sets: ['accounts'] }).get('accounts') ?? []).slice(0, 1) },
      });
      await pools.primary.query("INSERT INTO service_settings (name, value) VALUES ('jwt_secret', $1)", [oldSecret]);
      const store = postgresAccountStore(pools.primary);
      const accounts = new AccountService({ store });
      const account = await accounts.createAccount({ email: 'old@example.org', activate: true });
      keyId = (await accounts.createKey(account.email, 'pipeline')).info.id;
      await accounts.shutdown();
      const jti = randomSecret(16);
      const now = systemClock.now();
      await postgresTokenStore(pools.primary).insertToken({
        id: jti,
        kind: 'jwt',
        accountId: account.id,
        keyId,
        family: 'auth',
        issuedAt: now,
        expiresAt: now + 3600_000,
      });
      jwt = await signJwt(new TextEncoder().encode(oldSecret), {
        sub: String(account.id),
        jti,
        iat: Math.floor(now / 1000),
        exp: Math.floor(now / 1000) + 3600,
        key: keyId,
        family: 'auth',
      });
    } finally {
      await pools.close();
    }

    // The new version without a secret: refused, saying how to keep the old one; nothing changed.
    await assert.rejects(openServiceBackends(config(db.url)), (error: unknown) => {
      assert.ok(isQuarryError(error));
      assert.equal(error.code, 'SERVICE_JWT_SECRET_REQUIRED');
      assert.match(
        error.message,
        /still holds the secret an earlier Quarry kept in it: `quarry jwt-secret --from-database/,
      );
      assert.doesNotMatch(error.message, new RegExp(oldSecret));
      return true;
    });
    const still = openPostgres({ url: db.url, max: 1 });
    try {
      assert.equal(await pgSchemaVersion(still.primary, 'accounts'), 1, 'no migration ran');
    } finally {
      await still.close();
    }

    // Exported once, to a file every instance is given.
    const exported = spawnSync(process.execPath, [BIN, 'jwt-secret', '--from-database', '--db', db.url], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(exported.status, 0, exported.stderr);
    assert.equal(exported.stdout, `${oldSecret}\n`);
    const file = join(work, 'jwt-secret');
    writeFileSync(file, exported.stdout, { mode: 0o600 });

    // Started with it: the database's copy is removed, the old JWT (its record now hashed) works.
    const first = await openServiceBackends(config(db.url, { tokens: { jwtSecretFile: file } }));
    assert.equal(first.removedDatabaseSecret, 'same');
    assert.equal(first.jwtSecret, oldSecret);
    await first.close();
    const service = await startService(config(db.url, { tokens: { jwtSecretFile: file } }), {});
    try {
      const answer = await jwtQuery(service.url, jwt);
      assert.equal(answer.status, 200, answer.text);
      const dump = await everyRow(db.url);
      assert.ok(!dump.includes(oldSecret), 'the secret is gone from the database');
      assert.ok(!dump.includes(decodeJwt(jwt).jti as string), 'and so is the jti in clear');
      // Revocation still reaches the old token.
      await service.accounts.revokeKey('old@example.org', keyId);
      const revoked = await jwtQuery(service.url, jwt);
      assert.equal(revoked.status, 403);
      assert.match(revoked.text, /SERVICE_TOKEN_REVOKED/);
    } finally {
      await service.close();
    }
    const none = spawnSync(process.execPath, [BIN, 'jwt-secret', '--from-database', '--db', db.url], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(none.status, 1, 'not found (docs/errors.md)');
    assert.ok(none.stderr.includes('SERVICE_JWT_SECRET_NOT_IN_DATABASE'), none.stderr);
    assert.doesNotMatch(none.stderr, /^\s+at /m, 'no stack trace');
  });

  test('a configured secret other than the one in the database: that one is removed, and reported as different', async () => {
    const db = await database('other_secret');
    const pools = openPostgres({ url: db.url, max: 1 });
    try {
      await migratePostgres(pools.primary, {
        sets: [],
        code: { accounts: (listMigrations({ sets: ['accounts'] }).get('accounts') ?? []).slice(0, 1) },
      });
      await pools.primary.query("INSERT INTO service_settings (name, value) VALUES ('jwt_secret', $1)", [
        randomSecret(32),
      ]);
    } finally {
      await pools.close();
    }
    const backends = await openServiceBackends(config(db.url, { tokens: { jwtSecret: randomSecret(32) } }));
    try {
      assert.equal(backends.removedDatabaseSecret, 'different');
      assert.equal(await backends.accountStore.setting('jwt_secret'), undefined);
    } finally {
      await backends.close();
    }
  });

  test('`quarry jwt-secret` prints a new 256-bit secret each time', () => {
    const run = () => spawnSync(process.execPath, [BIN, 'jwt-secret'], { encoding: 'utf8', timeout: 60_000 });
    const [one, two] = [run(), run()];
    assert.equal(one.status, 0, one.stderr);
    assert.match(one.stdout, /^[\w-]{43}\n$/);
    assert.equal(Buffer.from(one.stdout.trim(), 'base64url').length, 32);
    assert.notEqual(one.stdout, two.stdout);
  });
});
