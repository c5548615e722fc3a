import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AccountService } from '../../src/accounts/service.ts';
import { manualClock } from '../../src/identity/clock.ts';
import { TokenService } from '../../src/auth/tokens.ts';
import { accountBackends } from '../fixtures/account-backends.ts';

for (const backend of accountBackends()) {
  describe(`tokens on ${backend.name}`, () => {
    before(() => backend.setUp());
    after(() => backend.tearDown());
    test('token records: stored by hash, purged a day after they expire', async () => {
      const clock = manualClock('2024-01-01T00:00:00Z');
      const { accountStore: store, tokenStore } = await backend.fresh();
      const accounts = new AccountService({ store, clock });
      await accounts.createAccount({ email: 'a@example.org', activate: true });
      const { key } = await accounts.createKey('a@example.org');
      const tokens = new TokenService({
        accounts,
        store: tokenStore,
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
    });

    test('keys with an end: an expiring key and a rotated key work until their end, then neither they nor their tokens do', async () => {
      const clock = manualClock('2024-01-01T00:00:00Z');
      const { accountStore: store, tokenStore } = await backend.fresh();
      const accounts = new AccountService({ store, clock });
      await accounts.createAccount({ email: 'a@example.org', activate: true });
      const tokens = new TokenService({
        accounts,
        store: tokenStore,
        clock,
        jwtSecret: new TextEncoder().encode('x'.repeat(32)),
        lifetimeSeconds: { token: 4 * 3600, auth: 4 * 3600 },
        contact: 'ops@example.org',
      });
      const hour = 3600_000;
      const expiring = await accounts.createKey('a@example.org', 'short', { expiresAt: clock.now() + hour });
      const expiringToken = await tokens.issueOpaque(expiring.key);
      await assert.rejects(
        accounts.createKey('a@example.org', 'past', { expiresAt: clock.now() - 1 }),
        /key expiry/,
        'an expiry must lie ahead',
      );

      const original = await accounts.createKey('a@example.org', 'pipeline');
      const originalJwt = await tokens.issueJwt({ key: original.key });
      const rotated = await accounts.rotateKey('a@example.org', original.info.id, 2 * hour);
      assert.equal(
        rotated.info.name,
        `pipeline (rotated ${new Date(clock.now()).toISOString().slice(0, 10)})`,
        'the new key has a name of its own',
      );
      assert.equal(rotated.info.revokedAt, null, 'a key without an end gives one without an end');
      assert.equal(rotated.old.revokedAt, new Date(clock.now() + 2 * hour).toISOString());
      // During the grace period both keys and the old key's tokens work.
      assert.ok(await accounts.resolveKey(original.key));
      assert.ok(await accounts.resolveKey(rotated.key));
      assert.equal((await tokens.verifyJwt(originalJwt)).family, 'auth');
      assert.equal((await tokens.verifyOpaque(expiringToken)).family, 'token');

      clock.advance(hour);
      assert.equal(await accounts.resolveKey(expiring.key), undefined, 'expired');
      await assert.rejects(tokens.verifyOpaque(expiringToken), { code: 'SERVICE_TOKEN_REVOKED' });
      assert.ok(await accounts.resolveKey(original.key), 'still in its grace period');
      // A key whose name ended may be named again; one in use may not.
      await accounts.createKey('a@example.org', 'short');
      await assert.rejects(accounts.createKey('a@example.org', 'pipeline'), /already have a key named/);

      clock.advance(hour);
      assert.equal(await accounts.resolveKey(original.key), undefined, 'the grace period is over');
      await assert.rejects(tokens.verifyJwt(originalJwt), { code: 'SERVICE_TOKEN_REVOKED' });
      assert.ok(await accounts.resolveKey(rotated.key));
      // Rotating a key that expires keeps its expiry; its grace never outlasts it.
      const ending = await accounts.createKey('a@example.org', 'ending', { expiresAt: clock.now() + 3 * hour });
      const successor = await accounts.rotateKey('a@example.org', ending.info.id, 24 * hour);
      assert.equal(successor.info.revokedAt, new Date(clock.now() + 3 * hour).toISOString());
      assert.equal(successor.old.revokedAt, new Date(clock.now() + 3 * hour).toISOString());
      const twice = await accounts.rotateKey('a@example.org', ending.info.id, 24 * hour);
      assert.match(
        twice.info.name,
        /^ending \(rotated \d{4}-\d{2}-\d{2} #2\)$/,
        'a second rotation the same day is numbered',
      );
      await assert.rejects(accounts.createKey('a@example.org', '42'), /digits only/);
      // Revoking during a grace period, or revoking twice, never moves an end later.
      const again = await accounts.rotateKey('a@example.org', rotated.info.id, 24 * hour);
      const revoked = await accounts.revokeKey('a@example.org', again.old.id);
      assert.equal(revoked.revokedAt, new Date(clock.now()).toISOString());
      await accounts.shutdown();
    });
  });
}
