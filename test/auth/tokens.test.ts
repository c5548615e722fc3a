import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AccountService } from '../../src/accounts/service.ts';
import { openSqliteAccountStore } from '../../src/accounts/store.ts';
import { manualClock } from '../../src/auth/clock.ts';
import { TokenService } from '../../src/auth/tokens.ts';

test('token records: stored by hash, purged a day after they expire', async () => {
  const clock = manualClock('2024-01-01T00:00:00Z');
  const store = openSqliteAccountStore(':memory:');
  const accounts = new AccountService({ store, clock });
  await accounts.createAccount({ email: 'a@example.org', activate: true });
  const { key } = await accounts.createKey('a@example.org');
  const tokens = new TokenService({
    accounts,
    clock,
    jwtSecret: new TextEncoder().encode('x'.repeat(32)),
    lifetimeSeconds: { token: 60, auth: 60 },
    contact: 'ops@example.org',
  });
  const opaque = await tokens.issueOpaque(key);
  const jwt = await tokens.issueJwt({ key });
  assert.equal((await tokens.verifyOpaque(opaque)).family, 'token');
  assert.equal((await tokens.verifyJwt(jwt)).family, 'auth');
  clock.advance(60_000 + 24 * 3600 * 1000 - 1);
  assert.equal(await tokens.purgeExpired(), 0);
  clock.advance(2);
  assert.equal(await tokens.purgeExpired(), 2);
  await assert.rejects(tokens.verifyOpaque(opaque), { message: /not valid/ });
  await accounts.shutdown();
  await store.close();
});
