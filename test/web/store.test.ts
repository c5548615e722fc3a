import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  consumeLoginCode,
  issueLoginCode,
  LOGIN_CODE_LIFETIME_MS,
  newLoginCode,
  normaliseLoginCode,
} from '../../src/accounts/login-codes.ts';
import type { AccountState } from '../../src/identity/account-types.ts';
import { isQuarryError } from '../../src/errors/index.ts';
import { accountBackends } from '../fixtures/account-backends.ts';

/** The account fields a login code needs: an active account numbered `id` unless told otherwise. */
const holder = (id: number, state: AccountState = 'active') => ({ id, email: `holder${id}@example.org`, state });

describe('login codes', () => {
  test('look like ABCD-EFGH-JKMN with no easily confused characters', () => {
    for (let i = 0; i < 50; i++)
      assert.match(newLoginCode(), /^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    assert.equal(normaliseLoginCode(' abcd-efgh jkmn '), 'ABCDEFGHJKMN');
  });

  test('are issued to active accounts only: a pending, suspended or closed one could not sign in with it', async () => {
    let saved = 0;
    const store = {
      saveLoginCode: () => Promise.resolve(void saved++),
      consumeLoginCode: () => Promise.resolve(undefined),
    };
    for (const state of ['pending', 'suspended', 'closed'] as const) {
      await assert.rejects(issueLoginCode(store, holder(7, state), Date.now()), (error: unknown) => {
        assert.ok(isQuarryError(error));
        assert.equal(error.code, 'WEB_LOGIN_CODE_ACCOUNT_INACTIVE');
        assert.match(error.message, new RegExp(`holder7@example\\.org is ${state}, and only an active account`));
        return true;
      });
    }
    assert.equal(saved, 0, 'no code was stored');
    await issueLoginCode(store, holder(7), Date.now());
    assert.equal(saved, 1);
  });
});

for (const backend of accountBackends()) {
  describe(`the web store on ${backend.name}`, () => {
    before(() => backend.setUp());
    after(() => backend.tearDown());
    const freshStore = async () => (await backend.fresh()).webStore;

    test('work once, for their lifetime, and a new code replaces the old one', async () => {
      const store = await freshStore();
      const now = Date.parse('2026-01-01T00:00:00Z');
      const first = await issueLoginCode(store, holder(7), now);
      const second = await issueLoginCode(store, holder(7), now);
      assert.equal(await consumeLoginCode(store, first.code, now), undefined, 'replaced');
      assert.equal(await consumeLoginCode(store, second.code.toLowerCase(), now + 1000), 7);
      assert.equal(await consumeLoginCode(store, second.code, now + 2000), undefined, 'used');
      const third = await issueLoginCode(store, holder(7), now);
      assert.equal(await consumeLoginCode(store, third.code, now + LOGIN_CODE_LIFETIME_MS), undefined, 'expired');
      assert.equal(await consumeLoginCode(store, '', now), undefined);
    });

    test('of one account leave the codes of another working', async () => {
      const store = await freshStore();
      const now = Date.parse('2026-01-01T00:00:00Z');
      const ana = await issueLoginCode(store, holder(7), now);
      const ben = await issueLoginCode(store, holder(8), now);
      assert.equal(await consumeLoginCode(store, ana.code, now), 7);
      assert.equal(await consumeLoginCode(store, ben.code, now), 8);
    });

    test('administrators are granted and withdrawn per account', async () => {
      const store = await freshStore();
      assert.equal(await store.isAdmin(1), false);
      await store.setAdmin(1, true, 0);
      await store.setAdmin(1, true, 0);
      assert.equal(await store.isAdmin(1), true);
      assert.deepEqual([...(await store.adminIds())], [1]);
      await store.setAdmin(1, false, 0);
      assert.equal(await store.isAdmin(1), false);
    });
  });
}
