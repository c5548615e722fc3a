import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { AccountStore, SessionRow } from '../../src/store/accounts.ts';
import { SESSION_PURGE_BATCH, SESSION_PURGE_EVERY_MS } from '../../src/store/session-purge.ts';
import { accountBackends } from '../fixtures/account-backends.ts';

// Expired web sessions leave the SQLite and PostgreSQL stores as new ones are created: at
// most once a minute per store, at most SESSION_PURGE_BATCH rows at a time. (Redis expires
// its own; test/store/redis-stores.test.ts.) `sessionById` returns an expired row while it
// is stored, so it shows whether the row is still there.
const T0 = Date.parse('2024-02-03T10:00:00Z');
const MINUTE = 60_000;

for (const backend of accountBackends()) {
  describe(`expired sessions are purged on ${backend.name}`, () => {
    let store: AccountStore;
    let accountId: number;
    let serial = 0;
    before(() => backend.setUp());
    after(() => backend.tearDown());
    beforeEach(async () => {
      store = (await backend.fresh()).accountStore;
      accountId = await store.insertAccount({
        email: 'a@example.org',
        name: null,
        username: null,
        passwordHash: null,
        state: 'active',
        families: '["auth","token"]',
        sources: null,
        limits: '{}',
        createdAt: T0,
      });
    });

    /** Stores a session created at `createdAt` that lasts `lifetimeMs`; returns its id. */
    async function session(createdAt: number, lifetimeMs: number): Promise<string> {
      serial += 1;
      const row: SessionRow = { id: `s${serial}`, accountId, createdAt, expiresAt: createdAt + lifetimeMs };
      await store.insertSession(row);
      return row.id;
    }
    const stored = async (ids: readonly string[]) =>
      (await Promise.all(ids.map((id) => store.sessionById(id)))).filter((row) => row !== undefined).length;

    test('a new session drops the expired ones, not the live ones, at most once a minute', async () => {
      const short = [await session(T0, MINUTE), await session(T0, MINUTE)];
      const long = await session(T0, 3600_000);
      assert.equal(await stored([...short, long]), 3, 'nothing expired yet');

      // Two minutes on, the next session purges: the two short ones expired, the long one lives.
      const next = await session(T0 + 2 * MINUTE, MINUTE / 2);
      assert.equal(await stored(short), 0, 'expired sessions are gone');
      assert.equal(await stored([long, next]), 2, 'live sessions stay');

      // `next` expires at +2.5 min; a session at +2.75 min comes within a minute of the last
      // purge, so it stays; one at +3 min purges again.
      await session(T0 + 2.75 * MINUTE, 3600_000);
      assert.equal(await stored([next]), 1, 'no second purge within the minute');
      await session(T0 + 2 * MINUTE + SESSION_PURGE_EVERY_MS, 3600_000);
      assert.equal(await stored([next]), 0, 'purged a minute later');
      assert.equal(await stored([long]), 1);
    });

    test('one purge deletes at most SESSION_PURGE_BATCH rows; the next one goes on', async () => {
      const expired: string[] = [];
      for (let i = 0; i < SESSION_PURGE_BATCH + 5; i += 1) expired.push(await session(T0, 1));
      assert.equal(await stored(expired), SESSION_PURGE_BATCH + 5);
      await session(T0 + 2 * MINUTE, 3600_000);
      assert.equal(await stored(expired), 5, 'a bounded delete');
      await session(T0 + 4 * MINUTE, 3600_000);
      assert.equal(await stored(expired), 0, 'the rest at the next purge');
    });
  });
}
