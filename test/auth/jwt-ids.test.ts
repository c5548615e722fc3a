// A JWT's record is keyed by the SHA-256 of its `jti`, never the `jti` itself: with the
// signing secret, a `jti` read from the database would sign a live token. On both engines,
// for new tokens and (through the accounts migration 2) for tokens issued before.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { decodeJwt } from 'jose';
import { AccountService } from '../../src/accounts/service.ts';
import { manualClock } from '../../src/identity/clock.ts';
import { signJwt } from '../../src/auth/jwt.ts';
import { hashSecret, randomSecret } from '../../src/auth/secrets.ts';
import { TokenService } from '../../src/auth/tokens.ts';
import type { AccountStore } from '../../src/store/accounts.ts';
import { postgresAccountStore } from '../../src/store/postgres/account-store.ts';
import { listMigrations, migratePostgres } from '../../src/store/postgres/migrate.ts';
import { openPostgres, type PostgresPools } from '../../src/store/postgres/pool.ts';
import { postgresTokenStore } from '../../src/store/postgres/token-store.ts';
import { openSqliteAccountStores } from '../../src/store/sqlite/account-store.ts';
import type { TokenStore } from '../../src/store/tokens.ts';
import { accountBackends } from '../fixtures/account-backends.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../fixtures/pg-db.ts';

const SECRET = new TextEncoder().encode('s'.repeat(32));
const HOUR = 3600_000;

/** The account store and the token store beside it. */
interface Stores {
  readonly accountStore: AccountStore;
  readonly tokenStore: TokenStore;
}

function tokenService(
  accounts: AccountService,
  store: TokenStore,
  clock: ReturnType<typeof manualClock>,
): TokenService {
  return new TokenService({
    accounts,
    store,
    clock,
    jwtSecret: SECRET,
    lifetimeSeconds: { token: 3600, auth: 3600 },
    contact: 'ops@example.org',
  });
}

for (const backend of accountBackends()) {
  describe(`JWT records on ${backend.name}`, () => {
    before(() => backend.setUp());
    after(() => backend.tearDown());

    test('are stored under the SHA-256 of the jti; the jti itself finds nothing; revocation still applies', async () => {
      const clock = manualClock('2024-01-01T00:00:00Z');
      const { accountStore: store, tokenStore } = await backend.fresh();
      const accounts = new AccountService({ store, clock });
      await accounts.createAccount({ email: 'a@example.org', activate: true });
      const { key, info } = await accounts.createKey('a@example.org');
      const tokens = tokenService(accounts, tokenStore, clock);
      const jwt = await tokens.issueJwt({ key });
      const jti = decodeJwt(jwt).jti as string;
      assert.equal(await tokenStore.tokenById(jti), undefined, 'no record under the jti in clear');
      assert.equal((await tokenStore.tokenById(hashSecret(jti)))?.kind, 'jwt');
      assert.equal((await tokens.verifyJwt(jwt)).accountId, info.id);
      await accounts.revokeKey('a@example.org', info.id);
      await assert.rejects(tokens.verifyJwt(jwt), { code: 'SERVICE_TOKEN_REVOKED' });
      await accounts.shutdown();
    });
  });
}

/**
 * What an earlier Quarry left: an account and key, and a JWT record under its `jti` in clear
 * (signed with SECRET); returns the token.
 */
async function issuedBeforeTheUpgrade(stores: Stores, clock: ReturnType<typeof manualClock>): Promise<string> {
  const accounts = new AccountService({ store: stores.accountStore, clock });
  await accounts.createAccount({ email: 'old@example.org', activate: true });
  const { info } = await accounts.createKey('old@example.org');
  await accounts.shutdown();
  const jti = randomSecret(16);
  const account = await accounts.getAccount('old@example.org');
  await stores.tokenStore.insertToken({
    id: jti,
    kind: 'jwt',
    accountId: account.id,
    keyId: info.id,
    family: 'auth',
    issuedAt: clock.now(),
    expiresAt: clock.now() + HOUR,
  });
  return signJwt(SECRET, {
    sub: String(account.id),
    jti,
    iat: Math.floor(clock.now() / 1000),
    exp: Math.floor((clock.now() + HOUR) / 1000),
    key: info.id,
    family: 'auth',
  });
}

/** The migrated store: the old record found under the hash only, and the old token accepted. */
async function assertMigrated(stores: Stores, jwt: string, clock: ReturnType<typeof manualClock>): Promise<void> {
  const jti = decodeJwt(jwt).jti as string;
  assert.equal(await stores.tokenStore.tokenById(jti), undefined, 'the jti in clear is gone');
  assert.equal((await stores.tokenStore.tokenById(hashSecret(jti)))?.kind, 'jwt');
  const accounts = new AccountService({ store: stores.accountStore, clock });
  const tokens = tokenService(accounts, stores.tokenStore, clock);
  assert.equal((await tokens.verifyJwt(jwt)).family, 'auth', 'a token issued before works');
  await accounts.shutdown();
}

describe('the accounts migration 2 hashes the jti of JWTs issued before', () => {
  test('SQLite (and drops the signing secret an earlier Quarry kept in service_settings)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-jwt-ids-'));
    try {
      const path = join(dir, 'accounts.db');
      const clock = manualClock('2024-01-01T00:00:00Z');
      const before = openSqliteAccountStores(path);
      const jwt = await issuedBeforeTheUpgrade(before, clock);
      await before.accountStore.close();
      // Migration 2 changes rows, not tables: without its record the file is as migration 1 left it.
      const db = new Database(path);
      db.prepare("DELETE FROM schema_migrations WHERE migration_set = 'accounts' AND version = 2").run();
      db.prepare("INSERT INTO service_settings (name, value) VALUES ('jwt_secret', 'the old secret')").run();
      db.close();

      const stores = openSqliteAccountStores(path);
      try {
        await assertMigrated(stores, jwt, clock);
        assert.equal(await stores.accountStore.setting('jwt_secret'), undefined);
      } finally {
        await stores.accountStore.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('PostgreSQL', () => {
    let database: TestPgDatabase;
    let pools: PostgresPools;
    before(async () => {
      database = await createTestPgDatabase('jwt_ids');
      pools = openPostgres({ url: database.url, max: 2 });
    });
    after(async () => {
      await pools.close();
      await database.drop();
    });

    test('a token issued before the upgrade is found by its hash and still accepted', async () => {
      const first = (listMigrations({ sets: ['accounts'] }).get('accounts') ?? []).slice(0, 1);
      await migratePostgres(pools.primary, { sets: [], code: { accounts: first } });
      const clock = manualClock('2024-01-01T00:00:00Z');
      const stores = {
        accountStore: postgresAccountStore(pools.primary),
        tokenStore: postgresTokenStore(pools.primary),
      };
      const jwt = await issuedBeforeTheUpgrade(stores, clock);
      await migratePostgres(pools.primary, { sets: ['accounts'] });
      await assertMigrated(stores, jwt, clock);
    });
  });
});
