import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { AccountService } from '../../src/accounts/service.ts';
import type { AccountStore } from '../../src/store/accounts.ts';
import { manualClock } from '../../src/identity/clock.ts';
import { hashSecret } from '../../src/auth/secrets.ts';
import { isQuarryError, QuarryError } from '../../src/errors/index.ts';
import { accountBackends } from '../fixtures/account-backends.ts';

function rejectsWith(code: string) {
  return (error: unknown) => {
    assert.ok(isQuarryError(error), String(error));
    assert.equal(error.code, code);
    return true;
  };
}

for (const backend of accountBackends()) {
  describe(`AccountService on ${backend.name}`, () => {
    let store: AccountStore;
    let accounts: AccountService;
    const clock = manualClock('2024-02-03T10:00:00Z');
    before(() => backend.setUp());
    after(() => backend.tearDown());
    beforeEach(async () => {
      store = (await backend.fresh()).accountStore;
      accounts = new AccountService({ store, clock });
    });
    afterEach(async () => {
      await accounts.shutdown();
    });

    test('a new account is pending and subscribed to every family and source', async () => {
      const a = await accounts.createAccount({ email: ' Ana@Example.org ', name: 'Ana' });
      assert.equal(a.email, 'Ana@Example.org');
      assert.equal(a.state, 'pending');
      assert.deepEqual(a.subscription, { families: ['token', 'auth'], sources: 'all' });
      assert.deepEqual(a.limits, {});
      assert.equal(a.createdAt, '2024-02-03T10:00:00.000Z');
      assert.equal((await accounts.getAccount('ana@example.org')).id, a.id, 'e-mail look-up ignores case');
    });

    test('states move pending → active ⇄ suspended → closed, and closed stays closed', async () => {
      await accounts.createAccount({ email: 'a@example.org' });
      await assert.rejects(accounts.suspend('a@example.org'), rejectsWith('SERVICE_ACCOUNT_STATE_CHANGE'));
      assert.equal((await accounts.activate('a@example.org')).state, 'active');
      assert.equal((await accounts.suspend('a@example.org')).state, 'suspended');
      assert.equal((await accounts.activate('a@example.org')).state, 'active');
      assert.equal((await accounts.close('a@example.org')).state, 'closed');
      await assert.rejects(accounts.activate('a@example.org'), rejectsWith('SERVICE_ACCOUNT_STATE_CHANGE'));
      await assert.rejects(accounts.suspend('a@example.org'), rejectsWith('SERVICE_ACCOUNT_STATE_CHANGE'));
    });

    test('duplicate e-mail addresses and usernames are conflicts; bad input is coded', async () => {
      await accounts.createAccount({ email: 'a@example.org', username: 'ana', password: 'long enough pw' });
      await assert.rejects(accounts.createAccount({ email: 'A@example.org' }), rejectsWith('SERVICE_ACCOUNT_EXISTS'));
      await assert.rejects(
        accounts.createAccount({ email: 'b@example.org', username: 'ANA', password: 'long enough pw' }),
        rejectsWith('SERVICE_ACCOUNT_EXISTS'),
      );
      await assert.rejects(
        accounts.createAccount({ email: 'not-an-address' }),
        rejectsWith('SERVICE_INVALID_ACCOUNT_INPUT'),
      );
      await assert.rejects(
        accounts.createAccount({ email: 'c@example.org', username: 'cee' }),
        rejectsWith('SERVICE_INVALID_ACCOUNT_INPUT'),
      );
      await assert.rejects(
        accounts.createAccount({ email: 'd@example.org', username: 'dee', password: 'short' }),
        rejectsWith('SERVICE_INVALID_ACCOUNT_INPUT'),
      );
      await assert.rejects(accounts.getAccount('nobody@example.org'), rejectsWith('SERVICE_ACCOUNT_NOT_FOUND'));
    });

    test('passwords are stored with scrypt and verified by username or e-mail', async () => {
      await accounts.createAccount({ email: 'a@example.org', username: 'ana', password: 'correct horse' });
      const row = await store.accountByEmail('a@example.org');
      assert.match(row?.passwordHash ?? '', /^scrypt\$32768\$8\$1\$/);
      assert.ok(!row?.passwordHash?.includes('correct horse'));
      assert.equal((await accounts.verifyPassword('ana', 'correct horse'))?.email, 'a@example.org');
      assert.equal((await accounts.verifyPassword('a@example.org', 'correct horse'))?.email, 'a@example.org');
      assert.equal(await accounts.verifyPassword('ana', 'wrong horse'), undefined);
      assert.equal(await accounts.verifyPassword('nobody', 'correct horse'), undefined);
      await accounts.setPassword('a@example.org', 'another password');
      assert.equal(await accounts.verifyPassword('ana', 'correct horse'), undefined);
      assert.ok(await accounts.verifyPassword('ana', 'another password'));
    });

    test('API keys: prefixed, random, shown once, stored only as a hash, several per account, revocable by id or name', async () => {
      await accounts.createAccount({ email: 'a@example.org', activate: true });
      const first = await accounts.createKey('a@example.org', 'laptop');
      const second = await accounts.createKey('a@example.org');
      assert.match(first.key, /^qry_[A-Za-z0-9_-]{43}$/);
      assert.notEqual(first.key, second.key);
      assert.equal(second.info.name, 'key 2');
      assert.equal(first.info.prefix, first.key.slice(0, 10));
      const rows = await store.keysOf(first.info.accountId);
      assert.equal(rows.length, 2);
      assert.equal(rows[0]?.keyHash, hashSecret(first.key));
      assert.ok(!JSON.stringify(rows).includes(first.key), 'the key itself is never stored');
      assert.ok(!JSON.stringify(await accounts.listKeys('a@example.org')).includes(first.key));

      assert.equal((await accounts.resolveKey(first.key))?.key.id, first.info.id);
      await accounts.revokeKey('a@example.org', 'laptop');
      assert.equal(await accounts.resolveKey(first.key), undefined);
      assert.ok(await accounts.resolveKey(second.key), 'other keys stay valid');
      await accounts.revokeKey('a@example.org', second.info.id);
      assert.equal(await accounts.resolveKey(second.key), undefined);
      await assert.rejects(accounts.revokeKey('a@example.org', 'no such key'), rejectsWith('SERVICE_KEY_NOT_FOUND'));
    });

    test("the store keeps a key's end as given: set at creation, moved earlier, never later", async () => {
      const a = await accounts.createAccount({ email: 'a@example.org' });
      const base = { accountId: a.id, prefix: 'qk_', createdAt: 1000 };
      const ending = await store.insertKey({ ...base, name: 'ending', keyHash: 'h1', revokedAt: 5000 });
      const open = await store.insertKey({ ...base, name: 'open', keyHash: 'h2' });
      const endOf = async (id: number) => (await store.keysOf(a.id)).find((k) => k.id === id)?.revokedAt;
      assert.equal(await endOf(ending), 5000);
      assert.equal(await endOf(open), null);
      await store.revokeKey(ending, 9000);
      assert.equal(await endOf(ending), 5000, 'a later end does not extend the key');
      await store.revokeKey(ending, 3000);
      assert.equal(await endOf(ending), 3000, 'an earlier end replaces it');
      await store.revokeKey(open, 7000);
      assert.equal(await endOf(open), 7000);
    });

    test('subscriptions: families and sources, checked', async () => {
      await accounts.createAccount({ email: 'a@example.org', subscription: { families: ['auth'] } });
      let a = await accounts.subscribe('a@example.org', { sources: ['grants', 'publications', 'grants'] });
      assert.deepEqual(a.subscription, { families: ['auth'], sources: ['grants', 'publications'] });
      a = await accounts.subscribe('a@example.org', { families: ['auth', 'token'], sources: 'all' });
      assert.deepEqual(a.subscription, { families: ['token', 'auth'], sources: 'all' });
      await assert.rejects(
        accounts.subscribe('a@example.org', { families: ['smoke-signals' as 'auth'] }),
        rejectsWith('SERVICE_INVALID_ACCOUNT_INPUT'),
      );
    });

    test('per-account limit overrides', async () => {
      await accounts.createAccount({ email: 'a@example.org' });
      assert.deepEqual((await accounts.setLimits('a@example.org', { queriesPerWindow: 100 })).limits, {
        queriesPerWindow: 100,
      });
      await assert.rejects(
        accounts.setLimits('a@example.org', { queriesPerWindow: 0 }),
        rejectsWith('SERVICE_INVALID_ACCOUNT_INPUT'),
      );
      assert.deepEqual((await accounts.setLimits('a@example.org', {})).limits, {});
    });

    test('usage counters: requests and rejections per UTC day', async () => {
      const a = await accounts.createAccount({ email: 'a@example.org' });
      accounts.recordUsage(a.id, { requests: 1 });
      accounts.recordUsage(a.id, { requests: 1 });
      accounts.recordUsage(a.id, { rejections: 1 });
      await accounts.flushUsage();
      clock.advance(24 * 3600 * 1000);
      accounts.recordUsage(a.id, { requests: 1 });
      assert.deepEqual(await accounts.usage('a@example.org'), [
        { day: '2024-02-03', requests: 2, rejections: 1 },
        { day: '2024-02-04', requests: 1, rejections: 0 },
      ]);
      assert.deepEqual(await accounts.usage('a@example.org', 1), [{ day: '2024-02-04', requests: 1, rejections: 0 }]);
    });

    test('web sessions: the secret is returned once, stored hashed, and expires', async () => {
      await accounts.createAccount({ email: 'a@example.org', activate: true });
      const { sessionId } = await accounts.createSession('a@example.org');
      assert.equal(await store.sessionById(sessionId), undefined);
      assert.equal((await accounts.resolveSession(sessionId))?.email, 'a@example.org');
      await accounts.endSession(sessionId);
      assert.equal(await accounts.resolveSession(sessionId), undefined);
      const later = await accounts.createSession('a@example.org');
      clock.advance(8 * 24 * 3600 * 1000);
      assert.equal(await accounts.resolveSession(later.sessionId), undefined);
    });

    test("suspending or closing ends every web session of the account, and no other account's", async () => {
      await accounts.createAccount({ email: 'a@example.org', activate: true });
      await accounts.createAccount({ email: 'b@example.org', activate: true });
      const live = async (s: { sessionId: string }) => (await store.sessionById(hashSecret(s.sessionId))) !== undefined;
      for (const action of ['suspend', 'close'] as const) {
        const mine = [await accounts.createSession('a@example.org'), await accounts.createSession('a@example.org')];
        const theirs = await accounts.createSession('b@example.org');
        await accounts[action]('a@example.org');
        assert.deepEqual(await Promise.all(mine.map(live)), [false, false], action);
        assert.equal(await live(theirs), true, `${action}: another account's session stays`);
        if (action === 'suspend') {
          const again = await accounts.createSession('a@example.org');
          await accounts.activate('a@example.org');
          assert.equal(await live(again), true, 'activating ends nothing');
        }
      }
      assert.equal(await store.deleteSessionsOf(12345), 0, 'an account without sessions');
    });

    test('a suspension stands when the session store does not answer: the pages check the state on each request', async () => {
      await accounts.createAccount({ email: 'a@example.org', activate: true });
      const down = () => Promise.reject(QuarryError.of('SERVICE_UNAVAILABLE', { params: { reason: 'test' } }));
      const cut = new AccountService({
        store,
        clock,
        sessions: { insertSession: down, sessionById: down, deleteSession: down, deleteSessionsOf: down },
      });
      try {
        assert.equal((await cut.suspend('a@example.org')).state, 'suspended');
        assert.equal((await accounts.getAccount('a@example.org')).state, 'suspended');
      } finally {
        await cut.shutdown();
      }
    });
  });
}
